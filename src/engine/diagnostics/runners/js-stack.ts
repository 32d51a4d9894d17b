// JavaScript stack frames as test runners print them: `    at fn (file:///repo/test/a.test.js:8:12)`,
// `    at file:///repo/test/a.test.js:8:8`, `at Object.toBe (test/a.test.js:7:26)`, and TAP's YAML stacks, which
// drop the `at` (`TestContext.<anonymous> (file:///repo/test/a.test.js:8:12)`). The frame worth pointing at is
// the test's own: the first one in the test file when the runner names it, else the first in the checkout that is
// not a dependency or Node itself.
import { checkoutPath, inCheckout } from '../checkout-path.js';

export interface JsFrame {
  /** As checkoutPath made it: relative when inside the checkout. */
  file: string;
  line: number;
  col: number;
  /** The function as printed (`TestContext.<anonymous>`, `parse`), when there is one. */
  fn?: string;
}

// One literal space before the parenthesis, as V8 prints it: `\s+` there would backtrack over every run of spaces
// in a long line that is not a frame, which made the match quadratic.
const FRAME = /^\s*(?:at\s+)?(?:(?:async\s+)?([^\s(][^(]*?) \()?((?:file:\/\/)?[^\s()]+?):(\d+):(\d+)\)?\s*$/;

export function jsFrame(text: string, cwd: string | undefined): JsFrame | undefined {
  const match = FRAME.exec(text);
  if (match === null) return undefined;
  const file = checkoutPath(match[2] ?? '', cwd);
  if (file === undefined || /^node:|^internal\//.test(file)) return undefined;
  const frame: JsFrame = { file, line: Number(match[3]), col: Number(match[4]) };
  if (match[1] !== undefined) frame.fn = match[1];
  return frame;
}

/** Frames of consecutive stack lines from `from`; stops at the first line that is not one. */
export function stackAt(lines: readonly string[], from: number, cwd: string | undefined): JsFrame[] {
  const frames: JsFrame[] = [];
  for (let at = from; at < lines.length; at++) {
    const line = lines[at] ?? '';
    if (!isFrameLine(line)) break;
    const frame = jsFrame(line, cwd);
    if (frame !== undefined) frames.push(frame);
  }
  return frames;
}

/** A line shaped like a stack frame: `at …`, or ending in `file:line:col` with or without a parenthesis. Two
 *  anchored tests, each linear, where one pattern with two `.*` around a parenthesis was quadratic. */
function isFrameLine(line: string): boolean {
  return /^\s*at\s/.test(line) || (/^\s*\S/.test(line) && /:\d+:\d+\)?\s*$/.test(line));
}

/** Whether a frame points into the project's own code. */
export function ownFrame(frame: JsFrame): boolean {
  return inCheckout(frame.file) && !/(^|\/)node_modules\//.test(frame.file) && !/^[a-z]+:/i.test(frame.file);
}

/**
 * The frame in the test file, else one whose function is the runner's test context (`Context.<anonymous>` in
 * mocha: a test runs with its context as `this`), else the first of the project's own, else the first outside
 * dependencies.
 */
export function testFrame(frames: readonly JsFrame[], testFile?: string, context?: RegExp): JsFrame | undefined {
  if (testFile !== undefined) {
    const inTest = frames.find((f) => f.file === testFile);
    if (inTest !== undefined) return inTest;
  }
  if (context !== undefined) {
    const inContext = frames.find((f) => ownFrame(f) && context.test(f.fn ?? ''));
    if (inContext !== undefined) return inContext;
  }
  return frames.find(ownFrame) ?? frames.find((f) => !/(^|\/)node_modules\//.test(f.file));
}
