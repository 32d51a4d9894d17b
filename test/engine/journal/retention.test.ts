// Eviction of the shared operations store: 7-day retention by last write, capacity eviction in the order
// unreadable, finished awaits, finished, dead unfinished, running (oldest first within a class), litter
// sweeping, and bounded work per call.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { evictOperations, openOperation } from '../../../src/engine/journal/index.js';
import { backdate, deadPid, fakeRecord, placeRecord } from './fixtures-records.js';

const DAY = 24 * 60 * 60 * 1000;

describe('journal retention', () => {
  let root: string;
  let n = 0;
  const freshStore = (): string => {
    const dir = join(root, `store-${n++}`);
    mkdirSync(join(dir, 'operations'), { recursive: true });
    return dir;
  };
  before(() => {
    root = mkdtempSync(join(tmpdir(), 'discern-journal-retention-'));
  });
  after(() => rmSync(root, { recursive: true, force: true }));

  it('removes records untouched for 7 days, with their result files, when an operation opens', async () => {
    const store = freshStore();
    const ops = join(store, 'operations');
    const expired = placeRecord(
      store,
      fakeRecord({ finished_at: new Date().toISOString(), outcome: 'completed' }),
      8 * DAY,
    );
    writeFileSync(join(ops, `${expired}.result.json`), '{}');
    backdate(join(ops, `${expired}.result.json`), 8 * DAY);
    const expiredRunning = placeRecord(store, fakeRecord(), 7 * DAY + 60_000);
    const kept = placeRecord(
      store,
      fakeRecord({ finished_at: new Date().toISOString(), outcome: 'completed' }),
      6 * DAY,
    );
    const writer = await openOperation(store, { verb: 'test', checkout: '/repo', branch: null });
    const names = readdirSync(ops).sort();
    assert.deepEqual(names, [`${kept}.json`, `${writer.handle}.json`].sort());
    assert.equal(
      existsSync(join(ops, `${expiredRunning}.json`)),
      false,
      'even an unfinished record goes after 7 silent days',
    );
    await writer.finish({ outcome: 'completed' });
  });

  it('evicts over capacity in order: unreadable, finished awaits, finished, dead unfinished, running', async () => {
    const store = freshStore();
    const ops = join(store, 'operations');
    const now = Date.now();
    const iso = (ago: number): string => new Date(now - ago).toISOString();
    // Running records are the oldest by start time, so only the class can explain their surviving longest.
    const running = placeRecord(store, fakeRecord({ started_at: iso(9000) }), 9000);
    const dead = placeRecord(store, fakeRecord({ started_at: iso(8000), pid: deadPid() }), 8000);
    const finishedNew = placeRecord(
      store,
      fakeRecord({ started_at: iso(3000), finished_at: iso(2000), outcome: 'completed' }),
      2000,
    );
    const finishedOld = placeRecord(
      store,
      fakeRecord({ started_at: iso(7000), finished_at: iso(6000), outcome: 'failed' }),
      6000,
    );
    const awaitDone = placeRecord(
      store,
      fakeRecord({ verb: 'await', started_at: iso(1000), finished_at: iso(500), outcome: 'completed' }),
      500,
    );
    const unreadable = placeRecord(store, 'not json', 100);
    const order: string[] = [];
    for (let i = 0; i < 5; i++) {
      const count = readdirSync(ops).length;
      // Capacity one below the count (reserve 0): exactly one record must go per call.
      const report = await evictOperations(ops, { maxRecords: count - 1, reserve: 0 });
      assert.equal(report.removed.length, 1);
      order.push(report.removed[0] as string);
    }
    assert.deepEqual(order, [unreadable, awaitDone, finishedOld, finishedNew, dead]);
    assert.deepEqual(readdirSync(ops), [`${running}.json`], 'the running record goes last');
    const last = await evictOperations(ops, { maxRecords: 1, reserve: 1 });
    assert.deepEqual(last.removed, [running]);
  });

  it('keeps at most maxRecords including the one being created', async () => {
    const store = freshStore();
    for (let i = 0; i < 6; i++)
      placeRecord(store, fakeRecord({ finished_at: new Date().toISOString(), outcome: 'completed' }), 1000 * (6 - i));
    const writer = await openOperation(store, {
      verb: 'test',
      checkout: '/repo',
      branch: null,
      retention: { maxRecords: 4 },
    });
    assert.equal(readdirSync(join(store, 'operations')).length, 4);
    assert.ok(existsSync(writer.recordPath));
    await writer.finish({ outcome: 'completed' });
  });

  it('sweeps temp files of dead writers and orphaned result files, but not fresh ones', async () => {
    const store = freshStore();
    const ops = join(store, 'operations');
    const live = placeRecord(store, fakeRecord());
    const files = {
      oldTemp: '.R1-AAAA-AAAA-AA.json.123.abcdef.tmp',
      freshTemp: '.R1-BBBB-BBBB-BB.json.456.abcdef.tmp',
      orphan: 'R1-CCCC-CCCC-CC.result.json',
      freshOrphan: 'R1-DDDD-DDDD-DD.result.json',
      owned: `${live}.result.json`,
      foreign: 'notes.txt',
    };
    for (const name of Object.values(files)) writeFileSync(join(ops, name), '{}');
    backdate(join(ops, files.oldTemp), 2 * 60 * 60 * 1000);
    backdate(join(ops, files.orphan), 10 * 60 * 1000);
    backdate(join(ops, files.owned), 10 * 60 * 1000);
    const report = await evictOperations(ops);
    assert.equal(report.swept, 2);
    assert.deepEqual(
      readdirSync(ops).sort(),
      [files.freshTemp, files.freshOrphan, files.owned, files.foreign, `${live}.json`].sort(),
    );
  });

  it('bounds the work of one call and converges over several', async () => {
    const store = freshStore();
    const ops = join(store, 'operations');
    for (let i = 0; i < 10; i++) placeRecord(store, fakeRecord(), 8 * DAY);
    const first = await evictOperations(ops, { maxRemovals: 3 });
    assert.equal(first.removed.length, 3);
    assert.equal(readdirSync(ops).length, 7);
    for (let i = 0; i < 3; i++) await evictOperations(ops, { maxRemovals: 3 });
    assert.deepEqual(readdirSync(ops), []);
    assert.deepEqual(await evictOperations(join(store, 'missing')), { removed: [], swept: 0 });
  });
});
