// ruff's full (default) format: `F401 [*] \`os\` imported but unused`, then ` --> app/util.py:1:8` and a code
// frame, rustc-style. `[*]` marks an automatic fix.
import { checkoutPath } from '../checkout-path.js';
import type { LineFinding } from '../finding.js';

const HEAD = /^([A-Z]{1,4}\d{2,4}) (\[\*\] )?(.+)$/;
const ARROW = /^\s*--> (.+?):(\d+):(\d+)$/;

export function parseRuff(lines: readonly string[], cwd?: string): LineFinding[] {
  const findings: LineFinding[] = [];
  for (let at = 0; at + 1 < lines.length; at++) {
    const head = HEAD.exec(lines[at] ?? '');
    const arrow = head === null ? null : ARROW.exec(lines[at + 1] ?? '');
    if (head === null || arrow === null) continue;
    const file = checkoutPath(arrow[1] ?? '', cwd);
    findings.push({
      at,
      severity: 'error',
      message: head[3] ?? '',
      file,
      line: Number(arrow[2]),
      col: Number(arrow[3]),
      rule: head[1],
      fix_available: head[2] !== undefined ? true : undefined,
      narrow: file === undefined ? undefined : { file },
    });
  }
  return findings;
}
