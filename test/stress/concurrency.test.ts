// Two discern processes racing for the same evidence or the same trunk, started together as real CLI
// processes: two `done` on one commit in one checkout (one runs the gate and records Proof, the other is told
// the evidence is being gathered and to wait), and two `accept` at once — of two different proven efforts
// (serialised by the repository's accept lock: both land, each commit once), and of the same effort, named from
// the main checkout or run in its worktree (one lands, the other finds nothing left to land and says so;
// nothing lost). No lock file is left behind. Every answer is one envelope valid against the published schema.
import { describe, it, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { effort, trackedRepo } from '../helpers/efforts.js';
import {
  cleanupGate,
  count,
  counter,
  gateRepo,
  heldJob,
  markerPath,
  outsideDir,
  release,
  startCli,
  waitFor,
} from '../helpers/gate-repo.js';
import type { CliRun } from '../helpers/cli.js';
import type { ScratchRepo } from '../helpers/scratch-repo.js';
import { assertPublishedResult } from '../helpers/published-schema.js';

const repos: ScratchRepo[] = [];
after(() => {
  cleanupGate();
  repos.forEach((r) => r.cleanup());
});

type Envelope = {
  ok: boolean;
  verb: string;
  error?: string;
  message?: string;
  hints?: string[];
  data?: Record<string, unknown>;
};

function parsed(run: CliRun): Envelope {
  const text = run.stdout.trim();
  assert.ok(text.length > 0 && !text.includes('\n'), `one JSON envelope on stdout, got:\n${run.stdout}\n${run.stderr}`);
  const envelope = JSON.parse(text) as Envelope;
  assertPublishedResult(envelope);
  return envelope;
}

/** The lock files left under the repository's discern state (none once every process has finished). */
function locksLeft(commonDir: string): string[] {
  const dir = join(commonDir, 'discern', 'locks');
  return existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith('.lock')) : [];
}

describe('two done on the same commit', () => {
  it('one runs the gate and records Proof; the other answers incomplete, telling it to wait for that run', async (t) => {
    const dir = outsideDir();
    const started = join(dir, 'started');
    const go = join(dir, 'release');
    const runs = counter();
    // The job notes that it ran, then holds until the test releases it: whichever done won the checkout's
    // lease stays in flight until the other has answered.
    const r = gateRepo(`[jobs]\ntest = "echo ran >> ${runs}; ${heldJob(started, go)}"\n`);
    const a = startCli(['done', '--json'], r.root);
    const b = startCli(['done', '--json'], r.root);
    let first: CliRun | undefined;
    void Promise.race([a.result, b.result]).then((run) => (first = run));
    await waitFor('one of the two to answer while the other holds the gate', () => first !== undefined, 30_000);
    release(go);
    const [ra, rb] = await Promise.all([a.result, b.result]);
    const both = [parsed(ra), parsed(rb)];
    const winner = both.find((e) => e.ok);
    const loser = both.find((e) => !e.ok);
    assert.ok(winner && loser, `one ok and one refused:\n${JSON.stringify(both, null, 2)}`);
    assert.equal(loser.error, 'incomplete', JSON.stringify(loser, null, 2));
    assert.equal((loser === both[0] ? ra : rb).code, 1, 'a refusal exits 1');
    assert.match(
      loser.hints?.at(-1) ?? '',
      /Do not run it again now: read the running attempt with `discern progress R1-/,
    );
    const completion = loser.data?.['completion'] as
      { kind: string; pending: { kind: string; handle?: string }[] } | undefined;
    assert.equal(completion?.kind, 'pending');
    assert.equal(completion?.pending[0]?.kind, 'attempt');
    assert.equal(
      completion?.pending[0]?.handle,
      winner.data?.['handle'],
      'it names the run that is gathering the evidence',
    );
    assert.equal(winner.data?.['gate_ran'], true);
    assert.equal(count(runs), 1, 'the gate ran once');
    assert.ok(existsSync(markerPath(r.root)), 'Proof recorded');
    assert.deepEqual(locksLeft(join(r.root, '.git')), []);
    t.diagnostic(`the second done: ${loser.error} — ${loser.message}`);
  });
});

function trunk(r: ScratchRepo): string {
  return r.git('rev-parse', 'main').trim();
}

/** How many commits on the trunk since `base` carry `subject`. */
function landedTimes(r: ScratchRepo, base: string, subject: string): number {
  return r
    .git('log', '--format=%s', `${base}..main`)
    .split('\n')
    .filter((s) => s === subject).length;
}

describe('two accept at once', () => {
  it('of two proven efforts: serialised, both land, each commit exactly once, no lock left', async (t) => {
    const r = trackedRepo(repos);
    const base = trunk(r);
    const alpha = await effort(r, 'alpha', 'alpha.txt', 'a\n');
    const beta = await effort(r, 'beta', 'beta.txt', 'b\n');
    const [ra, rb] = await Promise.all([
      startCli(['accept', '--confirmed', '--json'], alpha.path).result,
      startCli(['accept', '--confirmed', '--json'], beta.path).result,
    ]);
    const [ea, eb] = [parsed(ra), parsed(rb)];
    assert.equal(ea.ok, true, JSON.stringify(ea, null, 2));
    assert.equal(eb.ok, true, JSON.stringify(eb, null, 2));
    assert.equal(landedTimes(r, base, 'change alpha.txt'), 1);
    assert.equal(landedTimes(r, base, 'change beta.txt'), 1);
    assert.equal(r.git('show', 'main:alpha.txt'), 'a\n');
    assert.equal(r.git('show', 'main:beta.txt'), 'b\n');
    // One fast-forwarded; the other was composed over the moved trunk and landed as that composition.
    const landings = [ea, eb].map((e) => e.data?.['landing'] as { fast_forward: boolean; landed_commit: string });
    assert.deepEqual(landings.map((l) => l.fast_forward).sort(), [false, true]);
    assert.equal(trunk(r), landings.find((l) => !l.fast_forward)?.landed_commit);
    assert.equal(
      r.git('notes', '--ref=refs/notes/discern', 'list').trim().split('\n').length,
      2,
      'a Proof note for each landing',
    );
    assert.equal(r.git('status', '--porcelain').trim(), '', 'the trunk checkout followed');
    assert.ok(!existsSync(alpha.path) && !existsSync(beta.path));
    assert.deepEqual(locksLeft(join(r.root, '.git')), []);
    t.diagnostic(`fast-forward: ${landings.map((l) => l.fast_forward).join(', ')}`);
  });

  for (const from of ['the main checkout, naming it', 'its own worktree'] as const) {
    it(`of the same effort, from ${from}: one lands it; the other finds nothing left to land, classified; nothing lost, no lock left`, async (t) => {
      const r = trackedRepo(repos);
      const base = trunk(r);
      const w = await effort(r, 'twice', 'twice.txt', 't\n');
      const head = w.git('rev-parse', 'HEAD').trim();
      const [args, cwd] =
        from === 'its own worktree'
          ? [['accept', '--confirmed', '--json'], w.path]
          : [['accept', 'twice', '--confirmed', '--json'], r.root];
      const [ra, rb] = await Promise.all([startCli(args, cwd).result, startCli(args, cwd).result]);
      const both = [parsed(ra), parsed(rb)];
      const landed = both.filter((e) => e.ok);
      const other = both.find((e) => !e.ok);
      assert.equal(landed.length, 1, JSON.stringify(both, null, 2));
      assert.ok(other, JSON.stringify(both, null, 2));
      assert.equal(other.error, 'unknown_target', JSON.stringify(other, null, 2));
      assert.equal((other === both[0] ? ra : rb).code, 1);
      assert.equal(trunk(r), head);
      assert.equal(landedTimes(r, base, 'change twice.txt'), 1);
      assert.equal(r.git('status', '--porcelain').trim(), '');
      assert.ok(!existsSync(w.path));
      assert.deepEqual(locksLeft(join(r.root, '.git')), []);
      t.diagnostic(`the second accept from ${from}: ${other.error} — ${other.message}`);
    });
  }
});
