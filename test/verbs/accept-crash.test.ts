// Crash safety of a landing: the real CLI is SIGKILLed at each named step (DISCERN_FAULT=accept:<step>); the
// trunk is then before or exactly at the landing commit, and the next accept finishes the landing (the trunk
// holds it) or rolls it back and lands afresh — no commit lost, no worktree orphaned, no lock left held.
import { describe, it, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cleanEnv, type ScratchRepo } from '../helpers/scratch-repo.js';
import { onlyJson, runCli } from '../helpers/cli.js';
import { effort, trackedRepo } from '../helpers/efforts.js';

const repos: ScratchRepo[] = [];
after(() => repos.forEach((r) => r.cleanup()));

function worktreeCount(r: ScratchRepo): number {
  return r
    .git('worktree', 'list', '--porcelain')
    .split('\n')
    .filter((l) => l.startsWith('worktree ')).length;
}

interface Landed {
  ok: boolean;
  error?: string;
  data?: {
    landing?: {
      recovery_performed: boolean;
      recovered_from?: string;
      landed_commit?: string;
      worktree_removed: boolean;
      branch_deleted: boolean;
    };
    proof_note?: { write: { status: string } };
  };
}

async function acceptCli(
  r: ScratchRepo,
  target: string,
  fault?: string,
): Promise<{ killed: boolean; result?: Landed }> {
  const run = await runCli(['accept', target, '--confirmed', '--json'], {
    cwd: r.root,
    env: cleanEnv(fault ? { DISCERN_FAULT: `accept:${fault}` } : {}),
  });
  if (run.signal === 'SIGKILL') return { killed: true };
  return { killed: false, result: onlyJson(run) as unknown as Landed };
}

describe('accept killed at each landing step', () => {
  for (const step of [
    'started',
    'trunk_landed',
    'note_written',
    'resources_destroyed',
    'worktree_removed',
    'branch_deleted',
  ]) {
    it(`a kill at ${step}, then accept again: landed exactly once, cleaned up, nothing lost`, async () => {
      const r = trackedRepo(repos);
      const w = await effort(r, 'crash', 'crash.txt', 'c\n');
      const head = w.git('rev-parse', 'HEAD').trim();
      const before = r.git('rev-parse', 'main').trim();
      const killed = await acceptCli(r, 'crash', step);
      assert.equal(killed.killed, true, `the fault at ${step} killed the process`);
      const trunkNow = r.git('rev-parse', 'main').trim();
      assert.ok([before, head].includes(trunkNow), 'the trunk is before or exactly at the proven commit');
      assert.equal(trunkNow, step === 'started' ? before : head);

      const again = await acceptCli(r, 'crash');
      assert.equal(again.killed, false);
      assert.ok(again.result?.ok, JSON.stringify(again.result, null, 2));
      assert.equal(again.result.data?.landing?.recovery_performed, step !== 'started');
      if (step !== 'started') assert.equal(again.result.data?.landing?.recovered_from, step);
      assert.equal(r.git('rev-parse', 'main').trim(), head);
      assert.equal(r.git('rev-list', '--count', `${before}..main`).trim(), '1', 'landed once');
      assert.ok(!existsSync(w.path), 'no orphaned worktree');
      assert.equal(worktreeCount(r), 1);
      assert.ok(!r.git('branch', '--list', 'agent/crash').trim());
      assert.match(r.git('notes', '--ref=refs/notes/discern', 'show', head), /payloadType/);
      assert.ok(!existsSync(join(r.root, '.git', 'discern', 'acceptance', 'crash.json')), 'the transaction is closed');
      assert.ok(!existsSync(join(r.root, '.git', 'discern', 'locks', 'accept.lock')), 'no lock left held');
    });
  }

  it('work done in the worktree after an interrupted landing is never removed by the recovery', async () => {
    const r = trackedRepo(repos);
    const w = await effort(r, 'kept', 'kept.txt', 'k\n');
    assert.equal((await acceptCli(r, 'kept', 'note_written')).killed, true);
    writeFileSync(join(w.path, 'precious.txt'), 'do not lose me\n');
    const again = await acceptCli(r, 'kept');
    assert.ok(again.result?.ok, JSON.stringify(again.result, null, 2));
    assert.equal(again.result.data?.landing?.worktree_removed, false);
    assert.equal(readFileSync(join(w.path, 'precious.txt'), 'utf8'), 'do not lose me\n');
    assert.ok(r.git('branch', '--list', 'agent/kept').trim(), 'the branch stays with its worktree');
  });

  it('a new effort never inherits a dead landing of the same name', async () => {
    const r = trackedRepo(repos);
    await effort(r, 'same', 's.txt', 's\n');
    assert.equal((await acceptCli(r, 'same', 'branch_deleted')).killed, true);
    const started = await runCli(['start', 'same', '--json'], { cwd: r.root, env: cleanEnv() });
    const id = (onlyJson(started) as { data: { id: string } }).data.id;
    assert.equal(id, 'same-2', 'the name with records is taken');
  });

  it('a kill after composing (trunk moved) rolls back the integration worktree, and the next accept lands', async () => {
    const r = trackedRepo(repos);
    const a = await effort(r, 'first', 'first.txt', '1\n');
    const b = await effort(r, 'second', 'second.txt', '2\n');
    assert.equal((await acceptCli(r, 'first')).result?.ok, true);
    const tip = r.git('rev-parse', 'main').trim();
    const killed = await acceptCli(r, 'second', 'composed');
    assert.equal(killed.killed, true);
    assert.equal(r.git('rev-parse', 'main').trim(), tip, 'the trunk did not move');
    const again = await acceptCli(r, 'second');
    assert.ok(again.result?.ok, JSON.stringify(again.result, null, 2));
    assert.equal(worktreeCount(r), 1, 'no integration worktree left');
    assert.ok(!r.git('branch', '--list', 'discern/*').trim());
    assert.ok(!existsSync(b.path) && !existsSync(a.path));
    assert.equal(
      r.git('rev-list', '--count', `${tip}..main`).trim(),
      '2',
      'the effort and its merge commit landed once',
    );
  });
});
