// standards on real scratch projects with real shell commands: measuring (improved, held, regressed, on-demand,
// the names filter and unknown_standard, a dirty tree refused unless force, a dry run), pinning (the exact new
// discern.toml bytes with comments kept, the commit it makes, gains within the margin skipped, refused while red,
// pin_failed with the file restored, the Proof carried to the pin commit so done runs nothing), and proposing
// (the happy path through done and accept with the owner's approval, and each refusal: not loosened, a missing
// breach, a duplicate, an unknown name, a too-long reason, a stale batch, an uncommitted discern.toml, a write
// failure). Counter files outside the repository show whether a command ran.
import { describe, it, after } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type {
  DiscernAcceptData,
  DiscernDoneData,
  DiscernStandardsData,
  DiscernStandardsProposeData,
} from '../../generated/types.js';
import { assertDriven, call } from '../helpers/drive.js';
import { effort, trackedRepo } from '../helpers/efforts.js';
import {
  R1_HANDLE,
  addWorktree,
  cleanupGate,
  count,
  counter,
  envelope,
  gateRepo,
  gitDir,
  head,
  step,
  type Envelope,
} from '../helpers/gate-repo.js';
import type { ScratchRepo } from '../helpers/scratch-repo.js';

const repos: ScratchRepo[] = [];
after(() => {
  cleanupGate();
  repos.forEach((r) => r.cleanup());
});

async function standards(
  root: string,
  input: Record<string, unknown> = {},
  env: Record<string, string> = {},
  surface: 'cli' | 'mcp' = 'mcp',
): Promise<Envelope> {
  return envelope(await call('standards', { action: 'measure', ...input }, root, env, surface));
}

function dataOf(result: Envelope): DiscernStandardsData {
  assert.ok(
    typeof result.data === 'object' && result.data !== null && 'action' in result.data,
    `standards data expected:\n${show(result)}`,
  );
  return result.data as DiscernStandardsData;
}

function show(result: unknown): string {
  return JSON.stringify(result, null, 2);
}

function metric(name: string, value: number, file?: string): string {
  return `${file ? `echo ran >> ${file}; ` : ''}echo 'DISCERN_METRIC ${name} ${value}'`;
}

const MEASURED = (c: string): string => `[jobs]
test = "true"

# Line coverage of src/, from the coverage script.
[standards.coverage]
direction = "up"
limit = 80   # raised by hand in March
margin = 2
run = "${metric('coverage', 90, c)}"

[standards.size]
direction = "down"
limit = 100
margin = 5
run = "${metric('size', 97)}"

[standards.bench]
direction = "down"
limit = 10
measure = "on-demand"
run = "${metric('bench', 10)}"
`;

describe('standards measure', () => {
  it('measures every standard (on-demand ones too) with a progress handle: improved, held, pin eligibility; a clean green run is recorded', async () => {
    const c = counter();
    const r = gateRepo(MEASURED(c));
    const res = await standards(r.root);
    assert.equal(res.ok, true, show(res));
    const d = dataOf(res);
    assert.match(d.handle ?? '', R1_HANDLE);
    assert.equal(d.failed_stage, null);
    const by = new Map((d.standards ?? []).map((s) => [s.name, s]));
    assert.deepEqual(
      [...by.values()].map((s) => [s.name, s.measurement, s.value, s.verdict, s.pin_eligible, s.pin_target]),
      [
        ['coverage', 'measured', 90, 'improved', true, 88],
        ['size', 'measured', 97, 'held', false, undefined],
        ['bench', 'measured', 10, 'held', false, undefined],
      ],
    );
    assert.equal(step(res, 'standard:coverage').kind, 'standard');
    assert.equal(d.standards_limits?.status, 'verified');
    assert.equal(count(c), 1);
    assert.match(
      res.hints?.join('\n') ?? '',
      /coverage can be tightened from 80 to 88: discern_standards with pin: true/,
    );
    const recorded = JSON.parse(
      readFileSync(join(gitDir(r.root), 'discern', 'standard-measurements.json'), 'utf8'),
    ) as { standards: Record<string, { value: number; commit: string }> };
    assert.equal(recorded.standards['coverage']?.value, 90);
    assert.equal(recorded.standards['coverage']?.commit, head(r.root));
  });

  it('a regressed standard fails at standards and the others are still measured (no fail_fast)', async () => {
    const r = gateRepo(
      `[gate]\nfail_fast = true\n\n[standards.coverage]\ndirection = "up"\nlimit = 80\nrun = "${metric('coverage', 70)}"\n\n[standards.size]\ndirection = "down"\nlimit = 100\nrun = "sleep 0.3; ${metric('size', 50)}"\n`,
    );
    const res = await standards(r.root);
    assert.equal(res.ok, false);
    assert.equal(res.error, 'gate_failed', show(res));
    const d = dataOf(res);
    assert.equal(d.failed_stage, 'standards');
    assert.match(
      res.message ?? '',
      /^Red at the standards stage \(coverage\): coverage regressed: measured 70, below its floor 80\./,
    );
    assert.deepEqual(
      (d.standards ?? []).map((s) => [s.name, s.value, s.verdict]),
      [
        ['coverage', 70, 'regressed'],
        ['size', 50, 'improved'],
      ],
    );
    assert.equal(
      existsSync(join(gitDir(r.root), 'discern', 'standard-measurements.json')),
      false,
      'a red run records nothing',
    );
  });

  it('a standard whose command fails, or prints no value, is red too', async () => {
    const r = gateRepo(
      `[standards.broken]\ndirection = "up"\nlimit = 1\nrun = "exit 3"\n\n[standards.silent]\ndirection = "up"\nlimit = 1\nrun = "echo nothing"\n`,
    );
    const res = await standards(r.root);
    assert.equal(res.error, 'gate_failed', show(res));
    assert.match(res.message ?? '', /^Red at the standards stage \(broken, silent\)/);
    assert.deepEqual(
      (dataOf(res).standards ?? []).map((s) => [s.name, s.measurement, s.value]),
      [
        ['broken', 'skipped', undefined],
        ['silent', 'measured', undefined],
      ],
    );
  });

  it('names limits what runs; an unknown name is unknown_standard with the known names', async () => {
    const c = counter();
    const r = gateRepo(MEASURED(c));
    const only = await standards(r.root, { names: ['size'] });
    assert.equal(only.ok, true, show(only));
    assert.deepEqual(
      (dataOf(only).standards ?? []).map((s) => s.name),
      ['size'],
    );
    assert.equal(count(c), 0, 'coverage did not run');
    const unknown = await standards(r.root, { names: ['size', 'speed'] });
    assert.equal(unknown.error, 'unknown_standard', show(unknown));
    assert.deepEqual(dataOf(unknown).suggestions, ['coverage', 'size', 'bench']);
    assert.match(unknown.message ?? '', /`speed` is not configured\. Standards: coverage, size, bench\./);
    assert.equal(count(c), 0);
  });

  it('a dirty tree is refused unless force; force measures it and records nothing', async () => {
    const c = counter();
    const r = gateRepo(MEASURED(c));
    r.write('notes.txt', 'uncommitted\n');
    const refused = await standards(r.root);
    assert.equal(refused.error, 'dirty_worktree', show(refused));
    assert.match(refused.hints?.at(-1) ?? '', /discern_standards with force: true/);
    assert.equal(count(c), 0);
    const forced = await standards(r.root, { force: true });
    assert.equal(forced.ok, true, show(forced));
    assert.equal(dataOf(forced).forced, true);
    assert.equal(count(c), 1);
    assert.equal(existsSync(join(gitDir(r.root), 'discern', 'standard-measurements.json')), false);
    assert.match(forced.hints?.join('\n') ?? '', /Measured a dirty tree \(force\)/);
    const both = await standards(r.root, { force: true, pin: true });
    assert.equal(both.error, 'invalid_value', show(both));
  });

  it('dry_run runs nothing and shows the pins the last green values would give', async () => {
    const c = counter();
    const r = gateRepo(MEASURED(c));
    assert.equal((await standards(r.root)).ok, true);
    const plan = await standards(r.root, { dry_run: true, pin: true });
    assert.equal(plan.ok, true, show(plan));
    assert.equal(plan.dry_run, true);
    assert.equal(plan.steps, undefined);
    assert.ok(plan.plan?.steps.some((s) => s.label === 'standard:bench' && s.disposition === 'run'));
    assert.ok(
      plan.plan?.details.some((line) =>
        /coverage: ≥ 80, margin 2 — last green value 90 \(\w{12}\) would pin it to 88/.test(line),
      ),
      show(plan.plan),
    );
    assert.deepEqual(dataOf(plan).pinned, [{ name: 'coverage', from: 80, to: 88, measured: 90 }]);
    assert.equal(count(c), 1, 'the dry run ran nothing');
  });

  it('inputs that do not fit the action are refused', async () => {
    const r = gateRepo(MEASURED(counter()));
    const noAction = envelope(await call('standards', {}, r.root));
    assert.equal(noAction.error, 'invalid_arguments');
    assert.match(noAction.message ?? '', /`action` is required/);
    const proposalsOnMeasure = await standards(r.root, { proposals: [{ name: 'coverage', reason: 'x' }] });
    assert.equal(proposalsOnMeasure.error, 'invalid_arguments');
    assert.match(proposalsOnMeasure.message ?? '', /`proposals` applies to action "propose" only/);
    const pinOnPropose = envelope(
      await call('standards', { action: 'propose', pin: true, proposals: [{ name: 'coverage', reason: 'x' }] }, r.root),
    );
    assert.equal(pinOnPropose.error, 'invalid_arguments');
    assert.match(pinOnPropose.message ?? '', /`pin` applies to action "measure" only/);
    const bare = envelope(await call('standards', { action: 'propose' }, r.root));
    assert.match(bare.message ?? '', /action "propose" needs `proposals`/);
  });
});

const PINNED = `[jobs]
test = "true"

# Line coverage of src/, from the coverage script.
[standards.coverage]
direction = "up"
limit = 80   # raised by hand in March
margin = 2
run = "${metric('coverage', 90.5)}"

[standards.size]
direction = "down"
limit = 100
margin = 5
run = "${metric('size', 97)}"

[standards.errors]
direction = "down"
limit = 4
run = "${metric('errors', 1)}"
`;

describe('standards --pin', () => {
  it('tightens each eligible limit by its margin in a commit of discern.toml alone; comments and layout stay; small gains are skipped with the reason', async () => {
    const r = gateRepo(PINNED);
    const before = head(r.root);
    const text = readFileSync(join(r.root, 'discern.toml'), 'utf8');
    const res = await standards(r.root, { pin: true });
    assert.equal(res.ok, true, show(res));
    const d = dataOf(res);
    assert.deepEqual(d.pinned, [
      { name: 'coverage', from: 80, to: 88.5, measured: 90.5 },
      { name: 'errors', from: 4, to: 1, measured: 1 },
    ]);
    assert.deepEqual(
      d.pin_skipped?.map((s) => [s.name, s.measured, s.margin]),
      [['size', 97, 5]],
    );
    assert.match(d.pin_skipped?.[0]?.reason ?? '', /3 below its ceiling 100 — not more than its margin 5/);
    const expected = text
      .replace('limit = 80   # raised by hand in March', 'limit = 88.5   # raised by hand in March')
      .replace('limit = 4\n', 'limit = 1\n');
    assert.notEqual(expected, text);
    assert.equal(readFileSync(join(r.root, 'discern.toml'), 'utf8'), expected, 'only the two numbers changed');
    const after = head(r.root);
    assert.equal(d.pin_commit, after);
    assert.equal(r.git('rev-parse', 'HEAD^').trim(), before);
    assert.equal(r.git('diff', '--name-only', before, after).trim(), 'discern.toml');
    assert.equal(r.git('log', '-1', '--format=%s').trim(), 'Pin standards: coverage 80 → 88.5, errors 4 → 1');
    assert.equal(r.git('status', '--porcelain').trim(), '', 'nothing left uncommitted');
    assert.equal(r.git('symbolic-ref', '--short', 'HEAD').trim(), 'main', 'committed on the current branch');
    assert.equal(d.proof_carried?.status, 'not_carried', 'no Proof was recorded before the pin');
    assert.match(d.proof_carried?.reason ?? '', /held no current Proof/);
    assert.deepEqual(
      res.steps?.slice(-3).map((s) => [s.label, s.outcome]),
      [
        ['set the pinned limits in discern.toml', 'ok'],
        ['commit discern.toml', 'ok'],
        ['carry the Proof forward to the pin commit', 'skipped'],
      ],
    );
  });

  it('with nothing beyond its margin, nothing is committed', async () => {
    const r = gateRepo(
      `[standards.size]\ndirection = "down"\nlimit = 100\nmargin = 5\nrun = "${metric('size', 97)}"\n`,
    );
    const before = head(r.root);
    const res = await standards(r.root, { pin: true });
    assert.equal(res.ok, true, show(res));
    assert.deepEqual(dataOf(res).pinned, []);
    assert.equal(head(r.root), before);
    assert.match(res.hints?.at(-1) ?? '', /Nothing to pin/);
  });

  it('is refused while a standard is red: nothing is written or committed', async () => {
    const r = gateRepo(`${PINNED}\n[standards.docs]\ndirection = "up"\nlimit = 50\nrun = "${metric('docs', 40)}"\n`);
    const before = head(r.root);
    const text = readFileSync(join(r.root, 'discern.toml'), 'utf8');
    const res = await standards(r.root, { pin: true });
    assert.equal(res.error, 'gate_failed', show(res));
    assert.match(res.message ?? '', /Nothing was pinned: pin waits until every standard is green/);
    assert.equal(head(r.root), before);
    assert.equal(readFileSync(join(r.root, 'discern.toml'), 'utf8'), text);
  });

  it('a commit that fails (a pre-commit hook) is pin_failed, and discern.toml and the index are exactly as they were', async () => {
    const r = gateRepo(PINNED);
    const hook = join(gitDir(r.root), 'hooks', 'pre-commit');
    writeFileSync(hook, '#!/bin/sh\necho "no commits today" >&2\nexit 1\n');
    chmodSync(hook, 0o755);
    const before = head(r.root);
    const bytes = readFileSync(join(r.root, 'discern.toml'));
    const res = await standards(r.root, { pin: true });
    assert.equal(res.error, 'pin_failed', show(res));
    assert.match(res.message ?? '', /git commit failed: .*no commits today/);
    assert.deepEqual(dataOf(res).pinned, []);
    assert.equal(head(r.root), before);
    assert.deepEqual(readFileSync(join(r.root, 'discern.toml')), bytes);
    assert.equal(r.git('status', '--porcelain').trim(), '');
    assert.deepEqual(
      res.steps?.slice(-2).map((s) => [s.label, s.outcome]),
      [
        ['commit discern.toml', 'failed'],
        ['restore discern.toml', 'ok'],
      ],
    );
  });

  it('a file that cannot be written is pin_failed with nothing changed', async () => {
    const r = gateRepo(PINNED);
    const before = head(r.root);
    const bytes = readFileSync(join(r.root, 'discern.toml'));
    const res = await standards(r.root, { pin: true }, { DISCERN_FAULT: 'standards:pin-write' });
    assert.equal(res.error, 'pin_failed', show(res));
    assert.equal(head(r.root), before);
    assert.deepEqual(readFileSync(join(r.root, 'discern.toml')), bytes);
    assert.equal(r.git('status', '--porcelain').trim(), '');
  });

  it("carries the previous commit's Proof to the pin commit: the next done reuses it and runs nothing", async () => {
    const jobs = counter('jobs');
    const measures = counter('measures');
    const r = gateRepo(
      `[jobs]\ntest = "echo ran >> ${jobs}"\n\n[standards.coverage]\ndirection = "up"\nlimit = 80\nmargin = 2\nrun = "${metric('coverage', 90, measures)}"\n`,
    );
    const proven = envelope(await call('done', {}, r.root));
    assert.equal(proven.ok, true, show(proven));
    const before = head(r.root);
    const pinned = await standards(r.root, { pin: true });
    assert.equal(pinned.ok, true, show(pinned));
    const d = dataOf(pinned);
    assert.equal(d.proof_carried?.status, 'carried', show(d.proof_carried));
    assert.equal(d.proof?.carried_from, before);
    assert.equal(d.proof?.commit, head(r.root));
    assert.match(d.proof?.line ?? '', /coverage 90 ≥ 88\) — .* — carried from \w{12} \(standards pinned\)/);
    assert.equal(count(jobs), 1);
    assert.equal(count(measures), 2, 'done measured once, standards once');

    const again = envelope(await call('done', {}, r.root));
    assert.equal(again.ok, true, show(again));
    const dd = again.data as DiscernDoneData;
    assert.equal(dd.gate_ran, false);
    assert.equal(dd.gate_proof?.status, 'reused');
    assert.equal(dd.proof?.commit, head(r.root));
    assert.equal(count(jobs), 1, 'no job ran again');
    assert.equal(count(measures), 2, 'no standard ran again');
  });
  it('carries no Proof where [checkpoints] govern: the pin commit changes discern.toml, so done judges it afresh', async () => {
    const jobs = counter('jobs');
    const r = gateRepo(
      `[jobs]\ntest = "echo ran >> ${jobs}"\n\n[standards.coverage]\ndirection = "up"\nlimit = 80\nmargin = 2\nrun = "${metric('coverage', 90)}"\n\n[checkpoints.gate-config]\npaths = ["discern.toml"]\nquestion = "Does this change to the gate's configuration keep every check?"\n`,
    );
    const proven = envelope(await call('done', {}, r.root));
    assert.equal(proven.ok, true, show(proven));
    const pinned = await standards(r.root, { pin: true });
    assert.equal(pinned.ok, true, show(pinned));
    const d = dataOf(pinned);
    assert.equal(d.proof_carried?.status, 'not_carried', show(d.proof_carried));
    assert.match(JSON.stringify(d.proof_carried), /checkpoints/);
    const again = envelope(await call('done', {}, r.root));
    assert.equal((again.data as DiscernDoneData).gate_ran, true, show(again));
    assert.equal(count(jobs), 2, 'done ran the gate on the pin commit');
  });
});

const LOOSE = `
[standards.coverage]
direction = "up"
limit = 80
run = "echo 'DISCERN_METRIC coverage 75'"

[standards.size]
direction = "down"
limit = 100
run = "echo 'DISCERN_METRIC size 10'"
`;

function loosened(text: string, which: 'coverage' | 'both' | 'size'): string {
  let out = text;
  if (which !== 'size') out = out.replace('limit = 80', 'limit = 70');
  if (which !== 'coverage') out = out.replace('limit = 100', 'limit = 120');
  return out;
}

async function propose(root: string, proposals: unknown, env: Record<string, string> = {}): Promise<Envelope> {
  return envelope(await call('standards', { action: 'propose', proposals }, root, env));
}

describe('standards propose', () => {
  it('a proposal bound to HEAD lets done pass with the loosened limit; accept waits for the owner, then lands with approve_standard and confirmed', async () => {
    const r = trackedRepo(repos, LOOSE);
    const w = await effort(
      r,
      'loosen',
      'discern.toml',
      loosened(readFileSync(join(r.root, 'discern.toml'), 'utf8'), 'coverage'),
      false,
    );
    const red = envelope(await call('done', {}, w.path));
    assert.equal(red.error, 'gate_failed', show(red));
    assert.match(red.message ?? '', /propose it for the owner: `discern standards propose <name> --reason <why>`/);

    const reason =
      'The generated client moved into src/ and has no tests of its own; 70 is where coverage stands with it.';
    const proposed = await propose(w.path, [{ name: 'coverage', reason }]);
    assert.equal(proposed.ok, true, show(proposed));
    const pd = dataOf(proposed);
    const commit = w.git('rev-parse', 'HEAD').trim();
    assert.deepEqual(pd.proposals, [{ name: 'coverage', reason, from: 80, to: 70, direction: 'up' }]);
    assert.equal(pd.proposal_commit, commit);
    const file = JSON.parse(readFileSync(pd.proposals_path ?? '', 'utf8')) as { commit: string; proposals: unknown[] };
    assert.equal(file.commit, commit);
    assert.equal(pd.proposals_path, join(gitDir(w.path), 'discern', 'standard-limit-proposals.json'));

    const green = envelope(await call('done', {}, w.path));
    assert.equal(green.ok, true, show(green));
    const gd = green.data as DiscernDoneData;
    assert.equal(gd.standards_limits?.status, 'loosened');
    assert.deepEqual(gd.proof?.standard_proposals, [{ name: 'coverage', reason, from: 80, to: 70, direction: 'up' }]);
    assert.match(gd.proof?.line ?? '', /loosened, awaiting the owner's approval: coverage 80 → 70/);

    const waiting = envelope(await call('accept', { confirmed: true }, w.path));
    assert.equal(waiting.error, 'awaiting_standard_approval', show(waiting));
    assert.match(waiting.message ?? '', /coverage floor 80 → 70 \("The generated client/);
    assert.match(waiting.message ?? '', /approve_standard: true and confirmed: true/);
    assert.deepEqual(
      (waiting.data as DiscernAcceptData).standard_approvals_required?.map((p) => p.name),
      ['coverage'],
    );
    assert.notEqual(r.git('rev-parse', 'main').trim(), commit, 'nothing landed');

    const unconfirmed = envelope(await call('accept', { approve_standard: true }, w.path));
    assert.equal(unconfirmed.error, 'invalid_value', show(unconfirmed));
    assert.match(unconfirmed.message ?? '', /needs confirmed: true/);

    const landed = envelope(await call('accept', { confirmed: true, approve_standard: true }, w.path));
    assert.equal(landed.ok, true, show(landed));
    const ad = landed.data as DiscernAcceptData;
    assert.deepEqual(ad.standard_approvals, [{ name: 'coverage', reason, from: 80, to: 70, direction: 'up' }]);
    assert.equal(r.git('rev-parse', 'main').trim(), commit);
  });

  it('a new proposal on the same commit withdraws its Proof marker; done proves it again under the new batch', async () => {
    const r = trackedRepo(repos, LOOSE);
    const w = await effort(
      r,
      'repropose',
      'discern.toml',
      loosened(readFileSync(join(r.root, 'discern.toml'), 'utf8'), 'coverage'),
      false,
    );
    assert.equal((await propose(w.path, [{ name: 'coverage', reason: 'first reason' }])).ok, true);
    assert.equal(envelope(await call('done', {}, w.path)).ok, true);
    assert.ok(existsSync(join(gitDir(w.path), 'discern', 'gate-proof')));
    assert.equal((await propose(w.path, [{ name: 'coverage', reason: 'second reason' }])).ok, true);
    assert.equal(
      existsSync(join(gitDir(w.path), 'discern', 'gate-proof')),
      false,
      'the marker went with the old batch',
    );
    const again = envelope(await call('done', {}, w.path));
    assert.equal(again.ok, true, show(again));
    assert.equal((again.data as DiscernDoneData).proof?.standard_proposals?.[0]?.reason, 'second reason');
  });

  it('refuses a standard that is not loosened, a batch missing a breach, a duplicate, an unknown name and a too-long reason', async () => {
    const r = gateRepo(LOOSE);
    const wt = addWorktree(r, 'agent/both');
    wt.write('discern.toml', loosened(readFileSync(join(wt.root, 'discern.toml'), 'utf8'), 'both'));
    wt.commit('loosen both');

    const missing = await propose(wt.root, [{ name: 'coverage', reason: 'coverage reason' }]);
    assert.equal(missing.error, 'invalid_value', show(missing));
    assert.match(
      missing.message ?? '',
      /also loosens \[standards\.size\] ceiling raised from 100 to 120: one batch covers every loosened standard/,
    );
    const duplicate = await propose(wt.root, [
      { name: 'size', reason: 'a' },
      { name: 'coverage', reason: 'b' },
      { name: 'size', reason: 'c' },
    ]);
    assert.equal(duplicate.error, 'invalid_value', show(duplicate));
    assert.match(duplicate.message ?? '', /`size` is named more than once/);
    const unknown = await propose(wt.root, [{ name: 'speed', reason: 'x' }]);
    assert.equal(unknown.error, 'unknown_standard', show(unknown));
    assert.deepEqual(dataOf(unknown).suggestions, ['coverage', 'size']);
    const long = await propose(wt.root, [{ name: 'coverage', reason: 'x'.repeat(501) }]);
    assert.equal(long.error, 'invalid_arguments', show(long));
    const blank = await propose(wt.root, [
      { name: 'coverage', reason: '   ' },
      { name: 'size', reason: 'ok' },
    ]);
    assert.equal(blank.error, 'invalid_value', show(blank));

    const whole = await propose(wt.root, [
      { name: 'size', reason: 'size reason' },
      { name: 'coverage', reason: 'coverage reason' },
    ]);
    assert.equal(whole.ok, true, show(whole));
    assert.deepEqual(
      dataOf(whole).proposals?.map((p) => [p.name, p.from, p.to, p.direction]),
      [
        ['size', 100, 120, 'down'],
        ['coverage', 80, 70, 'up'],
      ],
      'in the order given',
    );

    const one = addWorktree(r, 'agent/one');
    one.write('discern.toml', loosened(readFileSync(join(one.root, 'discern.toml'), 'utf8'), 'size'));
    one.commit('loosen size');
    const notLoosened = await propose(one.root, [
      { name: 'coverage', reason: 'not needed' },
      { name: 'size', reason: 'needed' },
    ]);
    assert.equal(notLoosened.error, 'invalid_value', show(notLoosened));
    assert.match(notLoosened.message ?? '', /`coverage` is not loosened against the trunk's committed discern\.toml/);
  });

  it('a deleted standard cannot be proposed', async () => {
    const r = gateRepo(LOOSE);
    const wt = addWorktree(r, 'agent/delete');
    const text = readFileSync(join(wt.root, 'discern.toml'), 'utf8');
    wt.write('discern.toml', text.slice(0, text.indexOf('[standards.size]')));
    wt.commit('drop size');
    const res = await propose(wt.root, [{ name: 'size', reason: 'no longer measured' }]);
    assert.equal(res.error, 'invalid_value', show(res));
    assert.match(res.message ?? '', /A proposal covers a loosened limit only, and \[standards\.size\] is deleted/);
  });

  it('a batch made stale by a later commit makes done refuse with proposal_stale', async () => {
    const r = gateRepo(LOOSE);
    const wt = addWorktree(r, 'agent/stale');
    wt.write('discern.toml', loosened(readFileSync(join(wt.root, 'discern.toml'), 'utf8'), 'coverage'));
    wt.commit('loosen coverage');
    assert.equal((await propose(wt.root, [{ name: 'coverage', reason: 'why' }])).ok, true);
    wt.write('notes.md', 'more work\n');
    wt.commit('more work');
    const res = envelope(await call('done', {}, wt.root));
    assert.equal(res.error, 'proposal_stale', show(res));
    assert.equal((res.data as DiscernDoneData).failed_stage, 'standards');
    assert.match(res.message ?? '', /bound to \w{12}, not to HEAD \w{12}/);
  });

  it('an uncommitted discern.toml, a dry run and a write failure', async () => {
    const r = gateRepo(LOOSE);
    const wt = addWorktree(r, 'agent/write');
    const text = loosened(readFileSync(join(wt.root, 'discern.toml'), 'utf8'), 'coverage');
    wt.write('discern.toml', text);
    const dirty = await propose(wt.root, [{ name: 'coverage', reason: 'why' }]);
    assert.equal(dirty.error, 'precondition_failed', show(dirty));
    assert.match(dirty.message ?? '', /differs from HEAD's/);
    wt.commit('loosen coverage');
    const path = join(gitDir(wt.root), 'discern', 'standard-limit-proposals.json');
    const preview = envelope(
      await call(
        'standards',
        { action: 'propose', dry_run: true, proposals: [{ name: 'coverage', reason: 'why' }] },
        wt.root,
      ),
    );
    assert.equal(preview.ok, true, show(preview));
    assert.equal(preview.dry_run, true);
    assert.equal(existsSync(path), false);
    const failed = await propose(wt.root, [{ name: 'coverage', reason: 'why' }], {
      DISCERN_FAULT: 'standards:proposal-write',
    });
    assert.equal(failed.error, 'proposal_failed', show(failed));
    assert.equal(existsSync(path), false);
  });

  it('the scalar CLI command records a batch of one', async () => {
    const r = gateRepo(LOOSE);
    const wt = addWorktree(r, 'agent/scalar');
    wt.write('discern.toml', loosened(readFileSync(join(wt.root, 'discern.toml'), 'utf8'), 'coverage'));
    wt.commit('loosen coverage');
    const res = envelope(
      await call(
        'standardsPropose',
        { name: 'coverage', reason: 'measured without the generated client' },
        wt.root,
        {},
        'cli',
      ),
    );
    assert.equal(res.ok, true, show(res));
    assert.deepEqual(
      (res.data as DiscernStandardsProposeData).proposals?.map((p) => p.name),
      ['coverage'],
    );
    const refused = envelope(
      await call('standardsPropose', { name: 'size', reason: 'not loosened' }, wt.root, {}, 'cli'),
    );
    assert.equal(refused.error, 'invalid_value', show(refused));
    assert.match(refused.hints?.at(-1) ?? '', /`discern help standards propose`/);
  });
});

describe('driven', () => {
  it('drove standards and standards propose through success and failure', () =>
    assertDriven(['standards', 'standardsPropose']));
});
