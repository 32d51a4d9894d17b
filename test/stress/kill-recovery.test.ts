// Trust under stress: discern SIGKILLed after each step of done, start and update (DISCERN_FAULT kill points,
// docs/decisions/0037), and from outside while a gate job runs. After every kill: the journal says the executor
// is gone, no lock is held past its holder, no worktree is orphaned, no commit is lost, the trunk is where it
// was; and the next call recovers (or answers with a classified next action that then works).
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { cleanEnv, type ScratchRepo } from '../helpers/scratch-repo.js';
import { onlyJson, runCli, type CliRun } from '../helpers/cli.js';
import { rawServer } from '../helpers/raw-mcp.js';
import {
  addWorktree,
  cleanupGate,
  gateRepo,
  gitDir,
  outsideDir,
  pidFrom,
  processAlive,
  startCli,
  waitFor,
  type Checkout,
} from '../helpers/gate-repo.js';
import { inspectLease } from '../../src/engine/state/lease-lock.js';

after(cleanupGate);

type Json = Record<string, unknown> & { ok?: boolean; error?: string; data?: Record<string, unknown>; hints?: unknown };

async function cli(args: string[], cwd: string, fault?: string): Promise<{ run: CliRun; result?: Json }> {
  const run = await runCli([...args, '--json'], { cwd, env: cleanEnv(fault ? { DISCERN_FAULT: fault } : {}) });
  if (run.signal === 'SIGKILL') return { run };
  assert.equal(run.stderr.includes('    at '), false, `no stack trace: ${run.stderr}`);
  return { run, result: onlyJson(run) as Json };
}

/** Every commit reachable from a branch: none of them may disappear. */
function reachable(r: ScratchRepo): Set<string> {
  return new Set(
    r
      .git('rev-list', '--branches')
      .split('\n')
      .filter((l) => l.length > 0),
  );
}

function worktrees(r: ScratchRepo): { path: string; prunable: boolean }[] {
  return r
    .git('worktree', 'list', '--porcelain')
    .split('\n\n')
    .filter((b) => b.trim().length > 0)
    .map((b) => ({ path: b.split('\n')[0]?.replace(/^worktree /, '') ?? '', prunable: b.includes('\nprunable') }));
}

interface OperationRecord {
  handle: string;
  verb: string;
  finished_at?: string;
  pgids: number[];
}

function records(r: ScratchRepo): OperationRecord[] {
  const dir = join(r.root, '.git', 'discern', 'operations');
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((n) => /^R1-[0-9A-Z-]+\.json$/.test(n) && !n.endsWith('.result.json'))
    .map((n) => JSON.parse(readFileSync(join(dir, n), 'utf8')) as OperationRecord);
}

/** Every lock file under discern's state dirs is absent or stale (its holder gone): none is held. */
function assertNoLockHeld(dirs: string[]): void {
  for (const dir of dirs) {
    if (!existsSync(dir)) continue;
    for (const name of readdirSync(dir, { recursive: true }).map(String)) {
      if (!name.endsWith('.lock') && !name.includes('.lock.takeover-')) continue;
      const state = inspectLease(join(dir, name)).state;
      assert.notEqual(state, 'held', `${join(dir, name)} is still held after its holder was killed`);
    }
  }
}

/** The facts every kill must leave true, whatever step it hit. */
function assertSafeAfterKill(
  r: ScratchRepo,
  before: { commits: Set<string>; trunk: string; worktrees: number },
  checkout?: Checkout,
): void {
  const commits = reachable(r);
  for (const c of before.commits) assert.ok(commits.has(c), `commit ${c} is still reachable from a branch`);
  assert.equal(r.git('rev-parse', 'refs/heads/main').trim(), before.trunk, 'the trunk did not move');
  const listed = worktrees(r);
  assert.ok(
    listed.every((w) => !w.prunable && existsSync(w.path)),
    `no worktree lost its directory: ${JSON.stringify(listed)}`,
  );
  assertNoLockHeld([join(r.root, '.git', 'discern'), ...(checkout ? [join(gitDir(checkout.root), 'discern')] : [])]);
}

/** The killed run's journal record, read back through progress: its executor is gone and it never finished. */
async function assertExecutorGone(r: ScratchRepo, known: Set<string>, cwd: string, finished: boolean): Promise<string> {
  const fresh = records(r).filter((x) => !known.has(x.handle));
  assert.equal(fresh.length, 1, `one new journal record: ${JSON.stringify(fresh)}`);
  const handle = fresh[0]?.handle ?? '';
  const { result } = await cli(['progress', handle], cwd);
  assert.equal(result?.data?.['executor'], 'gone', JSON.stringify(result));
  if (!finished)
    assert.equal(
      (result?.data?.['progress'] as { state?: string } | undefined)?.state,
      'stopped',
      JSON.stringify(result?.data),
    );
  return handle;
}

/** Four jobs in three stages; the test job holds (sleeps) once, on its first run, when `hold` is set. */
const DONE_CONFIG = (dir: string, hold = false): string => `[jobs]
format = "true"
build = "true"
lint = "true"
test = "${hold ? `if [ -f ${dir}/once ]; then exit 0; fi; touch ${dir}/once; echo $$ > ${dir}/pid; exec sleep 30` : 'true'}"
`;

describe('done killed at each step', () => {
  const steps = [
    'locked',
    'journal-opened',
    'preconditions',
    'stage-started:fix',
    'stage-started:build',
    'stage-started:check/test',
    'job-started:test',
    'proof-recorded',
    'lock-released',
    'journal-finished',
  ];
  for (const step of steps) {
    it(`a kill at done:${step}, then done again: Proof for the same commit, nothing lost or left running`, async () => {
      const dir = outsideDir();
      const r = gateRepo(DONE_CONFIG(dir, step === 'job-started:test'));
      const w = addWorktree(r, 'agent/work');
      w.write('work.txt', 'w\n');
      w.commit('work');
      const head = w.git('rev-parse', 'HEAD');
      const before = {
        commits: reachable(r),
        trunk: r.git('rev-parse', 'main').trim(),
        worktrees: worktrees(r).length,
      };
      const known = new Set(records(r).map((x) => x.handle));

      const killed = await cli(['done'], w.root, `done:${step}`);
      assert.equal(
        killed.run.signal,
        'SIGKILL',
        `the fault at done:${step} killed discern: ${killed.run.stdout}${killed.run.stderr}`,
      );
      assertSafeAfterKill(r, before, w);
      assert.equal(worktrees(r).length, before.worktrees);
      // The watchdog stops the job's group within two seconds of discern's death (src/engine/process/watchdog.ts).
      // On a loaded machine it may stop the job's shell before the shell wrote its pid: then no process of the
      // job may be left either.
      if (step === 'job-started:test') {
        const pidFile = join(dir, 'pid');
        await waitFor('the job to write its pid or be gone', () => existsSync(pidFile) || jobShells(dir).length === 0);
        if (existsSync(pidFile)) {
          const orphan = await pidFrom(pidFile);
          await waitFor('the watchdog to stop the job discern left', () => !processAlive(orphan), 2000);
        } else assert.deepEqual(jobShells(dir), [], 'the job stopped before it wrote its pid');
      }
      if (step !== 'locked') await assertExecutorGone(r, known, w.root, step === 'journal-finished');
      // A lease whose holder died is not waited out: the next run takes it over at once.
      const again = await cli(['done'], w.root);
      assert.equal(again.result?.ok, true, JSON.stringify(again.result, null, 2));
      const proof = again.result?.data?.['proof'] as { commit?: string } | undefined;
      assert.equal(proof?.commit, head, 'Proof names the commit the killed run was proving');
      const reused = ['proof-recorded', 'lock-released', 'journal-finished'].includes(step);
      assert.equal(
        again.result?.data?.['gate_ran'],
        !reused,
        reused ? 'the recorded Proof is reused' : 'the gate runs again',
      );
      assertSafeAfterKill(r, before, w);
      // A run that took the lock over leaves none behind (a reused Proof takes no lock: a dead claim may stay, unheld).
      if (!reused)
        assert.ok(!existsSync(join(gitDir(w.root), 'discern', 'operation.lock')), 'the next run released the lock');
    });
  }

  it('killed from outside while a job runs: the job stopped within 2 s, executor gone, lease taken over', async () => {
    const dir = outsideDir();
    const r = gateRepo(DONE_CONFIG(dir, true));
    const w = addWorktree(r, 'agent/outside');
    w.write('o.txt', 'o\n');
    w.commit('outside');
    const before = { commits: reachable(r), trunk: r.git('rev-parse', 'main').trim(), worktrees: worktrees(r).length };
    const known = new Set(records(r).map((x) => x.handle));
    const run = startCli(['done', '--json'], w.root);
    const job = await pidFrom(join(dir, 'pid'));
    await waitFor("the job's process group in the journal", () =>
      records(r).some((x) => !known.has(x.handle) && x.pgids.length > 0),
    );
    // The realistic kill (an OOM kill, a closed terminal's kill -9): the job runs in a process group of its own
    // and survives it.
    run.child.kill('SIGKILL');
    await run.result;
    const killedAt = Date.now();
    // The job runs in a process group of its own, so the kill does not reach it; the watchdog does.
    await waitFor('the watchdog to stop the job discern left', () => !processAlive(job), 2000);
    assert.ok(Date.now() - killedAt <= 2000);
    assertSafeAfterKill(r, before, w);
    await assertExecutorGone(r, known, w.root, false);
    const status = await cli(['status'], w.root);
    assert.equal(status.result?.ok, true, JSON.stringify(status.result));
    assert.equal(
      status.result?.data?.['operation'],
      undefined,
      'status shows no operation running (its executor is gone)',
    );
    const again = await cli(['done'], w.root);
    assert.equal(again.result?.ok, true, JSON.stringify(again.result, null, 2));
  });
});

describe('discern mcp killed while a job runs', () => {
  it('the job is stopped within 2 s of the server’s SIGKILL', async () => {
    const dir = outsideDir();
    const r = gateRepo(DONE_CONFIG(dir, true));
    const w = addWorktree(r, 'agent/served');
    w.write('s.txt', 's\n');
    w.commit('served');
    const server = await rawServer(w.root);
    server.send(
      JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'discern_done', arguments: {} } }),
    );
    const job = await pidFrom(join(dir, 'pid'));
    assert.ok(processAlive(job));
    server.child.kill('SIGKILL');
    await new Promise((resolve) => server.child.once('close', resolve));
    await waitFor('the watchdog to stop the job the server left', () => !processAlive(job), 2000);
  });
});

// CONFIG_HEAD ends inside [repository]: the ensure key joins that table.
const START_CONFIG = (dir: string): string => `ensure = ["touch ensured"]

[worktree.resources.db]
create = "touch ${dir}/$DISCERN_EFFORT.db"
destroy = "rm -f ${dir}/$DISCERN_EFFORT.db"
`;

describe('start killed at each step', () => {
  for (const step of ['locked', 'worktree-added', 'task-recorded', 'setup-done']) {
    it(`a kill at start:${step}: nothing orphaned, and the next calls give a working effort`, async () => {
      const dir = outsideDir();
      const r = gateRepo(START_CONFIG(dir));
      const before = {
        commits: reachable(r),
        trunk: r.git('rev-parse', 'main').trim(),
        worktrees: worktrees(r).length,
      };
      const killed = await cli(['start', 'job'], r.root, `start:${step}`);
      assert.equal(
        killed.run.signal,
        'SIGKILL',
        `the fault at start:${step} killed discern: ${killed.run.stdout}${killed.run.stderr}`,
      );
      assertSafeAfterKill(r, before);
      const made = step !== 'locked';
      assert.equal(worktrees(r).length, before.worktrees + (made ? 1 : 0));
      // Every worktree git lists is one discern shows: a half-made effort is visible, never orphaned.
      const status = await cli(['status'], r.root);
      const fleet = (status.result?.data?.['fleet'] as { path: string }[] | undefined) ?? [];
      for (const wt of worktrees(r))
        assert.ok(
          fleet.some((f) => f.path === wt.path),
          `status lists ${wt.path}: ${JSON.stringify(fleet)}`,
        );
      const prune = await cli(['worktree', 'prune', '--dry-run'], r.root);
      assert.deepEqual(
        prune.result?.data?.['worktrees_pruned'],
        [],
        `git has no stale worktree to prune: ${JSON.stringify(prune.result)}`,
      );

      const again = await cli(['start', 'job'], r.root);
      assert.equal(again.result?.ok, true, JSON.stringify(again.result, null, 2));
      assert.equal(again.result?.data?.['id'], made ? 'job-2' : 'job', 'a name with a worktree is never reused');
      if (made) {
        // The interrupted effort is torn down by name (the next action status and the CLI reference give).
        let teardown = await cli(['worktree', 'teardown', 'job'], r.root);
        if (teardown.result?.ok !== true) {
          // The ensure command left an untracked file: teardown refuses, naming --force, which then works.
          assert.equal(teardown.result?.error, 'precondition_failed', JSON.stringify(teardown.result, null, 2));
          assert.match(JSON.stringify(teardown.result?.hints), /--force/);
          teardown = await cli(['worktree', 'teardown', 'job', '--force'], r.root);
        }
        assert.equal(teardown.result?.ok, true, JSON.stringify(teardown.result, null, 2));
        assert.ok(!existsSync(join(dir, 'job.db')), 'the resource the interrupted start created is destroyed');
        assert.ok(!r.git('branch', '--list', 'agent/job').trim(), 'its branch went with it');
      }
      assert.equal(worktrees(r).length, before.worktrees + 1, 'exactly the one good effort remains');
      assertSafeAfterKill(r, before);
    });
  }
});

describe('update killed at each step', () => {
  for (const step of ['locked', 'merged', 'regenerated']) {
    it(`a kill at update:${step}, then update again: the branch holds the trunk's work once, nothing lost`, async () => {
      const r = gateRepo(`[jobs]\ntest = "true"\n`);
      const w = addWorktree(r, 'agent/upd');
      w.write('mine.txt', 'mine\n');
      w.commit('mine');
      r.write('theirs.txt', 'theirs\n');
      r.commit('theirs');
      const mine = w.git('rev-parse', 'HEAD');
      const before = {
        commits: reachable(r),
        trunk: r.git('rev-parse', 'main').trim(),
        worktrees: worktrees(r).length,
      };
      const killed = await cli(['update'], w.root, `update:${step}`);
      assert.equal(
        killed.run.signal,
        'SIGKILL',
        `the fault at update:${step} killed discern: ${killed.run.stdout}${killed.run.stderr}`,
      );
      assertSafeAfterKill(r, before, w);
      const tip = w.git('rev-parse', 'HEAD');
      assert.equal(tip === mine, step === 'locked', 'the branch is before or exactly at the merge');
      assert.ok(!existsSync(join(gitDir(w.root), 'MERGE_HEAD')), 'no merge left half-done');
      assert.equal(w.git('status', '--porcelain'), '', 'the tree is clean');

      const again = await cli(['update'], w.root);
      assert.equal(again.result?.ok, true, JSON.stringify(again.result, null, 2));
      assert.equal(w.git('rev-list', '--count', '--merges', `${mine}..HEAD`), '1', 'merged exactly once');
      assert.equal(w.git('merge-base', '--is-ancestor', before.trunk, 'HEAD'), '');
      assert.equal(r.git('rev-parse', 'main').trim(), before.trunk);
      assertSafeAfterKill(r, before, w);
      // Only a run that merges takes the lock (and so takes the dead claim over); an up-to-date branch answers
      // without it, and the dead claim stays behind, unheld.
      if (step === 'locked')
        assert.ok(!existsSync(join(gitDir(w.root), 'discern', 'operation.lock')), 'the next run released the lock');
    });
  }
});

/** Live processes whose command line names the job's scratch directory (the job's shell before its exec). */
function jobShells(dir: string): number[] {
  const pids: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      if (readFileSync(`/proc/${name}/cmdline`, 'utf8').includes(dir)) pids.push(Number(name));
    } catch {
      // Gone meanwhile.
    }
  }
  return pids;
}
