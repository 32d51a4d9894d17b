// Mocha's spec reporter: after `N failing`, per failure `  1) suite` with each deeper title part on its own,
// further indented line and the last ending in `:`, then the error, a diff and the stack. Mocha does not name the
// file; the test's own frame is the one whose function is mocha's `Context` (a test runs with it as `this`).
import { checkoutPath } from '../checkout-path.js';
import { joinMessage, type LineFinding } from '../finding.js';
import { exactPattern } from '../narrowing.js';
import { jsFrame, ownFrame, stackAt, testFrame, type JsFrame } from './js-stack.js';

const FAILING = /^\s+\d+ failing$/;
const ENTRY = /^ {2}(\d+)\) (.*)$/;

export function parseMocha(lines: readonly string[], cwd?: string): LineFinding[] {
  const start = lines.findIndex((line) => FAILING.test(line));
  if (start === -1) return exceptionDuringRun(lines, cwd);
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
    // The rerun names the test's file, known only from mocha's Context frame: another frame (an async error's,
    // thrown in the code under test) names a source file, and a rerun of it would run no test at all.
    const own = frames.find((f) => ownFrame(f) && /^Context\./.test(f.fn ?? ''));
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
      narrow: own === undefined ? undefined : { runner: 'mocha', args: [own.file, '--grep', exactPattern(title)] },
    });
  }
  return findings;
}

// A spec file that does not load stops mocha before any test: `Exception during run: Error [ERR_MODULE_NOT_FOUND]:
// Cannot find module '…' imported from /repo/test/broken.test.js`, then a stack. The file that failed is the one
// named as the importer, else the first frame in the checkout.
function exceptionDuringRun(lines: readonly string[], cwd: string | undefined): LineFinding[] {
  const at = lines.findIndex((line) => /^\s*Exception during run: /.test(line));
  if (at === -1) return [];
  const message = (lines[at] ?? '').replace(/^\s*Exception during run: /, '');
  const importer = / imported from (\S+)$/.exec(message)?.[1];
  const frames = stackAt(lines, at + 1, cwd);
  const file = importer === undefined ? testFrame(frames)?.file : checkoutPath(importer, cwd);
  const frame = frames.find((f) => f.file === file);
  return [
    {
      at,
      through: at + frames.length,
      severity: 'error',
      message,
      file,
      line: frame?.line,
      col: frame?.col,
      narrow: file === undefined ? undefined : { runner: 'mocha', args: [file] },
    },
  ];
}
