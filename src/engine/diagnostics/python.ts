// Python's uncaught-exception report: `Traceback (most recent call last):`, frames `  File "path", line N, in fn`
// with indented source and caret lines, then the unindented `ExceptionType: message`. One diagnostic per
// traceback, at the innermost frame, which is where the exception was raised. Chained exceptions ("The above
// exception was the direct cause...") print one traceback each. A SyntaxError in the script itself is printed
// without the Traceback header: just its frame and the exception line.
import { checkoutPath } from './checkout-path.js';
import type { LineFinding } from './finding.js';

const HEADER = /^(\s*)Traceback \(most recent call last\):$/;
const FRAME = /^\s*File "(.+)", line (\d+)(?:, in .*)?$/;
const BARE_FRAME = /^\s*File "(.+)", line (\d+)$/;
const EXCEPTION = /^([A-Za-z_][\w.]*)(?::\s?(.*))?$/;
const SYNTAX = /^(SyntaxError|IndentationError|TabError)(?::\s?(.*))?$/;
// How far below a bare frame the SyntaxError line may sit (source line, caret line).
const SYNTAX_WINDOW = 4;

interface Frame {
  file: string;
  line: number;
}

export function parsePython(lines: readonly string[], cwd?: string): LineFinding[] {
  const findings: LineFinding[] = [];
  let at = 0;
  while (at < lines.length) {
    const line = lines[at] ?? '';
    const header = HEADER.exec(line);
    if (header !== null) {
      at = traceback(lines, at + 1, header[1] ?? '', findings, cwd);
      continue;
    }
    const bare = BARE_FRAME.exec(line);
    if (bare !== null) syntaxError(lines, at, { file: bare[1] ?? '', line: Number(bare[2]) }, findings, cwd);
    at++;
  }
  return findings;
}

/** Reads frames from `from` up to the exception line; returns the index to continue from. */
function traceback(
  lines: readonly string[],
  from: number,
  indent: string,
  findings: LineFinding[],
  cwd: string | undefined,
): number {
  const frames: Frame[] = [];
  let at = from;
  for (; at < lines.length; at++) {
    const line = lines[at] ?? '';
    const frame = FRAME.exec(line);
    if (frame !== null) {
      frames.push({ file: frame[1] ?? '', line: Number(frame[2]) });
      continue;
    }
    // Source, caret and "[Previous line repeated N more times]" lines are indented deeper than the header.
    if (line.startsWith(indent) && /^\s/.test(line.slice(indent.length))) continue;
    if (line.trim() === '' || !line.startsWith(indent)) return at;
    const exception = EXCEPTION.exec(line.slice(indent.length));
    if (exception !== null && frames.length > 0)
      findings.push(toFinding(at, frames, exception[1] ?? '', exception[2], cwd));
    return at + 1;
  }
  return at;
}

function syntaxError(
  lines: readonly string[],
  from: number,
  frame: Frame,
  findings: LineFinding[],
  cwd: string | undefined,
): void {
  for (let at = from + 1; at < lines.length && at <= from + SYNTAX_WINDOW; at++) {
    const line = lines[at] ?? '';
    const syntax = SYNTAX.exec(line);
    if (syntax !== null) {
      findings.push(toFinding(at, [frame], syntax[1] ?? '', syntax[2], cwd));
      return;
    }
    if (!/^\s/.test(line)) return;
  }
}

function toFinding(
  at: number,
  frames: readonly Frame[],
  type: string,
  detail: string | undefined,
  cwd: string | undefined,
): LineFinding {
  // The innermost frame, skipping frames without a real file (`<frozen importlib._bootstrap>`, `<string>`)
  // that nobody can open; if every frame is synthetic, the innermost one still says more than nothing.
  const real = [...frames].reverse().find((frame) => !frame.file.startsWith('<'));
  const frame = real ?? frames[frames.length - 1];
  const message = detail === undefined || detail.trim() === '' ? type : `${type}: ${detail.trim()}`;
  return {
    at,
    severity: 'error',
    message,
    file: frame === undefined ? undefined : checkoutPath(frame.file, cwd),
    line: frame?.line,
    rule: type,
  };
}
