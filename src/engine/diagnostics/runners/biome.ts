// Biome's default reporter: per diagnostic a header `path:line:col category  FIXABLE  ━━━━`, then the message on
// a line starting with its severity mark (`×` error, `!` warning, `i` information), a code frame and advice.
import { checkoutPath } from '../checkout-path.js';
import type { LineFinding } from '../finding.js';

const HEADER = /^(\S.*?):(\d+):(\d+) ((?:lint|assist|format|parse|syntax)\/\S*|\S+)(\s+FIXABLE)?\s+━+$/;
const MARK = /^\s+([×!i✖⚠ℹ]) (.+)$/;

export function parseBiome(lines: readonly string[], cwd?: string): LineFinding[] {
  const findings: LineFinding[] = [];
  for (let at = 0; at < lines.length; at++) {
    const header = HEADER.exec(lines[at] ?? '');
    if (header === null) continue;
    let mark: RegExpExecArray | null = null;
    for (let i = at + 1; i < lines.length && i <= at + 4 && mark === null; i++) mark = MARK.exec(lines[i] ?? '');
    const file = checkoutPath(header[1] ?? '', cwd);
    findings.push({
      at,
      severity: mark?.[1] === '!' || mark?.[1] === '⚠' || mark?.[1] === 'i' || mark?.[1] === 'ℹ' ? 'warning' : 'error',
      message: mark?.[2] ?? header[4] ?? '',
      file,
      line: Number(header[2]),
      col: Number(header[3]),
      rule: header[4],
      fix_available: header[5] !== undefined ? true : undefined,
      narrow: file === undefined ? undefined : { file },
    });
  }
  return findings;
}
