// The lease lock against real files and real competing processes: one winner per race, stale claims (dead
// holder, expired lease, damaged file, recycled pid, abandoned guard) taken over, and a lost lease knowing it.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { acquireLease, inspectLease, startRenewal, type HolderInfo } from '../../../src/engine/state/lease-lock.js';
import { localIdentity } from '../../../src/engine/state/process-alive.js';
import { startAt, startWorkers, type Reply, type Worker } from './child-pool.js';

const script = fileURLToPath(new URL('./lease-worker.ts', import.meta.url));
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

interface AcquireReply {
  acquired: boolean;
  token?: string;
  held?: HolderInfo | null;
}

function value<T>(reply: Reply): T {
  assert.ok(reply.ok, reply.error);
  return reply.value as T;
}

/** The pid of a process that has exited and been reaped. */
function deadPid(): number {
  return spawnSync(process.execPath, ['-e', '0']).pid;
}

/** A claim file as another process would have written it. */
function writeClaim(path: string, fields: Partial<HolderInfo> & { token: string }): void {
  const now = Date.now();
  const ns = localIdentity().pid_ns;
  writeFileSync(
    path,
    JSON.stringify({
      pid: process.pid,
      hostname: hostname(),
      ...(ns !== undefined ? { pid_ns: ns } : {}),
      acquired_at: new Date(now).toISOString(),
      renewed_at: new Date(now).toISOString(),
      expires_at: new Date(now + 3_600_000).toISOString(),
      ...fields,
    }),
  );
}

function token(n: number): string {
  return n.toString(16).padStart(32, 'a');
}

/** Guard and temp files a correct run never leaves behind. */
function leftovers(dir: string): string[] {
  return readdirSync(dir).filter((n) => n.includes('.takeover-') || n.endsWith('.tmp'));
}

function readInfo(path: string): HolderInfo {
  return JSON.parse(readFileSync(path, 'utf8')) as HolderInfo;
}

describe('lease lock', () => {
  let dir: string;
  let workers: Worker[] = [];

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'discern-lease-'));
    workers = await startWorkers(script, 16);
  });
  after(async () => {
    await Promise.all(workers.map((w) => w.close()));
    rmSync(dir, { recursive: true, force: true });
  });

  it('writes the claim with holder facts, refuses a second holder and releases only its own claim', () => {
    const path = join(dir, 'basic', 'a.lock');
    const first = acquireLease(path, { leaseMs: 60_000, holder: { verb: 'test', pid: 1, token: 'forged' } });
    assert.ok('acquired' in first);
    const info = readInfo(path);
    assert.equal(info.token, first.acquired.token);
    assert.equal(info.pid, process.pid, 'holder fields cannot override the claim');
    assert.equal(info['verb'], 'test');
    assert.equal(info.hostname, hostname());
    assert.ok(Date.parse(info.expires_at) > Date.now() + 50_000);

    const second = acquireLease(path, { leaseMs: 60_000 });
    assert.ok('held' in second);
    assert.equal(second.held?.token, first.acquired.token, 'a second claim by the same live process is still refused');
    assert.equal(inspectLease(path).state, 'held');

    const previous = first.acquired.expiresAtMs;
    assert.equal(first.acquired.renew(120_000), true);
    assert.ok(first.acquired.expiresAtMs > previous);
    assert.equal(readInfo(path).expires_at, first.acquired.info.expires_at);

    assert.equal(first.acquired.release(), true);
    assert.equal(existsSync(path), false);
    assert.equal(first.acquired.release(), false);
    assert.equal(first.acquired.renew(), false);
    assert.equal(inspectLease(path).state, 'free');
    assert.deepEqual(leftovers(join(dir, 'basic')), []);
  });

  it('lets exactly one of 16 racing processes acquire', async () => {
    const path = join(dir, 'race16.lock');
    const at = startAt(150);
    const replies = await Promise.all(
      workers.map((w) => w.request({ op: 'acquire', path, leaseMs: 60_000, at, holder: { worker: w.pid } })),
    );
    const values = replies.map((r) => value<AcquireReply>(r));
    const winners = values.filter((v) => v.acquired);
    assert.equal(winners.length, 1);
    for (const v of values.filter((x) => !x.acquired)) assert.equal(v.held?.token, winners[0]?.token);
    const winner = workers[values.findIndex((v) => v.acquired)] as Worker;
    assert.equal(readInfo(path).pid, winner.pid);
    assert.equal(value(await winner.request({ op: 'release', path })), true);
    assert.equal(existsSync(path), false);
    assert.deepEqual(leftovers(dir), []);
  });

  it('takes over a claim whose process died without releasing it', async () => {
    const path = join(dir, 'dead.lock');
    // The last pool worker plays the crashed holder (no race below needs all 16 any more).
    const doomed = workers.pop() as Worker;
    assert.equal(value<AcquireReply>(await doomed.request({ op: 'acquire', path, leaseMs: 3_600_000 })).acquired, true);
    await doomed.request({ op: 'vanish' });
    await doomed.exited;
    await doomed.close();
    assert.equal(readInfo(path).pid, doomed.pid, 'the dead holder left its claim behind');
    assert.equal(inspectLease(path).state, 'stale');
    const mine = acquireLease(path, { leaseMs: 60_000 });
    assert.ok('acquired' in mine);
    assert.equal(readInfo(path).token, mine.acquired.token);
    assert.equal(mine.acquired.release(), true);
  });

  it('keeps the expired claim of a live process (it may only be stopped); takes over a reused pid or an unknowable one', async () => {
    const path = join(dir, 'expired.lock');
    const owner = workers[0] as Worker;
    assert.equal(value<AcquireReply>(await owner.request({ op: 'acquire', path, leaseMs: 300 })).acquired, true);
    await sleep(400);
    const early = acquireLease(path, { leaseMs: 60_000 });
    assert.ok('held' in early, 'a live holder keeps its claim past expiry: two gates must never run at once');
    assert.equal(value(await owner.request({ op: 'release', path })), true);

    // The same pid, but another process carries it now (its start time differs): the recorded holder is gone.
    const ownStart = localIdentity().pid_start;
    if (ownStart !== undefined) {
      writeClaim(path, { token: token(90), pid: owner.pid, pid_start: ownStart + 12345 });
      const taker = acquireLease(path, { leaseMs: 60_000 });
      assert.ok('acquired' in taker, "a reused pid does not keep a dead holder's claim");
      taker.acquired.release();
    }
    // A holder on another machine cannot be probed: its expiry decides.
    writeClaim(path, {
      token: token(91),
      hostname: 'elsewhere',
      expires_at: new Date(Date.now() + 60_000).toISOString(),
    });
    assert.ok('held' in acquireLease(path, { leaseMs: 60_000 }));
    writeClaim(path, {
      token: token(92),
      hostname: 'elsewhere',
      expires_at: new Date(Date.now() - 1000).toISOString(),
    });
    const late = acquireLease(path, { leaseMs: 60_000 });
    assert.ok('acquired' in late, 'an expired claim from elsewhere is taken over');
    late.acquired.release();
  });

  it('lets exactly one of 8 processes take over the same stale claim, round after round', async () => {
    const racers = workers.slice(0, 8);
    const path = join(dir, 'stale8.lock');
    for (let round = 0; round < 5; round++) {
      // Alternate the two kinds of staleness: a dead holder, and an expired lease of a holder nobody here can probe.
      writeClaim(
        path,
        round % 2 === 0
          ? { token: token(round), pid: deadPid() }
          : { token: token(round), hostname: 'elsewhere', expires_at: new Date(Date.now() - 1000).toISOString() },
      );
      const at = startAt(120);
      const replies = await Promise.all(racers.map((w) => w.request({ op: 'acquire', path, leaseMs: 60_000, at })));
      const values = replies.map((r) => value<AcquireReply>(r));
      const winners = values.filter((v) => v.acquired);
      assert.equal(winners.length, 1, `round ${round}: one winner`);
      const winnerToken = winners[0]?.token;
      assert.equal(readInfo(path).token, winnerToken);
      for (const v of values.filter((x) => !x.acquired))
        assert.equal(v.held?.token, winnerToken, `round ${round}: losers see the winner`);
      assert.deepEqual(leftovers(dir), [], 'no guard or temp file is left behind');
      const winner = racers[values.findIndex((v) => v.acquired)] as Worker;
      assert.equal(value(await winner.request({ op: 'release', path })), true);
    }
  });

  it('treats a damaged lock file as held while young and as stale once old', () => {
    const sub = join(dir, 'damaged');
    mkdirSync(sub);
    const path = join(sub, 'x.lock');
    writeFileSync(path, '{"tok');
    const young = acquireLease(path, { leaseMs: 60_000 });
    assert.ok('held' in young);
    assert.equal(young.held, null);
    const old = new Date(Date.now() - 60_000);
    utimesSync(path, old, old);
    const taken = acquireLease(path, { leaseMs: 60_000 });
    assert.ok('acquired' in taken);
    assert.equal(readInfo(path).token, taken.acquired.token);
    taken.acquired.release();
    assert.deepEqual(leftovers(sub), []);
  });

  it('takes over a claim that names our own pid with a token we never held (a recycled pid)', () => {
    const path = join(dir, 'recycled.lock');
    writeClaim(path, { token: token(99), pid: process.pid });
    const taken = acquireLease(path, { leaseMs: 60_000 });
    assert.ok('acquired' in taken);
    taken.acquired.release();
  });

  it('still takes over when the guard of the stale claim was abandoned by a dead process', () => {
    const sub = join(dir, 'abandoned');
    mkdirSync(sub);
    const path = join(sub, 'g.lock');
    writeClaim(path, { token: token(7), pid: deadPid() });
    // A taker died between creating the guard and replacing the claim.
    writeClaim(`${path}.takeover-${token(7)}`, {
      token: token(8),
      pid: deadPid(),
      expires_at: new Date(Date.now() + 30_000).toISOString(),
    });
    const taken = acquireLease(path, { leaseMs: 60_000 });
    assert.ok('acquired' in taken);
    assert.deepEqual(leftovers(sub), []);
    taken.acquired.release();
  });

  it('does not take over a live claim written on another machine before it expires', () => {
    const path = join(dir, 'remote.lock');
    writeClaim(path, { token: token(5), pid: deadPid(), hostname: 'elsewhere.invalid' });
    const attempt = acquireLease(path, { leaseMs: 60_000 });
    assert.ok('held' in attempt);
    writeClaim(path, {
      token: token(6),
      pid: deadPid(),
      hostname: 'elsewhere.invalid',
      expires_at: new Date(Date.now() - 1).toISOString(),
    });
    const later = acquireLease(path, { leaseMs: 60_000 });
    assert.ok('acquired' in later);
    later.acquired.release();
  });

  it('renews on a timer until stopped, and reports a lost lease once', async () => {
    const path = join(dir, 'renewal.lock');
    const got = acquireLease(path, { leaseMs: 400 });
    assert.ok('acquired' in got);
    const first = Date.parse(readInfo(path).expires_at);
    const stop = startRenewal(got.acquired, 50);
    await sleep(300);
    assert.ok(Date.parse(readInfo(path).expires_at) > first, 'renewals move the expiry forward');
    stop();
    const stopped = readInfo(path).expires_at;
    await sleep(200);
    assert.equal(readInfo(path).expires_at, stopped, 'no renewal after stop');
    got.acquired.release();

    // Someone else's claim replaces ours (an operator, or a takeover after we were judged gone): the next
    // renewal reports the loss, once, and leaves the other claim alone.
    const lostPath = join(dir, 'lost.lock');
    const victim = acquireLease(lostPath, { leaseMs: 60_000 });
    assert.ok('acquired' in victim);
    let lost = 0;
    startRenewal(victim.acquired, 100, () => (lost += 1));
    writeClaim(lostPath, { token: token(93), pid: workers[0]?.pid ?? process.pid });
    await sleep(500);
    assert.equal(lost, 1);
    assert.equal(victim.acquired.status, 'lost');
    assert.equal(readInfo(lostPath).token, token(93));
  });
});
