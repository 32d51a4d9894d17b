// node:test's spec reporter (the default on a terminal, and everywhere from Node 23). Node 20.20 and later end
// with a `✖ failing tests:` section: per failure an optional `test at file:line:col` (where the test is
// declared), `✖ name (duration)`, then the error indented under it, stack included. Earlier Node 20 prints the
// error only in the tree. The tree gives the suites a test sits in: `▶ suite` opens one, deeper indentation
// nests. The diagnostic points at the stack frame in the test's own file: the failing assertion's line.
import { checkoutPath } from '../checkout-path.js';
import { joinMessage, type LineFinding } from '../finding.js';
import { exactPattern } from '../narrowing.js';
import { jsFrame, testFrame, type JsFrame } from './js-stack.js';

const SUMMARY = /^✖ failing tests:$/;
const FAILED = /^(\s*)✖ (.+?)(?: \(\d[\d.]*m?s\))?(?: # .*)?$/;
const DECLARED = /^test at (.+):(\d+):(\d+)$/;
const MARKER = /^\s*(?:✔|✖|▶|﹣|ℹ|\*) /;

export function parseNodeSpec(lines: readonly string[], cwd?: string): LineFinding[] {
  // The run's totals (`ℹ tests 4`, `ℹ fail 2`) say the output is node:test's; a `✖` alone is any tool's.
  if (!lines.some((line) => /^ℹ (?:tests|fail) \d+$/.test(line))) return [];
  const summary = lines.findIndex((line) => SUMMARY.test(line));
  return summary === -1 ? fromTree(lines, cwd) : fromSummary(lines, summary, cwd);
}

function fromSummary(lines: readonly string[], summary: number, cwd: string | undefined): LineFinding[] {
  const findings: LineFinding[] = [];
  let declared: { file: string; line: number; col: number } | undefined;
  for (let at = summary + 1; at < lines.length; at++) {
    const line = lines[at] ?? '';
    const where = DECLARED.exec(line);
    if (where !== null) {
      const file = checkoutPath(where[1] ?? '', cwd);
      declared = file === undefined ? undefined : { file, line: Number(where[2]), col: Number(where[3]) };
      continue;
    }
    const failed = FAILED.exec(line);
    if (failed === null || (failed[1] ?? '') !== '') continue;
    const block = blockUnder(lines, at, 0);
    findings.push(finding(lines, at, failed[2] ?? '', line.trim(), block, declared, summary, cwd));
    declared = undefined;
  }
  return findings;
}

/** Without the summary: every `✖` line with an error indented under it (a suite's own `✖` has none). */
function fromTree(lines: readonly string[], cwd: string | undefined): LineFinding[] {
  const findings: LineFinding[] = [];
  for (let at = 0; at < lines.length; at++) {
    const failed = FAILED.exec(lines[at] ?? '');
    if (failed === null) continue;
    const block = blockUnder(lines, at, (failed[1] ?? '').length);
    if (block.length === 0 || MARKER.test(block.find((l) => l.trim() !== '') ?? '')) continue;
    findings.push(finding(lines, at, failed[2] ?? '', (lines[at] ?? '').trim(), block, undefined, lines.length, cwd));
  }
  return findings;
}

/** The lines indented deeper than `indent` right under line `at` (blank lines included, trailing ones dropped). */
function blockUnder(lines: readonly string[], at: number, indent: number): string[] {
  const block: string[] = [];
  for (let i = at + 1; i < lines.length; i++) {
    const line = lines[i] ?? '';
    if (line.trim() !== '' && line.length - line.trimStart().length <= indent) break;
    block.push(line);
  }
  while (block.length > 0 && (block[block.length - 1] ?? '').trim() === '') block.pop();
  return block;
}

function finding(
  lines: readonly string[],
  at: number,
  name: string,
  printed: string,
  block: readonly string[],
  declared: { file: string; line: number; col: number } | undefined,
  treeEnd: number,
  cwd: string | undefined,
): LineFinding {
  const stackStart = block.findIndex((l) => /^\s*at\s/.test(l));
  const frames = (stackStart === -1 ? [] : block.slice(stackStart))
    .map((l) => jsFrame(l, cwd))
    .filter((f): f is JsFrame => f !== undefined);
  const frame = testFrame(frames, declared?.file, /^TestContext\./) ?? declared;
  const file = declared?.file ?? frame?.file;
  // A test file that failed to load is reported under its own path, with the error Node printed above the report.
  if (file !== undefined && /\.[cm]?[jt]sx?$/.test(name) && checkoutPath(name, cwd) === file)
    return {
      at,
      through: at + block.length,
      severity: 'error',
      message: loadError(lines, at, name, file) ?? (joinMessage(block) || `${file} failed to run`),
      file,
      line: declared?.line,
      col: declared?.col,
      narrow: { runner: 'node-test', args: [file] },
    };
  const message = joinMessage(stackStart === -1 ? block : block.slice(0, stackStart));
  const suites = suitesOf(lines, printed, treeEnd);
  return {
    at,
    through: at + block.length,
    severity: 'error',
    message: message === '' ? `${name} failed` : message,
    file: frame?.file,
    line: frame?.line,
    col: frame?.col,
    rule: [...suites, name].join(' › '),
    narrow:
      file === undefined
        ? undefined
        : { runner: 'node-test', args: [`--test-name-pattern=${exactPattern(name)}`, file] },
  };
}

/** The last error line printed before `before` that names the test file (`… imported from /repo/test/x.test.js`). */
function loadError(lines: readonly string[], before: number, printedPath: string, file: string): string | undefined {
  for (let i = before - 1; i >= 0; i--) {
    const line = lines[i] ?? '';
    if (/^(?:[A-Z]\w*)?(?:Error|Exception)\b[^:]*: /.test(line) && (line.includes(printedPath) || line.includes(file)))
      return line.trim();
  }
  return undefined;
}

/** The `▶ suite` lines above the test's own line in the tree, outermost first. */
function suitesOf(lines: readonly string[], printed: string, treeEnd: number): string[] {
  return suiteIndex(lines, treeEnd).get(printed) ?? [];
}

// Each printed line's enclosing suites, found for every line of the tree in one pass (a stack of open `▶` lines)
// and kept per output: looked up per failure, where a search from the top for each was quadratic.
const SUITE_INDEX = new WeakMap<readonly string[], { end: number; index: Map<string, string[]> }>();

function suiteIndex(lines: readonly string[], treeEnd: number): Map<string, string[]> {
  const cached = SUITE_INDEX.get(lines);
  if (cached !== undefined && cached.end === treeEnd) return cached.index;
  const index = new Map<string, string[]>();
  const open: { indent: number; name: string }[] = [];
  for (let i = 0; i < treeEnd; i++) {
    const line = lines[i] ?? '';
    const trimmed = line.trim();
    if (trimmed === '') continue;
    const indent = indentOf(line);
    while (open.length > 0 && (open[open.length - 1]?.indent ?? 0) >= indent) open.pop();
    if (!index.has(trimmed))
      index.set(
        trimmed,
        open.map((suite) => suite.name),
      );
    const suite = /^(\s*)▶ (.+)$/.exec(line);
    if (suite !== null) open.push({ indent, name: suite[2] ?? '' });
  }
  SUITE_INDEX.set(lines, { end: treeEnd, index });
  return index;
}

function indentOf(line: string): number {
  return line.length - line.trimStart().length;
}
