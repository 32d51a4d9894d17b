// The journal across real processes: a writer SIGKILLed mid-run leaves a readable, unfinished record whose
// process probes gone; writers in several processes create records at once without collisions.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { executorState, listOperations, readOperation, runningOperations } from '../../../src/engine/journal/index.js';
import { startAt, startWorkers, type Reply, type Worker } from '../state/child-pool.js';

const script = fileURLToPath(new URL('./journal-worker.ts', import.meta.url));

function value<T>(reply: Reply): T {
  assert.ok(reply.ok, reply.error);
  return reply.value as T;
}

describe('journal across processes', () => {
  let store: string;
  let workers: Worker[] = [];
  before(async () => {
    store = mkdtempSync(join(tmpdir(), 'discern-journal-proc-'));
    workers = await startWorkers(script, 4);
  });
  after(async () => {
    await Promise.all(workers.map((w) => w.close()));
    rmSync(store, { recursive: true, force: true });
  });

  it('creates records from 4 processes at once without collisions', async () => {
    const checkout = join(store, 'checkout');
    const at = startAt(120);
    const replies = await Promise.all(
      workers.map((w) => w.request({ op: 'openMany', dir: store, checkout, count: 15, at })),
    );
    const handles = replies.flatMap((r) => value<string[]>(r));
    assert.equal(handles.length, 60);
    assert.equal(new Set(handles).size, 60);
    const listing = await listOperations(store);
    assert.equal(listing.unreadable.length, 0);
    assert.deepEqual(listing.records.map((r) => r.record.handle).sort(), [...handles].sort());
    for (const { record } of listing.records) {
      assert.equal(record.outcome, 'completed');
      assert.deepEqual(record.account, [`by ${record.pid}`]);
    }
    assert.deepEqual(
      readdirSync(join(store, 'operations')).filter((n) => n.endsWith('.tmp')),
      [],
    );
  });

  it('leaves a readable, unfinished record when its writer is SIGKILLed mid-run', async () => {
    const victim = workers.pop() as Worker;
    const handle = value<string>(
      await victim.request({ op: 'open', dir: store, checkout: join(store, 'victim'), verb: 'test' }),
    );
    value(await victim.request({ op: 'churn', handle }));
    // Read while it writes: every read sees a whole record.
    const deadline = Date.now() + 400;
    let reads = 0;
    while (Date.now() < deadline) {
      const read = await readOperation(store, handle);
      assert.ok(read.ok, read.ok ? '' : read.message);
      reads += 1;
    }
    victim.child.kill('SIGKILL');
    assert.equal(await victim.exited, 'SIGKILL');

    const read = await readOperation(store, handle);
    assert.ok(read.ok, read.ok ? '' : read.message);
    const record = read.record;
    assert.equal(record.pid, victim.pid);
    assert.equal(record.finished_at, undefined);
    assert.equal(record.outcome, undefined);
    assert.ok((record.producers['unit']?.units?.completed ?? 0) > 0, 'progress reached the disk before the kill');
    assert.match(record.progress.phase, /^phase-\d+$/);
    assert.deepEqual(record.pgids, [victim.pid], 'the pgid was written at once');
    assert.equal(executorState(record), 'gone');
    assert.deepEqual((await runningOperations(store, join(store, 'victim'))).length, 0);
    assert.ok(reads > 5);
  });
});
