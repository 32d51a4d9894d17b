// The eslint-formatter-pretty shape xo and tsd print: a file header indented two spaces (`  src/app.js:2:1`,
// the position of its first problem), then per problem `  ✖  2:9  message  rule` (`⚠` for a warning); tsd's
// lines have no rule. Columns are runs of two or more spaces. tsd writes column 0 for a whole-line problem.
import { checkoutPath } from '../checkout-path.js';
import type { LineFinding } from '../finding.js';

const HEADER = /^ {2}(\S.*?):\d+:\d+$/;
const PROBLEM = /^ {2}([✖⚠])\s+(\d+):(\d+)\s+(\S.*?)\s*$/;

export function parsePrettyLint(lines: readonly string[], cwd?: string): LineFinding[] {
  const findings: LineFinding[] = [];
  let file: string | undefined;
  for (let at = 0; at < lines.length; at++) {
    const line = lines[at] ?? '';
    const header = HEADER.exec(line);
    if (header !== null) {
      file = checkoutPath(header[1] ?? '', cwd);
      continue;
    }
    const problem = file === undefined ? null : PROBLEM.exec(line);
    if (problem === null) continue;
    const columns = (problem[4] ?? '').split(/\s{2,}/);
    const rule = columns.length >= 2 ? columns[columns.length - 1] : undefined;
    findings.push({
      at,
      severity: problem[1] === '⚠' ? 'warning' : 'error',
      message: (rule === undefined ? columns : columns.slice(0, -1)).join('  '),
      file,
      line: Number(problem[2]),
      col: Number(problem[3]),
      rule,
      narrow: file === undefined ? undefined : { file },
    });
  }
  return findings;
}
