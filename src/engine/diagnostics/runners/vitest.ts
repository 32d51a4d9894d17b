// Vitest's default reporter: after `Failed Tests N`, per failure ` FAIL  file > suite > test`, the error, a diff,
// then ` ❯ file:line:col` frames (` ❯ fn file:line:col` inside other files) each with a code frame, and a
// `⎯⎯⎯[1/2]⎯` rule before the next. A file that did not load is ` FAIL  file [ file ]`. The diagnostic points at
// the frame in the failing file.
import { checkoutPath } from '../checkout-path.js';
import { joinMessage, type LineFinding } from '../finding.js';
import { exactPattern } from '../narrowing.js';
import { jsFrame, testFrame, type JsFrame } from './js-stack.js';

const FAIL = /^\s*FAIL\s+(\S+?)(?:\s+>\s+(.+)|\s+\[.*\])?\s*$/;
const FRAME = /^\s*❯ (?:\S+ )?(\S+:\d+:\d+)\s*$/;
const RULE = /^\s*⎯{3,}/;

export function parseVitest(lines: readonly string[], cwd?: string): LineFinding[] {
  if (!lines.some((line) => /⎯ Failed Tests \d+|⎯ Failed Suites \d+/.test(line))) return [];
  const findings: LineFinding[] = [];
  for (let at = 0; at < lines.length; at++) {
    const fail = FAIL.exec(lines[at] ?? '');
    if (fail === null) continue;
    const file = checkoutPath(fail[1] ?? '', cwd);
    const block: string[] = [];
    for (let i = at + 1; i < lines.length && !RULE.test(lines[i] ?? '') && !FAIL.test(lines[i] ?? ''); i++)
      block.push(lines[i] ?? '');
    const firstFrame = block.findIndex((l) => FRAME.test(l));
    const frames = block
      .map((l) => FRAME.exec(l))
      .map((m) => (m === null ? undefined : jsFrame(m[1] ?? '', cwd)))
      .filter((f): f is JsFrame => f !== undefined);
    const frame = testFrame(frames, file);
    const parts = fail[2] === undefined ? undefined : fail[2].split(/\s+>\s+/);
    // The message is the error line and what follows up to the diff (`- Expected`) or the first frame.
    const head = firstFrame === -1 ? block : block.slice(0, firstFrame);
    const diff = head.findIndex((l) => /^\s*- Expected\b/.test(l));
    findings.push({
      at,
      through: at + block.length,
      severity: 'error',
      message: joinMessage(diff === -1 ? head : head.slice(0, diff)) || `${fail[2] ?? fail[1]} failed`,
      file: frame?.file ?? file,
      line: frame?.line,
      col: frame?.col,
      rule: parts?.join(' › '),
      narrow:
        file === undefined
          ? undefined
          : { runner: 'vitest', args: parts === undefined ? [file] : [file, '-t', exactPattern(parts.join(' '))] },
    });
  }
  return findings;
}
