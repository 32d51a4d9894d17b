// Runs the CLI's own entry (run() in src/surfaces/cli/run.ts: grammar check, dispatch, verb, presentation, exit
// status) inside the test process, so hundreds of calls per command fit in a test's time. Nothing is replaced:
// the verbs run against real scratch repositories with real git; only what run() writes to stdout and stderr
// is collected instead of reaching the terminal. The process-wide parts a real run starts fresh — the working
// directory, HOME, TMPDIR — are set by the caller.
import { run } from '../../src/surfaces/cli/run.js';

export interface InProcessRun {
  code: number;
  stdout: string;
  stderr: string;
}

type Write = typeof process.stdout.write;

// run() registers its last-resort listeners on every call; in one long-lived process they add up harmlessly.
process.setMaxListeners(0);
process.stdout.setMaxListeners(0);
process.stderr.setMaxListeners(0);

export async function runInProcess(argv: readonly string[]): Promise<InProcessRun> {
  const out: string[] = [];
  const err: string[] = [];
  const original = { stdout: process.stdout.write, stderr: process.stderr.write };
  process.stdout.write = collect(out, original.stdout, process.stdout);
  process.stderr.write = collect(err, original.stderr, process.stderr);
  try {
    const code = await run(argv);
    return { code, stdout: out.join(''), stderr: err.join('') };
  } finally {
    process.stdout.write = original.stdout;
    process.stderr.write = original.stderr;
    // A run leaves its exit status for process exit (emit sets it before writing); the test process's own
    // status must stay the test runner's.
    process.exitCode = undefined;
  }
}

/**
 * discern writes strings; the test runner's own event stream (a child of `node --test`) writes serialized
 * Buffers to the same stdout, and those must still reach it.
 */
function collect(into: string[], original: Write, stream: NodeJS.WriteStream): Write {
  return function write(this: unknown, chunk: unknown, encoding?: unknown, callback?: unknown): boolean {
    if (typeof chunk !== 'string')
      return (original as (...a: unknown[]) => boolean).call(stream, chunk, encoding, callback);
    into.push(chunk);
    const done = typeof encoding === 'function' ? encoding : callback;
    if (typeof done === 'function') queueMicrotask(() => (done as (e?: Error | null) => void)(null));
    return true;
  } as Write;
}
