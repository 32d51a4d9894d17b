// Capacity slots shared by processes: waiting when all are held (reported once), taking a slot as soon as one
// frees, reclaiming a killed holder's slot, and aborting a wait.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { acquireSlot, slotPath, type SlotWaitInfo } from '../../../src/engine/state/slots.js';
import { startWorkers, type Reply, type Worker } from './child-pool.js';

const script = fileURLToPath(new URL('./lease-worker.ts', import.meta.url));

function value<T>(reply: Reply): T {
  assert.ok(reply.ok, reply.error);
  return reply.value as T;
}

describe('capacity slots', () => {
  let root: string;
  let workers: Worker[] = [];
  before(async () => {
    root = mkdtempSync(join(tmpdir(), 'discern-slots-'));
    workers = await startWorkers(script, 3);
  });
  after(async () => {
    await Promise.all(workers.map((w) => w.close()));
    rmSync(root, { recursive: true, force: true });
  });

  it('takes a free slot at once, without waiting', async () => {
    const dir = join(root, 'free');
    let waited = false;
    const first = await acquireSlot(dir, 2, {
      leaseMs: 60_000,
      holder: { verb: 'test' },
      onWait: () => (waited = true),
    });
    const second = await acquireSlot(dir, 2, { leaseMs: 60_000 });
    assert.deepEqual([first.slot.index, second.slot.index].sort(), [0, 1]);
    assert.equal(waited, false);
    assert.ok(first.waitedMs < 1000);
    assert.ok(first.slot.release());
    assert.ok(second.slot.release());
    assert.deepEqual(readdirSync(dir), []);
  });

  it('waits while other processes hold every slot, reports it once, and gets the first one freed', async () => {
    const dir = join(root, 'busy');
    const [a, b] = workers as [Worker, Worker];
    const heldA = value<{ index: number }>(await a.request({ op: 'slot', dir, capacity: 2 }));
    const heldB = value<{ index: number }>(await b.request({ op: 'slot', dir, capacity: 2 }));
    assert.deepEqual([heldA.index, heldB.index].sort(), [0, 1]);

    const reports: SlotWaitInfo[] = [];
    const waiting = acquireSlot(dir, 2, { leaseMs: 60_000, pollMs: 20, onWait: (info) => reports.push(info) });
    await new Promise((r) => setTimeout(r, 250));
    assert.equal(reports.length, 1, 'the wait is reported once, not per poll');
    assert.equal(reports[0]?.capacity, 2);
    assert.equal(reports[0]?.held, 2);
    assert.deepEqual(reports[0]?.holders.map((h) => h?.pid).sort(), [a.pid, b.pid].sort());
    assert.deepEqual(
      reports[0]?.holders.map((h) => h?.['worker']).sort(),
      [a.pid, b.pid].sort(),
      'holder facts are visible',
    );

    assert.equal(value(await b.request({ op: 'releaseSlot', index: heldB.index })), true);
    const got = await waiting;
    assert.equal(got.slot.index, heldB.index);
    assert.ok(got.waitedMs >= 200, `waited ${got.waitedMs} ms`);
    got.slot.release();
    value(await a.request({ op: 'releaseSlot', index: heldA.index }));
  });

  it('reclaims a slot whose holder was killed', async () => {
    const dir = join(root, 'killed');
    const victim = workers.pop() as Worker;
    const held = value<{ index: number }>(await victim.request({ op: 'slot', dir, capacity: 1 }));
    assert.equal(held.index, 0);
    victim.child.kill('SIGKILL');
    await victim.exited;
    const got = await acquireSlot(dir, 1, { leaseMs: 60_000 });
    assert.equal(got.slot.index, 0);
    assert.ok(got.waitedMs < 1000);
    got.slot.release();
  });

  it('rejects with an AbortError when the signal aborts the wait', async () => {
    const dir = join(root, 'abort');
    const holder = workers[0] as Worker;
    const held = value<{ index: number }>(await holder.request({ op: 'slot', dir, capacity: 1 }));
    const controller = new AbortController();
    const started = Date.now();
    setTimeout(() => controller.abort(), 150);
    await assert.rejects(
      acquireSlot(dir, 1, { leaseMs: 60_000, signal: controller.signal, pollMs: 1000 }),
      (error: Error) => {
        assert.equal(error.name, 'AbortError');
        return true;
      },
    );
    assert.ok(Date.now() - started < 900, 'the abort interrupts the poll sleep');
    await assert.rejects(acquireSlot(dir, 1, { leaseMs: 60_000, signal: AbortSignal.abort() }), { name: 'AbortError' });
    value(await holder.request({ op: 'releaseSlot', index: held.index }));
  });

  it('refuses a capacity that is not a positive integer', async () => {
    await assert.rejects(acquireSlot(join(root, 'x'), 0, { leaseMs: 1000 }), RangeError);
    await assert.rejects(acquireSlot(join(root, 'x'), 1.5, { leaseMs: 1000 }), RangeError);
    assert.equal(slotPath('/s', 3), join('/s', 'slot-3.lock'));
  });
});
