// Reading the journal back: by handle (with a reason for every way that fails), a checkout's latest
// operation, and the operations still running.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  executorState,
  latestOperation,
  listOperations,
  openOperation,
  readOperation,
  runningOperations,
} from '../../../src/engine/journal/index.js';
import { newHandle } from '../../../src/engine/state/handles.js';
import { deadPid, fakeRecord, placeRecord } from './fixtures-records.js';

describe('journal readers', () => {
  let root: string;
  let n = 0;
  const freshStore = (): string => {
    const dir = join(root, `store-${n++}`);
    mkdirSync(dir);
    return dir;
  };
  before(() => {
    root = mkdtempSync(join(tmpdir(), 'discern-journal-read-'));
  });
  after(() => rmSync(root, { recursive: true, force: true }));

  it('reads a record by handle, however the handle was typed', async () => {
    const store = freshStore();
    const writer = await openOperation(store, { verb: 'done', checkout: '/repo', branch: 'main' });
    for (const text of [writer.handle, writer.handle.toLowerCase(), writer.handle.replace(/-/g, '')]) {
      const read = await readOperation(store, text);
      assert.ok(read.ok, text);
      assert.equal(read.record.handle, writer.handle);
      assert.equal(read.path, writer.recordPath);
    }
    await writer.finish({ outcome: 'completed' });
  });

  it('gives a reason for every failure: malformed, checksum, empty store, unknown, unreadable, newer format', async () => {
    const store = freshStore();
    const reason = async (text: string): Promise<string> => {
      const read = await readOperation(store, text);
      assert.equal(read.ok, false);
      assert.ok(!read.ok && read.message.length > 0);
      return read.ok ? 'ok' : read.reason;
    };
    assert.equal(await reason('not a handle'), 'malformed_handle');
    assert.equal(await reason(newHandle('C1')), 'malformed_handle');
    assert.equal(await reason('R1-7KQ2-M9XD-4F'), 'checksum');
    assert.equal(await reason('R1-7KQ2-M9XD-P8'), 'empty_store');
    placeRecord(store, fakeRecord());
    assert.equal(await reason('R1-7KQ2-M9XD-P8'), 'unknown_handle');
    const garbage = placeRecord(store, '{"format": 1, "handle": ');
    assert.equal(await reason(garbage), 'unreadable');
    const partial = placeRecord(store, JSON.stringify({ format: 1, handle: 'x' }));
    assert.equal(await reason(partial), 'unreadable');
    const newer = placeRecord(store, JSON.stringify({ format: 2, handle: 'x', anything: true }));
    assert.equal(await reason(newer), 'newer_format');
    const listing = await listOperations(store);
    assert.equal(listing.records.length, 1);
    assert.deepEqual(listing.unreadable.map((u) => u.reason).sort(), ['malformed', 'malformed', 'newer_format']);
  });

  it("finds a checkout's most recently started operation", async () => {
    const store = freshStore();
    const empty = await latestOperation(store, '/repo/a');
    assert.equal(!empty.ok && empty.reason, 'empty_store');
    const old = fakeRecord({ checkout: '/repo/a', started_at: '2030-01-01T00:00:00.000Z' });
    const newest = fakeRecord({
      checkout: '/repo/a',
      started_at: '2030-01-02T00:00:00.000Z',
      finished_at: '2030-01-02T00:01:00.000Z',
      outcome: 'completed',
    });
    const otherCheckout = fakeRecord({ checkout: '/repo/b', started_at: '2030-01-03T00:00:00.000Z' });
    // Written in an order that differs from their start order: the start time decides.
    placeRecord(store, newest);
    placeRecord(store, otherCheckout);
    placeRecord(store, old);
    const latest = await latestOperation(store, '/repo/a/');
    assert.ok(latest.ok);
    assert.equal(latest.record.handle, newest.handle);
    const none = await latestOperation(store, '/repo/c');
    assert.equal(!none.ok && none.reason, 'none_for_checkout');
  });

  it('lists running operations: unfinished and not known to be dead', async () => {
    const store = freshStore();
    const running = fakeRecord({ checkout: '/repo/a' });
    const finished = fakeRecord({ checkout: '/repo/a', finished_at: new Date().toISOString(), outcome: 'failed' });
    const dead = fakeRecord({ checkout: '/repo/a', pid: deadPid() });
    const remote = fakeRecord({ checkout: '/repo/a', hostname: 'elsewhere.invalid', pid: deadPid() });
    const elsewhere = fakeRecord({ checkout: '/repo/b' });
    for (const r of [running, finished, dead, remote, elsewhere]) placeRecord(store, r);
    const mine = (await runningOperations(store, '/repo/a')).map((r) => r.record.handle).sort();
    assert.deepEqual(mine, [running.handle, remote.handle].sort());
    assert.equal((await runningOperations(store)).length, 3);
    assert.equal(executorState(dead), 'gone');
    assert.equal(executorState(remote), 'unknown');
    assert.equal(executorState(running), 'running');
  });
});
