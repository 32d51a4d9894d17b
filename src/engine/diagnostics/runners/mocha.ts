// Mocha's spec reporter: after `N failing`, per failure `  1) suite` with each deeper title part on its own,
// further indented line and the last ending in `:`, then the error, a diff and the stack. Mocha does not name the
// file; the test's own frame is the one whose function is mocha's `Context` (a test runs with it as `this`).
import { joinMessage, type LineFinding } from '../finding.js';
import { exactPattern } from '../narrowing.js';
import { jsFrame, testFrame, type JsFrame } from './js-stack.js';

const FAILING = /^\s+\d+ failing$/;
const ENTRY = /^ {2}(\d+)\) (.*)$/;

export function parseMocha(lines: readonly string[], cwd?: string): LineFinding[] {
  const start = lines.findIndex((line) => FAILING.test(line));
  if (start === -1) return [];
  const findings: LineFinding[] = [];
  for (let at = start + 1; at < lines.length; at++) {
    const entry = ENTRY.exec(lines[at] ?? '');
    if (entry === null) continue;
    const parts = [entry[2] ?? ''];
    let i = at + 1;
    while (!(parts[parts.length - 1] ?? '').endsWith(':') && i < lines.length && /^\s{3,}\S/.test(lines[i] ?? ''))
      parts.push((lines[i++] ?? '').trim());
    const last = parts.length - 1;
    parts[last] = (parts[last] ?? '').replace(/:$/, '');
    const block: string[] = [];
    for (; i < lines.length && !ENTRY.test(lines[i] ?? ''); i++) block.push(lines[i] ?? '');
    const stack = block.findIndex((l) => /^\s+at\s/.test(l));
    const diff = block.findIndex((l) => /^\s+\+ expected - actual$/.test(l));
    const end = [stack, diff].filter((n) => n !== -1);
    const frames = (stack === -1 ? [] : block.slice(stack))
      .map((l) => jsFrame(l, cwd))
      .filter((f): f is JsFrame => f !== undefined);
    const frame = testFrame(frames, undefined, /^Context\./);
    const title = parts.join(' ');
    findings.push({
      at,
      through: i - 1,
      severity: 'error',
      message: joinMessage(end.length === 0 ? block : block.slice(0, Math.min(...end))) || `${title} failed`,
      file: frame?.file,
      line: frame?.line,
      col: frame?.col,
      rule: parts.join(' › '),
      narrow: frame === undefined ? undefined : { runner: 'mocha', args: [frame.file, '--grep', exactPattern(title)] },
    });
  }
  return findings;
}
