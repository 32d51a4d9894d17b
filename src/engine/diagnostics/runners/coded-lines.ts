// One problem per line with a rule code after the position: flake8 and pycodestyle (`app/util.py:1:1: F401
// 'os' imported but unused`), ruff's concise format (`app/util.py:1:8: F401 [*] \`os\` imported but unused`,
// `[*]` marking an automatic fix), pylint's parseable format. Codes are letters then digits.
import { checkoutPath } from '../checkout-path.js';
import type { LineFinding } from '../finding.js';

const SHAPE = /^((?:[A-Za-z]:[\\/])?[^\s:][^:]*?):(\d+):(\d+): ([A-Z]{1,4}\d{2,4}) (\[\*\] )?(.+)$/;

export function parseCodedLines(lines: readonly string[], cwd?: string): LineFinding[] {
  const findings: LineFinding[] = [];
  for (let at = 0; at < lines.length; at++) {
    const shape = SHAPE.exec(lines[at] ?? '');
    if (shape === null || /^\d+$/.test(shape[1] ?? '')) continue;
    const file = checkoutPath(shape[1] ?? '', cwd);
    findings.push({
      at,
      // pycodestyle's W codes are warnings; everything else a gate fails on is an error.
      severity: /^W\d/.test(shape[4] ?? '') ? 'warning' : 'error',
      message: shape[6] ?? '',
      file,
      line: Number(shape[2]),
      col: Number(shape[3]),
      rule: shape[4],
      fix_available: shape[5] !== undefined ? true : undefined,
      narrow: file === undefined ? undefined : { file },
    });
  }
  return findings;
}
