// rustc's and clippy's human output: `error: message` or `warning: message` (with `[E0308]` after the level for
// coded errors), then ` --> file:line:col`, the code, and `= note:` lines that name the lint
// (`#[deny(clippy::eq_op)]` on by default, `-D clippy::nonminimal-bool` implied by `-D warnings`). Cargo's own
// summary lines (`error: could not compile`, `warning: build failed`, `warning: \`calc\` (lib) generated 1
// warning`) have no location and are not diagnostics.
import { checkoutPath } from '../checkout-path.js';
import type { LineFinding } from '../finding.js';

const HEAD = /^(error|warning)(?:\[(E\d{4})\])?: (.+)$/;
const ARROW = /^\s*--> (.+?):(\d+):(\d+)$/;
const LINT_NOTE = /^\s*= note: (?:`#\[(?:deny|warn|forbid)\(([\w:-]+)\)\]`|`-[DW] ([\w:-]+)` implied by)/;

export function parseRustc(lines: readonly string[], cwd?: string): LineFinding[] {
  const findings: LineFinding[] = [];
  for (let at = 0; at + 1 < lines.length; at++) {
    const head = HEAD.exec(lines[at] ?? '');
    if (head === null) continue;
    const arrow = ARROW.exec(lines[at + 1] ?? '');
    if (arrow === null) continue;
    let rule = head[2];
    for (let i = at + 2; i < lines.length && rule === undefined; i++) {
      const line = lines[i] ?? '';
      if (HEAD.test(line) || (line.trim() === '' && !/^\s*(?:\||=)/.test(lines[i + 1] ?? ''))) break;
      const note = LINT_NOTE.exec(line);
      // rustc names a lint with dashes in `-D` and underscores in attributes; the attribute form is the one to write.
      if (note !== null) rule = (note[1] ?? note[2] ?? '').replace(/-/g, '_');
    }
    findings.push({
      at,
      severity: head[1] === 'warning' ? 'warning' : 'error',
      message: head[3] ?? '',
      file: checkoutPath(arrow[1] ?? '', cwd),
      line: Number(arrow[2]),
      col: Number(arrow[3]),
      rule,
    });
  }
  return findings;
}
