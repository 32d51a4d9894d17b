// JUnit XML (node --test-reporter=junit, pytest --junitxml, jest-junit, surefire, go-junit-report...). Only the
// span from the first <testsuite(s) to the last closing suite tag is scanned, so console chatter around a
// report printed to stdout is ignored. One diagnostic per failing or erroring <testcase>.
import { checkoutPath } from './checkout-path.js';
import { positiveInt, type Finding } from './finding.js';
import { decodeXml, scanTags } from './xml-scan.js';

type Attrs = ReadonlyMap<string, string>;

interface Problem {
  /** The <testcase>, or undefined for a suite-level <error> (a test file that failed to load). */
  testcase: Attrs | undefined;
  suites: readonly Attrs[];
  attrs: Attrs;
  bodyStart: number;
  body: string;
}

const MESSAGE_LINES = 20;

export function parseJunit(text: string, cwd?: string): Finding[] {
  const span = reportSpan(text);
  if (span === undefined) return [];
  const problems: Problem[] = [];
  const suites: Attrs[] = [];
  let root: Attrs | undefined;
  let testcase: { attrs: Attrs; failed: boolean } | undefined;
  let open: Problem | undefined; // a <failure>/<error> whose body has not closed yet

  for (const tag of scanTags(text, span.start, span.end)) {
    switch (tag.name) {
      case 'testsuites':
        if (!tag.closing) root ??= tag.attrs;
        break;
      case 'testsuite':
        if (tag.closing) suites.pop();
        else if (!tag.selfClosing) suites.push(tag.attrs);
        break;
      case 'testcase':
        if (tag.closing) testcase = undefined;
        else if (!tag.selfClosing) testcase = { attrs: tag.attrs, failed: false };
        break;
      case 'failure':
      case 'error':
        if (tag.closing) {
          if (open !== undefined) open.body = text.slice(open.bodyStart, tag.start);
          open = undefined;
        } else if (testcase === undefined || !testcase.failed) {
          // Only a case's first <failure>/<error> becomes a diagnostic: one per failing test.
          const problem: Problem = {
            testcase: testcase?.attrs,
            suites: [...suites],
            attrs: tag.attrs,
            bodyStart: tag.end,
            body: '',
          };
          problems.push(problem);
          if (testcase !== undefined) testcase.failed = true;
          if (!tag.selfClosing) open = problem;
        }
        break;
    }
  }
  // A report cut off inside a failure body (a killed runner, a bounded read) still has the start of that body.
  if (open !== undefined) open.body = text.slice(open.bodyStart, span.end);
  // pytest names its suites "pytest" (junit_suite_name) and recent versions name the root "pytest tests".
  const pytest =
    /^pytest\b/.test(root?.get('name') ?? '') || problems.some((p) => p.suites[0]?.get('name') === 'pytest');
  return problems.map((problem) => finding(problem, pytest, cwd));
}

// From the first "<testsuite" (which also matches "<testsuites") to the end of the last closing suite tag; a
// report cut off before its closing tag is read to the end of the text.
function reportSpan(text: string): { start: number; end: number } | undefined {
  const start = text.indexOf('<testsuite');
  if (start === -1) return undefined;
  const closers = ['</testsuites>', '</testsuite>'].map((closer) => {
    const at = text.lastIndexOf(closer);
    return at === -1 ? -1 : at + closer.length;
  });
  const end = Math.max(...closers);
  return { start, end: end > start ? end : text.length };
}

function finding(problem: Problem, pytest: boolean, cwd: string | undefined): Finding {
  const testcase = problem.testcase;
  const rawLine = positiveInt(testcase?.get('line')) ?? (testcase?.get('line') === '0' ? 0 : undefined);
  // pytest's junit_family=xunit1 writes the test's 0-based line (item.location); every other producer is 1-based.
  const line = rawLine === undefined ? undefined : pytest ? rawLine + 1 : rawLine === 0 ? undefined : rawLine;
  return {
    severity: 'error',
    message: messageOf(problem),
    file: fileOf(problem, cwd),
    line,
    col: positiveInt(testcase?.get('col') ?? testcase?.get('column')),
    rule: nonEmpty(testcase?.get('name')) ?? nonEmpty(problem.suites[problem.suites.length - 1]?.get('name')),
  };
}

function messageOf(problem: Problem): string {
  const fromAttribute = firstLines(problem.attrs.get('message') ?? '');
  if (fromAttribute !== '') return fromAttribute;
  const fromBody = firstLines(decodeXml(problem.body));
  if (fromBody !== '') return fromBody;
  return nonEmpty(problem.attrs.get('type')) ?? 'test failed';
}

function firstLines(text: string): string {
  return text.replace(/\r\n?/g, '\n').trim().split('\n').slice(0, MESSAGE_LINES).join('\n').trim();
}

// Producers disagree on where the test's file goes: an explicit `file` attribute (pytest xunit1, jest-junit
// with addFileAttribute), a path-shaped classname (jest-junit's default is the file path), or a path-shaped
// suite name (vitest, node per file). Dotted Java/pytest class names are not paths and are ignored.
function fileOf(problem: Problem, cwd: string | undefined): string | undefined {
  const explicit = nonEmpty(problem.testcase?.get('file'));
  if (explicit !== undefined) return checkoutPath(explicit, cwd);
  const classname = problem.testcase?.get('classname');
  if (classname !== undefined && pathLike(classname)) return checkoutPath(classname, cwd);
  for (let i = problem.suites.length - 1; i >= 0; i--) {
    const name = problem.suites[i]?.get('name');
    if (name !== undefined && pathLike(name)) return checkoutPath(name, cwd);
  }
  return undefined;
}

const SOURCE_EXTENSION =
  /\.(?:[cm]?[jt]sx?|py|rb|go|rs|java|kts?|scala|cs|fs|php|swift|c|cc|cpp|cxx|h|hpp|ex|exs|erl|dart|lua|pl|sh|vue|svelte)$/i;

function pathLike(name: string): boolean {
  const trimmed = name.trim();
  return trimmed !== '' && !/\s{2,}|\n/.test(trimmed) && (/[\\/]/.test(trimmed) || SOURCE_EXTENSION.test(trimmed));
}

function nonEmpty(value: string | undefined): string | undefined {
  const trimmed = value?.trim();
  return trimmed === undefined || trimmed === '' ? undefined : trimmed;
}
