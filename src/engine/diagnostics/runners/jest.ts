// Jest's default reporter: `FAIL path/to/file.test.js` per failing file, then per failure `  ● suite › test`,
// the message, a code frame (`>  7 |     expect(…)`) and the stack (`at Object.toBe (test/x.test.js:7:26)`, already
// relative to the root). `● Test suite failed to run` is a file that did not load; `● Console` blocks are the
// tests' console output, not failures. The diagnostic points at the frame in the failing file.
import { checkoutPath } from '../checkout-path.js';
import { joinMessage, type LineFinding } from '../finding.js';
import { exactPattern } from '../narrowing.js';
import { jsFrame, testFrame, type JsFrame } from './js-stack.js';

const SUITE = /^(?:FAIL|PASS)\s+(\S.*?)(?: \(\d[\d.]* ?m?s\))?$/;
const BULLET = /^ {2}● (.+)$/;
const CODE_FRAME = /^\s+>?\s*\d+ \|/;
const END = /^(?:Test Suites:|Tests:|Snapshots:|Time:|Ran all test suites)/;

export function parseJest(lines: readonly string[], cwd?: string): LineFinding[] {
  const findings: LineFinding[] = [];
  let file: string | undefined;
  for (let at = 0; at < lines.length; at++) {
    const line = lines[at] ?? '';
    const suite = SUITE.exec(line);
    if (suite !== null) {
      file = checkoutPath(suite[1] ?? '', cwd);
      continue;
    }
    const bullet = file === undefined ? null : BULLET.exec(line);
    if (bullet === null) continue;
    const title = bullet[1] ?? '';
    if (title === 'Console') continue;
    const block: string[] = [];
    for (let i = at + 1; i < lines.length; i++) {
      const next = lines[i] ?? '';
      if (BULLET.test(next) || SUITE.test(next) || END.test(next)) break;
      block.push(next);
    }
    const firstCode = block.findIndex((l) => CODE_FRAME.test(l) || /^\s+at\s/.test(l));
    const frames = block
      .map((l) => (/^\s+at\s/.test(l) ? jsFrame(l, cwd) : undefined))
      .filter((f): f is JsFrame => f !== undefined);
    const frame = testFrame(frames, file);
    const loadFailure = title === 'Test suite failed to run';
    const parts = title.split(' › ');
    findings.push({
      at,
      through: at + block.length,
      severity: 'error',
      message: joinMessage(firstCode === -1 ? block : block.slice(0, firstCode)) || `${title} failed`,
      file: frame?.file ?? file,
      line: frame?.line,
      col: frame?.col,
      rule: loadFailure ? undefined : parts.join(' › '),
      narrow:
        file === undefined
          ? undefined
          : { runner: 'jest', args: loadFailure ? [file] : [file, '-t', exactPattern(parts.join(' '))] },
    });
  }
  return findings;
}
