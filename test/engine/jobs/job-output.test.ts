// What the runner reads from a job's output: line and byte counts, error-like lines, DISCERN_PROGRESS and
// DISCERN_METRIC. The job `cat`s files written here, so every byte (CRLF, a missing final newline) is exact.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runJob, type JobRunResult } from '../../../src/engine/jobs/run-job.js';
import { baseEnv, scratch } from './job-helpers.js';

let dir: string;
let cleanup: () => void;
let counter = 0;

before(() => {
  ({ dir, cleanup } = scratch('job-output'));
});
after(() => cleanup());

/** Runs a job that prints `stdout` on stdout, then `stderr` on stderr. */
async function emit(
  stdout: string | Buffer,
  stderr: string | Buffer = '',
): Promise<{ result: JobRunResult; file: Buffer }> {
  counter++;
  const out = join(dir, `in${counter}.out`);
  const err = join(dir, `in${counter}.err`);
  writeFileSync(out, stdout);
  writeFileSync(err, stderr);
  const outputPath = join(dir, `out${counter}.log`);
  const result = await runJob({
    label: 'test',
    commands: [`cat ${out}; cat ${err} >&2`],
    cwd: dir,
    env: baseEnv(),
    timeoutS: 30,
    timeoutKey: '[jobs.test] timeout',
    outputPath,
  });
  assert.equal(result.outcome, 'ok');
  return { result, file: readFileSync(outputPath) };
}

const progress = (value: unknown): string => `DISCERN_PROGRESS ${JSON.stringify(value)}`;

describe('line and byte counts', () => {
  it('counts CRLF lines and a final line without newline, byte-exact', async () => {
    const { result, file } = await emit('a\r\nb\r\nc', 'd\ne');
    assert.equal(result.outputBytes, 10);
    assert.equal(file.length, 10);
    assert.equal(result.outputLines, 5);
  });

  it('counts empty lines and nothing for empty output', async () => {
    assert.equal((await emit('\n\n\n')).result.outputLines, 3);
    const { result } = await emit('');
    assert.equal(result.outputLines, 0);
    assert.equal(result.outputBytes, 0);
  });

  it('counts error-like lines, on either stream, including an unterminated last line', async () => {
    const out =
      [
        'src/a.ts(3,7): error TS2322: Type mismatch',
        'all good',
        '  12:5  error  Unexpected var  no-var',
        'note: fine',
      ].join('\n') + '\n';
    const { result } = await emit(out, 'warning: not counted as error-like?\nFAIL src/b.test.ts');
    // "warning:" alone is not one of the shapes; "FAIL " is.
    assert.equal(result.errorLikeLines, 3);
    assert.equal(result.outputLines, 6);
  });

  it('counts a very long line once and keeps reading normally after it', async () => {
    const long = 'x'.repeat(300_000);
    const { result } = await emit(`${long}\nerror: after\n${long}`);
    assert.equal(result.outputLines, 3);
    assert.equal(result.outputBytes, 600_000 + 14);
    assert.equal(result.errorLikeLines, 1);
  });
});

describe('DISCERN_PROGRESS', () => {
  it('merges valid facts from both streams: units and active replace, results merge, partial sticks', async () => {
    const out = [
      progress({ units: { kind: 'tests', completed: 1, total: 10 }, results: { passed: 1 }, active: ['a', 'b'] }),
      progress({ results: { failed: 2 }, partial: true }),
      progress({
        results: { passed: 5 },
        units: { kind: 'tests', completed: 6, total: null },
        partial: false,
        extra: 'unknown keys are fine',
      }),
      progress({
        failure: { name: 't1', message: 'boom', file: 'a.test.ts', line: 3, reproduce: 'npm test -- t1', extra: 1 },
      }),
    ].join('\n');
    const err = `${progress({ elapsed_ms: 1234, active: ['c'] })}\r\n${progress({ failure: { name: 't2', message: '' } })}`;
    const { result } = await emit(`${out}\n`, err);
    assert.deepEqual(result.progress, {
      units: { kind: 'tests', completed: 6, total: null },
      results: { passed: 5, failed: 2 },
      active: ['c'],
      elapsed_ms: 1234,
      partial: true,
      failures: [
        { name: 't1', message: 'boom', file: 'a.test.ts', line: 3, reproduce: 'npm test -- t1' },
        { name: 't2', message: '' },
      ],
    });
    // Protocol lines are output like any other.
    assert.equal(result.outputLines, 6);
  });

  it('ignores invalid lines whole', async () => {
    const out = [
      progress({ units: { kind: 'files', completed: 1 } }),
      'DISCERN_PROGRESS {"units":{"kind":"files","completed":', // bad JSON
      'DISCERN_PROGRESS [1,2]', // not an object
      'DISCERN_PROGRESS null',
      'DISCERN_PROGRESS "text"',
      progress({ units: { kind: 'files', completed: 9 }, results: { passed: -1 } }), // one bad field spoils the line
      progress({ units: { kind: 'files', completed: 9 }, active: Array.from({ length: 65 }, (_, i) => `w${i}`) }),
      progress({ units: { kind: 'files', completed: 9.5 } }),
      progress({ failure: { name: 'no message' } }),
      ` ${progress({ units: { kind: 'files', completed: 9 } })}`, // not at line start
      `x${progress({ units: { kind: 'files', completed: 9 } })}`,
      `DISCERN_PROGRESS${JSON.stringify({ units: { kind: 'files', completed: 9 } })}`, // no space
      `discern_progress ${JSON.stringify({ units: { kind: 'files', completed: 9 } })}`,
    ].join('\n');
    const { result } = await emit(out);
    assert.deepEqual(result.progress, {
      units: { kind: 'files', completed: 1, total: null },
      partial: false,
      failures: [],
    });
  });

  it('drops lines over 16 KiB and accepts one just under', async () => {
    const fact = (pad: number, completed: number): string =>
      progress({ units: { kind: 'big', completed }, pad: 'p'.repeat(pad) });
    const base = Buffer.byteLength(fact(0, 1));
    const fits = fact(16384 - base, 1);
    const tooLong = fact(16385 - base, 2);
    assert.equal(Buffer.byteLength(fits), 16384);
    assert.equal(Buffer.byteLength(tooLong), 16385);
    // CRLF does not count against the limit.
    const { result } = await emit(`${fits}\r\n${tooLong}\n`);
    assert.equal(result.progress.units?.completed, 1);
    assert.equal(result.outputLines, 2);
    const { result: huge } = await emit(`${fact(1_000_000, 3)}\n`);
    assert.equal(huge.progress.units, undefined);
  });

  it('keeps at most 100 failures', async () => {
    const out = Array.from({ length: 150 }, (_, i) => progress({ failure: { name: `t${i}`, message: 'm' } })).join(
      '\n',
    );
    const { result } = await emit(out);
    assert.equal(result.progress.failures.length, 100);
    assert.equal(result.progress.failures[99]?.name, 't99');
  });
});

describe('DISCERN_METRIC', () => {
  it('keeps the last value per metric and ignores malformed lines', async () => {
    const out = [
      'DISCERN_METRIC coverage 81.5',
      'DISCERN_METRIC size.bytes:gz-x +42',
      'DISCERN_METRIC neg -1.5e3',
      'DISCERN_METRIC half .5',
      'DISCERN_METRIC trailing 7 ',
      'DISCERN_METRIC __proto__ 3',
      'DISCERN_METRIC coverage 83',
      'DISCERN_METRIC coverage oops',
      'DISCERN_METRIC coverage',
      'DISCERN_METRIC coverage 1.2.3',
      'DISCERN_METRIC coverage 12abc',
      'DISCERN_METRIC coverage 0x10',
      'DISCERN_METRIC coverage NaN',
      'DISCERN_METRIC coverage 1e999',
      'DISCERN_METRIC two words 1',
      'DISCERN_METRIC bad$ 1',
      ' DISCERN_METRIC coverage 1',
    ].join('\n');
    const { result } = await emit(out, 'DISCERN_METRIC stderr.metric 1e2\r\n');
    assert.deepEqual(Object.entries(result.metrics).sort(), [
      ['__proto__', 3],
      ['coverage', 83],
      ['half', 0.5],
      ['neg', -1500],
      ['size.bytes:gz-x', 42],
      ['stderr.metric', 100],
      ['trailing', 7],
    ]);
    assert.equal(Object.getPrototypeOf(result.metrics), Object.prototype);
  });
});

describe('large output', () => {
  it('streams 100 MB to the file with exact counts and bounded memory', async () => {
    const outputPath = join(dir, 'large.log');
    global.gc?.();
    const baseline = process.memoryUsage().rss;
    let peak = baseline;
    const sampler = setInterval(() => {
      peak = Math.max(peak, process.memoryUsage().rss);
    }, 20);
    const result = await runJob({
      label: 'flood',
      commands: [`head -c 100000000 /dev/zero | tr '\\0' 'x' | fold -w 100`],
      cwd: dir,
      env: baseEnv(),
      timeoutS: 60,
      timeoutKey: '[gate] timeout',
      outputPath,
    });
    clearInterval(sampler);
    peak = Math.max(peak, process.memoryUsage().rss);
    assert.equal(result.outcome, 'ok');
    // fold breaks 100 000 000 characters into 1 000 000 lines of 100; the last has no newline.
    assert.equal(result.outputBytes, 100_999_999);
    assert.equal(statSync(outputPath).size, 100_999_999);
    assert.equal(result.outputLines, 1_000_000);
    assert.equal(result.errorLikeLines, 0);
    const grown = (peak - baseline) / 1024 / 1024;
    assert.ok(grown < 100, `RSS grew by ${grown.toFixed(1)} MB`);
  });
});
