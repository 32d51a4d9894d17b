// ESLint's default "stylish" formatter: a file header line (the path alone), then one body line per problem,
// columns separated by runs of spaces: `  12:5  error  message  rule-id`. The rule column is missing for
// parsing errors. A header is recognised only as the line right before a block of body lines.
import { checkoutPath } from './checkout-path.js';
import type { LineFinding } from './finding.js';

const BODY = /^\s+(\d+):(\d+)\s+(error|warning)\s+(\S.*)$/;
// Core rules (no-undef), plugin rules (react/no-danger, @typescript-eslint/no-explicit-any).
const RULE = /^(?:@[\w.-]+\/)?[\w.-]+(?:\/[\w.-]+)*$/;

export function parseEslintStylish(lines: readonly string[], cwd?: string): LineFinding[] {
  const findings: LineFinding[] = [];
  let file: string | undefined;
  let inBlock = false;
  for (let at = 0; at < lines.length; at++) {
    const line = lines[at] ?? '';
    const body = BODY.exec(line);
    if (body === null) {
      inBlock = false;
      continue;
    }
    if (!inBlock) {
      const header = at > 0 ? (lines[at - 1] ?? '') : '';
      file = headerPath(header) === undefined ? undefined : checkoutPath(header, cwd);
      inBlock = true;
    }
    const columns = (body[4] ?? '').split(/\s{2,}/);
    const last = columns[columns.length - 1] ?? '';
    const hasRule = columns.length >= 2 && RULE.test(last);
    findings.push({
      at,
      severity: body[3] === 'warning' ? 'warning' : 'error',
      message: (hasRule ? columns.slice(0, -1) : columns).join('  '),
      file,
      line: Number(body[1]),
      col: Number(body[2]),
      rule: hasRule ? last : undefined,
      narrow: file === undefined ? undefined : { file },
    });
  }
  return findings;
}

// A path alone on its line: not indented, no run of spaces, and shaped like a file (a separator or an extension).
function headerPath(line: string): string | undefined {
  if (line === '' || /^\s/.test(line) || /\s{2,}|\t/.test(line)) return undefined;
  return /[\\/]/.test(line) || /\.[A-Za-z0-9]+$/.test(line) ? line : undefined;
}
