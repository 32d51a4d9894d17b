// TAP, as node:test's tap reporter (TAP 13, the default when Node 20 writes to a pipe) and node-tap (TAP 14)
// print it: `not ok N - name` with a YAML block under it, subtests indented four spaces under `# Subtest: name`,
// each parent's result after its children. A parent that failed because a child did is not reported again;
// the leaf is. node:test's YAML says where the test is declared (`location`) and gives the stack; node-tap's
// gives the assertion's place (`at: {fileName, lineNumber, columnNumber}`) and the stack. node-tap runs each
// file as a top-level subtest named by its path. The diagnostic points at the stack frame in the test's file.
import { checkoutPath } from '../checkout-path.js';
import { joinMessage, type LineFinding } from '../finding.js';
import { exactPattern, type Narrowing } from '../narrowing.js';
import { jsFrame, testFrame, type JsFrame } from './js-stack.js';
import { readTapYaml, type TapYaml } from './tap-yaml.js';

const RESULT = /^(\s*)(not ok|ok)\b\s*(\d+)?(?:\s*-)?\s*(.*?)(?:\s+#\s*(.*))?$/;
const SUBTEST = /^(\s*)# Subtest: (.*)$/;

export function parseTap(lines: readonly string[], cwd?: string): LineFinding[] {
  if (!lines.some((line) => /^\s*TAP version 1[34]$/.test(line))) return [];
  const findings: LineFinding[] = [];
  const subtests = new Map<number, string>();
  for (let at = 0; at < lines.length; at++) {
    const line = lines[at] ?? '';
    const subtest = SUBTEST.exec(line);
    if (subtest !== null) {
      const depth = (subtest[1] ?? '').length;
      for (const key of [...subtests.keys()]) if (key >= depth) subtests.delete(key);
      subtests.set(depth, subtest[2] ?? '');
      continue;
    }
    const result = RESULT.exec(line);
    if (result === null || result[2] !== 'not ok') continue;
    // SKIP and TODO results do not fail a run.
    if (/^(skip|todo)\b/i.test(result[5] ?? '')) continue;
    const depth = (result[1] ?? '').length;
    if (hasFailingChild(lines, at, depth)) continue;
    const yamlAt = /^\s*---$/.test(lines[at + 1] ?? '') ? at + 1 : -1;
    const yaml = yamlAt === -1 ? undefined : readTapYaml(lines, yamlAt);
    const fields: TapYaml = yaml?.fields ?? new Map();
    if (field(fields, 'failureType') === 'subtestsFailed') continue;
    const name = result[4] ?? '';
    const ancestors = [...subtests.entries()].filter(([d]) => d < depth).map(([, n]) => n);
    // node-tap names an assertion by its message; a subtest has its own `# Subtest:` line.
    const isSubtest = subtests.get(depth) === name;
    findings.push({ ...toFinding(at, name, isSubtest, ancestors, fields, cwd), through: yaml?.end ?? at });
  }
  return findings;
}

/** Whether a `not ok` between this result's own subtest header and it, indented deeper, failed first. */
function hasFailingChild(lines: readonly string[], at: number, depth: number): boolean {
  for (let i = at - 1; i >= 0; i--) {
    const line = lines[i] ?? '';
    if (line.trim() === '') continue;
    if (line.length - line.trimStart().length <= depth) return false;
    const result = RESULT.exec(line);
    if (result !== null && result[2] === 'not ok' && !/^(skip|todo)\b/i.test(result[5] ?? '')) return true;
  }
  return false;
}

function toFinding(
  at: number,
  name: string,
  isSubtest: boolean,
  ancestors: readonly string[],
  fields: TapYaml,
  cwd: string | undefined,
): LineFinding {
  const nodeTest = fields.has('location') || fields.has('failureType');
  // node-tap's top-level subtests are the test files.
  const fileSuite = !nodeTest ? ancestors.find((a) => /\.[cm]?[jt]sx?$/.test(a)) : undefined;
  const suites = ancestors.filter((a) => a !== fileSuite);
  const declared = locationOf(field(fields, 'location'), cwd);
  const testFile = declared?.file ?? (fileSuite === undefined ? undefined : checkoutPath(fileSuite, cwd));
  const frames = (field(fields, 'stack') ?? '')
    .split('\n')
    .map((l) => jsFrame(l, cwd))
    .filter((f): f is JsFrame => f !== undefined);
  const at_ = atOf(fields.get('at'), cwd);
  const frame = testFrame(frames, testFile, /^TestContext\./) ?? at_ ?? declared;
  const testName = isSubtest ? name : suites[suites.length - 1];
  const rule = isSubtest ? [...suites, name].join(' › ') : suites.join(' › ') || undefined;
  const error = field(fields, 'error');
  const type = field(fields, 'name') ?? field(fields, 'type');
  const diff = (field(fields, 'diff') ?? '').split('\n').filter((l) => /^[-+](?![-+]{2})/.test(l));
  const detail = error !== undefined ? joinMessage(error.split('\n')) : isSubtest ? '' : joinMessage([name, ...diff]);
  const message = type !== undefined && detail !== '' ? `${type}: ${detail}` : detail || `${name} failed`;
  let narrow: Narrowing | undefined;
  if (nodeTest && testFile !== undefined && testName !== undefined)
    narrow = { runner: 'node-test', args: [`--test-name-pattern=${exactPattern(testName)}`, testFile] };
  else if (!nodeTest && testFile !== undefined) narrow = { runner: 'tap', args: [testFile] };
  return {
    at,
    severity: 'error',
    message,
    file: frame?.file,
    line: frame?.line,
    col: frame?.col,
    rule,
    narrow,
  };
}

function field(fields: TapYaml, name: string): string | undefined {
  const value = fields.get(name);
  return typeof value === 'string' ? value : undefined;
}

function locationOf(text: string | undefined, cwd: string | undefined): JsFrame | undefined {
  const match = text === undefined ? null : /^(.+):(\d+):(\d+)$/.exec(text);
  if (match === null) return undefined;
  const file = checkoutPath(match[1] ?? '', cwd);
  return file === undefined ? undefined : { file, line: Number(match[2]), col: Number(match[3]) };
}

function atOf(value: string | Map<string, string> | undefined, cwd: string | undefined): JsFrame | undefined {
  if (!(value instanceof Map)) return undefined;
  const file = checkoutPath(value.get('fileName') ?? '', cwd);
  const line = Number(value.get('lineNumber'));
  if (file === undefined || !Number.isSafeInteger(line) || line < 1) return undefined;
  return { file, line, col: Number(value.get('columnNumber')) || 1 };
}
