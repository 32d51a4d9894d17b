// The journal writer in one process: the record exists from the start, merges producer news by its rules,
// bounds its lists, throttles ordinary writes but writes phases, pgids and the end at once, and moves a
// result over 256 KiB to its own file.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  openOperation,
  reduceResult,
  RESULT_INLINE_LIMIT,
  type OperationRecord,
} from '../../../src/engine/journal/index.js';
import { parseHandle } from '../../../src/engine/state/handles.js';

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

function onDisk(path: string): OperationRecord {
  return JSON.parse(readFileSync(path, 'utf8')) as OperationRecord;
}

describe('journal writer', () => {
  let store: string;
  before(() => {
    store = mkdtempSync(join(tmpdir(), 'discern-journal-'));
  });
  after(() => rmSync(store, { recursive: true, force: true }));

  it('writes the record at once under a fresh R1 handle', async () => {
    const writer = await openOperation(store, { verb: 'done', checkout: '/repo/wt/../wt', branch: 'agent/x' });
    assert.equal(parseHandle(writer.handle, 'R1').ok, true);
    assert.equal(writer.recordPath, join(store, 'operations', `${writer.handle}.json`));
    const record = onDisk(writer.recordPath);
    assert.equal(record.format, 1);
    assert.equal(record.handle, writer.handle);
    assert.equal(record.verb, 'done');
    assert.equal(record.checkout, '/repo/wt');
    assert.equal(record.branch, 'agent/x');
    assert.equal(record.pid, process.pid);
    assert.equal(record.finished_at, undefined);
    assert.equal(record.progress.phase, 'starting');
    assert.deepEqual(
      [record.producers, record.failures, record.timings, record.waits, record.steps, record.pgids, record.account],
      [{}, [], [], [], [], [], []],
    );
    await writer.finish({ outcome: 'cancelled' });
  });

  it('merges producer news: units replace, results merge per key, partial sticks', async () => {
    const writer = await openOperation(store, { verb: 'test', checkout: '/repo', branch: null });
    writer.producer('unit', {
      state: 'running',
      units: { kind: 'tests', completed: 1, total: 10 },
      results: { passed: 1 },
    });
    writer.producer('unit', {
      units: { kind: 'files', completed: 2, total: null },
      results: { failed: 1 },
      active: ['a.test.ts'],
    });
    writer.producer('unit', { partial: true, results: { passed: 5 } });
    writer.producer('unit', {
      partial: false,
      state: 'failed',
      elapsed_ms: 1200,
      output_path: '/tmp/out.log',
      active: [],
    });
    writer.producer('lint', { partial: false });
    writer.producer('__proto__', { state: 'ok' });
    writer.producer('constructor', { state: 'skipped' });
    await writer.flush();
    const { producers } = onDisk(writer.recordPath);
    assert.deepEqual(producers['unit'], {
      producer: 'unit',
      state: 'failed',
      units: { kind: 'files', completed: 2, total: null },
      results: { passed: 5, failed: 1 },
      active: [],
      partial: true,
      elapsed_ms: 1200,
      output_path: '/tmp/out.log',
    });
    assert.deepEqual(producers['lint'], { producer: 'lint', state: 'pending', partial: false });
    assert.deepEqual(Object.keys(producers), ['unit', 'lint', '__proto__', 'constructor']);
    assert.deepEqual(Object.getOwnPropertyDescriptor(producers, '__proto__')?.value, {
      producer: '__proto__',
      state: 'ok',
    });
    assert.deepEqual(producers['constructor'], { producer: 'constructor', state: 'skipped' });
    await writer.finish({ outcome: 'failed' });
  });

  it('keeps failures, timings, waits, steps and pgids, and bounds the failure list', async () => {
    const writer = await openOperation(store, { verb: 'test', checkout: '/repo', branch: null });
    for (let i = 0; i < 250; i++)
      writer.addFailure({ producer: 'unit', name: `t${i}`, message: 'boom', file: 'a.ts', line: i + 1 });
    const timing = writer.startTiming('gate');
    writer.finishTiming(timing);
    writer.finishTiming('t999');
    const wait = writer.startWait({
      reason: 'all test slots are busy',
      next: 'wait for a slot',
      capacity: 2,
      in_use: 2,
    });
    writer.updateWait(wait, { in_use: 1 });
    writer.finishWait(wait);
    writer.step({ kind: 'job', label: 'unit tests', outcome: 'ok', duration_s: 1.5 });
    writer.addPgid(4242);
    writer.addPgid(4343);
    writer.addPgid(4242);
    writer.removePgid(4343);
    await writer.flush();
    const record = onDisk(writer.recordPath);
    assert.equal(record.failures.length, 200);
    assert.equal(record.failures[0]?.name, 't0', 'the first failures are kept');
    assert.deepEqual(record.dropped, { failures: 50 });
    assert.equal(record.timings.length, 1);
    assert.equal(record.timings[0]?.category, 'gate');
    assert.ok(record.timings[0]?.finished_at);
    assert.equal(record.waits[0]?.state, 'done');
    assert.equal(record.waits[0]?.in_use, 1);
    assert.equal(record.waits[0]?.capacity, 2);
    assert.ok(record.waits[0]?.finished_at);
    assert.deepEqual(record.steps, [{ kind: 'job', label: 'unit tests', outcome: 'ok', duration_s: 1.5 }]);
    assert.deepEqual(record.pgids, [4242]);
    await writer.finish({ outcome: 'completed' });
  });

  it('throttles ordinary updates to at most 4 writes a second, but writes a new phase and a pgid at once', async () => {
    const writer = await openOperation(store, { verb: 'test', checkout: '/repo', branch: null });
    await sleep(300);
    const before = writer.writes;
    const started = Date.now();
    let n = 0;
    while (Date.now() - started < 1000) {
      writer.producer('unit', { units: { kind: 'tests', completed: ++n, total: null } });
      await sleep(2);
    }
    await writer.flush();
    const during = writer.writes - before;
    assert.ok(during >= 2 && during <= 6, `${during} writes for ${n} updates in one second`);
    assert.equal(onDisk(writer.recordPath).producers['unit']?.units?.completed, n, 'flush writes the latest state');

    // Right after a throttled write, an ordinary update waits but a new phase does not.
    writer.producer('unit', { units: { kind: 'tests', completed: 0, total: null } });
    await sleep(30);
    writer.producer('unit', { state: 'running' });
    writer.setProgress({
      phase: 'testing',
      state: 'running',
      reason: 'tests run',
      next: 'wait',
      owner_must_act: false,
    });
    await sleep(60);
    assert.equal(onDisk(writer.recordPath).progress.phase, 'testing');
    writer.addPgid(777);
    await sleep(60);
    assert.deepEqual(onDisk(writer.recordPath).pgids, [777]);
    await writer.finish({ outcome: 'completed', account: ['done'] });
  });

  it('finishes with outcome, account and an inline result, and ignores later news', async () => {
    const writer = await openOperation(store, { verb: 'test', checkout: '/repo', branch: null });
    const result = { ok: true, verb: 'test', data: { passed: 3 } };
    await writer.finish({ outcome: 'completed', result, account: ['3 tests passed.'] });
    const record = onDisk(writer.recordPath);
    assert.equal(record.outcome, 'completed');
    assert.ok(record.finished_at);
    assert.deepEqual(record.result, result);
    assert.equal(record.result_truncated, undefined);
    assert.deepEqual(record.account, ['3 tests passed.']);
    writer.setProgress({ phase: 'late', state: 'x', reason: 'x', next: 'x', owner_must_act: true });
    writer.addFailure({ producer: 'p', name: 'n', message: 'm' });
    await writer.flush();
    await writer.finish({ outcome: 'failed' });
    assert.deepEqual(onDisk(writer.recordPath), record);
  });

  it('stores a result over 256 KiB whole in its own file and keeps a reduced envelope', async () => {
    const writer = await openOperation(store, { verb: 'test', checkout: '/repo', branch: null });
    const diagnostics = Array.from({ length: 4000 }, (_, i) => ({
      tool: 'tsc',
      severity: 'error',
      message: `error ${i} `.repeat(10),
      reproduce_cmd: 'npx tsc',
    }));
    const result = {
      ok: false,
      verb: 'test',
      error: 'precondition_failed',
      message: 'tests failed',
      hints: ['fix the failing tests', 'then run discern test again'],
      diagnostics,
      data: { passed: 10, failed: 4000, summary: 'x'.repeat(5000), tests: [1, 2, 3] },
    };
    const size = Buffer.byteLength(JSON.stringify(result));
    assert.ok(size > RESULT_INLINE_LIMIT);
    await writer.finish({ outcome: 'failed', result });
    const record = onDisk(writer.recordPath);
    assert.equal(record.result_truncated, true);
    assert.equal(record.result_path, join(store, 'operations', `${writer.handle}.result.json`));
    assert.deepEqual(JSON.parse(readFileSync(record.result_path as string, 'utf8')), result);
    const reduced = record.result as Record<string, unknown>;
    assert.equal(reduced['ok'], false);
    assert.equal(reduced['verb'], 'test');
    assert.equal(reduced['error'], 'precondition_failed');
    assert.equal(reduced['message'], 'tests failed');
    assert.deepEqual(reduced['hints'], result.hints);
    assert.equal(reduced['original_bytes'], size);
    assert.equal((reduced['data'] as Record<string, unknown>)['failed'], 4000);
    assert.equal(((reduced['data'] as Record<string, unknown>)['summary'] as string).length, 2048);
    assert.deepEqual(reduced['omitted'], [
      { path: 'diagnostics', kind: 'array', size: 4000 },
      { path: 'data.summary', kind: 'string', size: 5000 },
      { path: 'data.tests', kind: 'array', size: 3 },
    ]);
    assert.ok(Buffer.byteLength(JSON.stringify(record)) < 64 * 1024);
  });

  it('reduces pathological results to the verdict, and records unserialisable ones without failing', async () => {
    const wide = Object.fromEntries(Array.from({ length: 5000 }, (_, i) => [`k${i}`, 'v'.repeat(100)]));
    const reduced = reduceResult({ ok: true, verb: 'map', ...wide }, 600_000);
    assert.ok(Buffer.byteLength(JSON.stringify(reduced)) < 32 * 1024);
    assert.equal(reduced['ok'], true);
    assert.equal(reduced['verb'], 'map');
    assert.deepEqual(reduceResult('x'.repeat(10), 10).omitted, [{ path: '', kind: 'string', size: 10 }]);

    const writer = await openOperation(store, { verb: 'test', checkout: '/repo', branch: null });
    const cyclic: Record<string, unknown> = { ok: true };
    cyclic['self'] = cyclic;
    await writer.finish({ outcome: 'completed', result: cyclic });
    const record = onDisk(writer.recordPath);
    assert.equal(record.result_truncated, true);
    assert.match(String((record.result as Record<string, unknown>)['unserializable']), /circular/i);
    assert.equal(existsSync(join(store, 'operations', `${writer.handle}.result.json`)), false);
  });
});
