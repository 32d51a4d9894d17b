// `go test` (plain and -v): `--- FAIL: TestX (0.00s)` per failed test, subtests `TestX/case` indented under it,
// and the test's log lines `    file_test.go:7: message` (under the FAIL line, or before it with -v). Go prints
// only the file's base name; `FAIL	import/path	0.004s` ends each package, and the package's directory follows
// from the module path in go.mod. A panic prints `panic: …` and a goroutine trace with absolute paths.
import { posix } from 'node:path';
import { checkoutPath, inCheckout } from '../checkout-path.js';
import type { LineFinding } from '../finding.js';
import { exactPattern } from '../narrowing.js';

const FAIL = /^(\s*)--- FAIL: (\S+) \([\d.]+s\)$/;
// Go 1.20 and later print `=== NAME` when parallel tests' output interleaves: the log lines after it are that test's.
const RUN = /^=== (?:RUN|CONT|PAUSE|NAME)\s+(\S+)$/;
const LOG = /^\s+(\w[\w.-]*\.go):(\d+): (.*)$/;
const PACKAGE = /^(?:FAIL|ok)\s+(\S+)\s+(?:[\d.]+s|\(cached\)|\[.*\])/;
const PANIC = /^panic: (.+?)(?: \[recovered\])?$/;
const PANIC_FUNCTION = /^(\S+)\(.*\)$/;
const PANIC_FRAME = /^\s+(\/\S+\.go):(\d+)(?: \+0x[0-9a-f]+)?$/;

export interface GoContext {
  /** The module path of go.mod in the job's directory (`example.com/calc`). */
  module?: string;
}

interface Panic {
  message: string;
  /** The goroutine's frames in the checkout, innermost first, each with the function it is in. */
  frames: { fn: string; file: string; line: number }[];
}

interface Failure {
  at: number;
  name: string;
  logs: { file: string; line: number; message: string }[];
}

export function parseGoTest(lines: readonly string[], cwd?: string, context: GoContext = {}): LineFinding[] {
  if (!lines.some((line) => FAIL.test(line))) return [];
  const findings: LineFinding[] = [];
  let pending: Failure[] = [];
  // -v prints a test's log lines after its `=== RUN`, before its `--- FAIL`.
  const logsByTest = new Map<string, Failure['logs']>();
  let running: string | undefined;
  let panic: Panic | undefined;
  let last: Failure | undefined;
  for (let at = 0; at < lines.length; at++) {
    const line = lines[at] ?? '';
    const run = RUN.exec(line);
    if (run !== null) {
      running = run[1];
      continue;
    }
    const fail = FAIL.exec(line);
    if (fail !== null) {
      const name = fail[2] ?? '';
      last = { at, name, logs: logsByTest.get(name) ?? [] };
      pending.push(last);
      running = undefined;
      continue;
    }
    const log = LOG.exec(line);
    if (log !== null) {
      const entry = { file: log[1] ?? '', line: Number(log[2]), message: log[3] ?? '' };
      if (running === undefined) last?.logs.push(entry);
      else {
        const logs = logsByTest.get(running);
        if (logs === undefined) logsByTest.set(running, [entry]);
        else logs.push(entry);
      }
      continue;
    }
    const panicked = panic === undefined ? PANIC.exec(line) : null;
    if (panicked !== null) panic = { message: panicked[1] ?? '', frames: [] };
    const frame = panic === undefined ? null : PANIC_FRAME.exec(line);
    const file = frame === null ? undefined : checkoutPath(frame[1] ?? '', cwd);
    // Frames outside the checkout are the runtime's and the testing package's.
    if (frame !== null && file !== undefined && inCheckout(file))
      panic?.frames.push({ fn: PANIC_FUNCTION.exec(lines[at - 1] ?? '')?.[1] ?? '', file, line: Number(frame[2]) });
    const pkg = PACKAGE.exec(line);
    if (pkg !== null) {
      // Go prints every failing parent of a failing subtest itself, so each failure's immediate parent is enough
      // (and building every ancestor's name would grow with the square of a deep subtest's name).
      const parents = new Set(pending.map((f) => parentOf(f.name)));
      for (const failure of pending) {
        const finding = toFinding(failure, pkg[1] ?? '', parents, panic, context);
        if (finding !== undefined) findings.push(finding);
      }
      pending = [];
      logsByTest.clear();
      panic = undefined;
      last = undefined;
    }
  }
  return findings;
}

function toFinding(
  failure: Failure,
  importPath: string,
  parents: ReadonlySet<string>,
  panic: Panic | undefined,
  context: GoContext,
): LineFinding | undefined {
  // A parent whose subtests failed is reported through them, unless it logged something itself.
  if (parents.has(failure.name) && failure.logs.length === 0) return undefined;
  const dir = packageDir(importPath, context.module);
  const [top = '', ...subs] = failure.name.split('/');
  const first = failure.logs[0];
  // A panic's place is the test function's own frame (`example.com/calc.TestFirst(…)`), else its innermost in the checkout.
  const panicked =
    first === undefined && panic !== undefined
      ? (panic.frames.find((f) => f.fn.endsWith(`.${top}`)) ?? panic.frames[0])
      : undefined;
  const file = first !== undefined ? (dir === undefined ? first.file : posix.join(dir, first.file)) : panicked?.file;
  const pattern = [top, ...subs].map(exactPattern).join('/');
  return {
    at: failure.at,
    severity: 'error',
    message: first?.message ?? (panic !== undefined ? `panic: ${panic.message}` : `${failure.name} failed`),
    file,
    line: first?.line ?? panicked?.line,
    rule: failure.name,
    narrow: {
      runner: 'go-test',
      args: ['-run', pattern, dir === undefined ? importPath : dir === '.' ? '.' : `./${dir}`],
    },
  };
}

/** `TestA/b` for `TestA/b/c`: the test a subtest runs inside (empty for a top-level test). */
function parentOf(name: string): string {
  const slash = name.lastIndexOf('/');
  return slash === -1 ? '' : name.slice(0, slash);
}

/** The package's directory relative to the module root, when the import path lies in the module. */
function packageDir(importPath: string, module: string | undefined): string | undefined {
  if (module === undefined) return undefined;
  if (importPath === module) return '.';
  return importPath.startsWith(`${module}/`) ? importPath.slice(module.length + 1) : undefined;
}
