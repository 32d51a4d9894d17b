// done on real scratch projects with real shell jobs: the refusals before anything runs (dirty, unborn,
// detached, policy_base), a green run and its Proof marker, reuse on an unchanged HEAD, re-runs after a commit
// or a config change, replay for an amended message and in another worktree, every red stage with its steps
// and diagnostics (tsc lines, SARIF, JUnit), the unchanged red tree, fail_fast, timeouts that name their config
// key and kill the job's children, tree and generated drift, standards (measured, held, regressed, per, scale,
// never-loosen, deferred, replayed), the merge check, tracked artifacts, write_denied, dry runs, ci, scope gates,
// [gate] concurrency, and concurrent or dead attempts in the same checkout. Counter files outside the
// repository show whether a job ran.
import { describe, it, after } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import type { DiscernDoneData } from '../../generated/types.js';
import { assertDriven, call } from '../helpers/drive.js';
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
  heldJob,
  isRoot,
  killJob,
  lines,
  markerPath,
  outsideDir,
  pidFrom,
  processAlive,
  release,
  rememberLocked,
  startCli,
  step,
  stepsWith,
  waitFor,
  type Envelope,
} from '../helpers/gate-repo.js';

after(cleanupGate);

async function done(root: string, input: Record<string, unknown> = {}): Promise<Envelope> {
  return envelope(await call('done', input, root));
}

function dataOf(result: Envelope): DiscernDoneData {
  assert.ok(
    typeof result.data === 'object' && result.data !== null && 'gate_ran' in result.data,
    `done data expected:\n${JSON.stringify(result, null, 2)}`,
  );
  return result.data as DiscernDoneData;
}

function show(result: Envelope): string {
  return JSON.stringify(result, null, 2);
}

/** A job line that appends its name to `file` each time it runs. */
function counting(file: string, name = 'ran'): string {
  return `echo ${name} >> ${file}`;
}

const TSC_LINE = `src/a.ts(3,7): error TS2322: Type 'x' is not assignable to type 'y'.`;

describe('done refuses before running anything', () => {
  it('a dirty tree is dirty_worktree, and no job runs', async () => {
    const c = counter();
    const r = gateRepo(`[jobs]\ntest = "${counting(c)}"\n`);
    r.write('README.md', 'edited\n');
    r.write('new.txt', 'untracked\n');
    const res = await done(r.root);
    assert.equal(res.ok, false);
    assert.equal(res.error, 'dirty_worktree', show(res));
    assert.match(res.message ?? '', /2 uncommitted changes \(1 untracked\)/);
    assert.match(res.hints?.at(-1) ?? '', /standalone: true/, 'the next action offers standalone diagnostics');
    assert.equal(count(c), 0);
    assert.equal(existsSync(markerPath(r.root)), false);
  });

  it('ignored files do not make the tree dirty', async () => {
    const r = gateRepo(`[jobs]\ntest = "true"\n`, { '.gitignore': '*.log\n' });
    r.write('debug.log', 'ignored\n');
    const res = await done(r.root);
    assert.equal(res.ok, true, show(res));
  });

  it('standalone: true on a dirty tree runs the jobs for diagnostics and records no Proof', async () => {
    const c = counter();
    const r = gateRepo(`[jobs]\ntest = "${counting(c)}"\n`);
    r.write('README.md', 'edited\n');
    const res = await done(r.root, { standalone: true });
    assert.equal(res.ok, true, show(res));
    const d = dataOf(res);
    assert.equal(d.gate_ran, true);
    assert.equal(d.completion?.kind, 'diagnostic');
    assert.equal(d.gate_proof?.status, 'diagnostic');
    assert.equal(d.proof, undefined, 'standalone carries no Proof');
    assert.equal(step(res, 'test').outcome, 'ok');
    assert.equal(count(c), 1);
    assert.equal(existsSync(markerPath(r.root)), false, 'no Proof marker');
    // And since nothing was recorded, a plain done on the (still dirty) tree is still refused.
    assert.equal((await done(r.root)).error, 'dirty_worktree');
  });

  it('a branch with no commit yet (unborn HEAD) is refused: there is nothing committed to prove', async () => {
    const c = counter();
    const r = gateRepo(`[jobs]\ntest = "${counting(c)}"\n`);
    r.git('checkout', '-q', '--orphan', 'agent/fresh');
    const res = await done(r.root);
    assert.equal(res.ok, false);
    assert.equal(res.error, 'dirty_worktree', show(res));
    assert.match(res.message ?? '', /no commit/i);
    assert.equal(count(c), 0);
  });

  it('a repository with no commit at all is refused, not crashed on', async () => {
    const c = counter();
    const r = gateRepo(`[jobs]\ntest = "${counting(c)}"\n`, {}, { commit: false });
    const res = await done(r.root);
    assert.equal(res.ok, false);
    assert.notEqual(res.error, 'internal_error', show(res));
    assert.equal(count(c), 0);
  });

  it('a detached HEAD is detached_head; ci: true on a detached HEAD reports', async () => {
    const c = counter();
    const r = gateRepo(`[jobs]\ntest = "${counting(c)}"\n`);
    r.git('checkout', '-q', '--detach');
    const res = await done(r.root);
    assert.equal(res.error, 'detached_head', show(res));
    assert.equal(count(c), 0);

    const ci = await done(r.root, { ci: true });
    assert.equal(ci.ok, true, show(ci));
    const d = dataOf(ci);
    assert.equal(d.mode, 'report');
    assert.equal(d.completion?.kind, 'diagnostic');
    assert.match(
      d.proof?.line ?? '',
      /^discern Proof \[report only\]: detached HEAD @ [0-9a-f]{12} — gate green \(test\)/,
    );
    assert.equal(count(c), 1);
    // Kept as report-only: status and accept can say why it cannot land (test/verbs/report-only-proof.test.ts).
    const marker = JSON.parse(readFileSync(markerPath(r.root), 'utf8')) as { mode: string };
    assert.equal(marker.mode, 'report');
  });

  it('policy_base needs ci and standalone, and must name a commit', async () => {
    const c = counter();
    const r = gateRepo(`[jobs]\ntest = "${counting(c)}"\n`);
    const alone = await done(r.root, { policy_base: 'main' });
    assert.equal(alone.error, 'invalid_value', show(alone));
    assert.match(alone.message ?? '', /ci and standalone/);
    const withCiOnly = await done(r.root, { policy_base: 'main', ci: true });
    assert.equal(withCiOnly.error, 'invalid_value');
    const bad = await done(r.root, { policy_base: 'origin/nowhere', ci: true, standalone: true });
    assert.equal(bad.error, 'invalid_value', show(bad));
    assert.match(bad.message ?? '', /origin\/nowhere/);
    assert.equal(count(c), 0);
    const good = await done(r.root, { policy_base: 'main', ci: true, standalone: true });
    assert.equal(good.ok, true, show(good));
    assert.equal(dataOf(good).mode, 'report');
    assert.equal(count(c), 1);
  });
});

describe('green, reused, re-run and replayed', () => {
  const c = counter();
  const r = gateRepo(`[jobs]\ntest = "${counting(c)}"\n`);
  let firstProof = '';
  let proven = '';

  it('a green run returns Proof for HEAD and writes the marker', async () => {
    const res = await done(r.root);
    assert.equal(res.ok, true, show(res));
    const d = dataOf(res);
    const commit = head(r.root);
    assert.equal(d.gate_ran, true);
    assert.equal(d.failed_stage, null);
    assert.equal(d.mode, 'strict');
    assert.match(d.handle ?? '', R1_HANDLE);
    assert.ok(d.proof);
    assert.equal(d.proof.commit, commit);
    assert.match(d.proof.line, new RegExp(`^discern Proof: main @ ${commit.slice(0, 12)} — gate green \\(test\\)`));
    assert.deepEqual(d.completion, { kind: 'complete', proof_id: d.proof.proof_id, pending_reasons: [] });
    assert.deepEqual(d.gate_proof, { status: 'recorded', path: markerPath(r.root) });
    assert.ok(existsSync(markerPath(r.root)), 'the marker is at <git-dir>/discern/gate-proof');
    assert.ok(readFileSync(markerPath(r.root), 'utf8').includes(commit), 'the marker names the proven commit');
    assert.equal(step(res, 'test').outcome, 'ok');
    assert.equal(step(res, 'test').kind, 'job');
    assert.deepEqual(d.producer_executions, { test: 1 });
    assert.equal(count(c), 1);
    firstProof = d.proof.proof_id ?? '';
    assert.match(firstProof, /.+/);
  });

  it('the same HEAD again returns the same Proof at once: nothing runs', async () => {
    const started = Date.now();
    const res = await done(r.root);
    assert.equal(res.ok, true, show(res));
    const d = dataOf(res);
    assert.equal(d.gate_ran, false);
    assert.equal((res.steps ?? []).length, 0, 'no steps');
    assert.equal(d.completion?.proof_id, firstProof);
    assert.equal(d.gate_proof?.status, 'reused');
    assert.equal(count(c), 1, 'no job ran');
    assert.ok(Date.now() - started < 2000, 'reuse is fast');
  });

  it('rerun: true measures the unchanged HEAD again', async () => {
    const res = await done(r.root, { rerun: true });
    assert.equal(res.ok, true, show(res));
    assert.equal(dataOf(res).gate_ran, true);
    assert.equal(count(c), 2);
  });

  it('a new commit runs the gate again', async () => {
    r.write('src/a.txt', 'a\n');
    r.commit('a');
    const res = await done(r.root);
    assert.equal(res.ok, true, show(res));
    const d = dataOf(res);
    assert.equal(d.gate_ran, true);
    assert.notEqual(d.completion?.proof_id, firstProof);
    assert.equal(count(c), 3);
  });

  it('a committed config change runs the gate again', async () => {
    r.write('discern.toml', `${readFileSync(join(r.root, 'discern.toml'), 'utf8')}\n[gate]\nfail_fast = false\n`);
    r.commit('config');
    const res = await done(r.root);
    assert.equal(res.ok, true, show(res));
    assert.equal(dataOf(res).gate_ran, true);
    assert.equal(count(c), 4);
    proven = head(r.root);
  });

  it('an amend of only the message (same tree) replays the proven evidence without running a job', async () => {
    r.git('commit', '-q', '--amend', '-m', 'config, reworded');
    const amended = head(r.root);
    assert.notEqual(amended, proven);
    const res = await done(r.root);
    assert.equal(res.ok, true, show(res));
    const d = dataOf(res);
    assert.equal(d.gate_ran, false);
    assert.equal(d.replayed_from, proven);
    assert.equal(d.proof?.commit, amended);
    assert.match(d.proof?.line ?? '', new RegExp(`replayed from ${proven.slice(0, 12)}`));
    assert.equal(d.completion?.kind, 'complete');
    assert.deepEqual(
      stepsWith(res, 'ok').filter((l) => l === 'test'),
      [],
      'the test job did not run',
    );
    assert.equal(count(c), 4, 'no job ran');
    // The replayed Proof is now this commit's marker: the next call reuses it.
    const again = await done(r.root);
    assert.equal(dataOf(again).gate_proof?.status, 'reused');
    assert.equal(count(c), 4);
  });

  it('another linked worktree whose commit has the identical tree replays too', async () => {
    const wt = addWorktree(r, 'agent/copy', 'main');
    wt.git('commit', '-q', '--allow-empty', '-m', 'same tree, new commit');
    const res = await done(wt.root);
    assert.equal(res.ok, true, show(res));
    const d = dataOf(res);
    assert.equal(d.gate_ran, false);
    assert.equal(d.replayed_from, proven);
    assert.equal(d.proof?.branch, 'agent/copy');
    assert.equal(d.proof?.commit, head(wt.root));
    assert.equal(count(c), 4, 'no job ran');
    assert.ok(existsSync(markerPath(wt.root)), "the worktree's own marker is written");
    assert.notEqual(markerPath(wt.root), markerPath(r.root));
  });
});

describe('a config change on an unchanged HEAD', () => {
  it('makes the Proof stale: the gate runs again', async () => {
    const c = counter();
    // discern.toml is ignored here, so editing it changes the config but neither HEAD nor its tree.
    const r = gateRepo(`[jobs]\ntest = "${counting(c)}"\n`, {}, { commit: false });
    r.write('.git/info/exclude', 'discern.toml\n');
    r.commit('initial');
    assert.equal(r.git('status', '--porcelain').trim(), '');
    const first = await done(r.root);
    assert.equal(first.ok, true, show(first));
    assert.equal(dataOf(first).gate_ran, true);
    // The trunk has no committed discern.toml: the never-loosen check cannot hold, and says so.
    assert.equal(dataOf(first).standards_limits?.status, 'unverified');
    assert.ok(
      (first.advisories ?? []).some((a) => a.kind === 'standards-limits-unverified'),
      show(first),
    );
    assert.equal(dataOf(await done(r.root)).gate_ran, false);
    assert.equal(count(c), 1);
    r.write('discern.toml', `${readFileSync(join(r.root, 'discern.toml'), 'utf8')}\n[gate]\nconcurrency = 1\n`);
    const after = await done(r.root);
    assert.equal(after.ok, true, show(after));
    assert.equal(dataOf(after).gate_ran, true, 'a changed config is not covered by the old Proof');
    assert.equal(count(c), 2);
  });
});

describe('red runs', () => {
  it('check fails: tsc diagnostics, a cancelled sibling, the unchanged red tree refused, rerun runs it again', async () => {
    const c = counter();
    const lint = `sleep 0.3; echo "${TSC_LINE}"; exit 2`;
    const r = gateRepo(`[gate]\nconcurrency = 4\n\n[jobs]\nlint = '''${lint}'''\ntest = "${counting(c)}; sleep 20"\n`);
    const started = Date.now();
    const res = await done(r.root);
    assert.ok(Date.now() - started < 10_000, 'fail_fast did not wait for the sleeping sibling');
    assert.equal(res.ok, false);
    assert.equal(res.error, 'gate_failed', show(res));
    const d = dataOf(res);
    assert.equal(d.failed_stage, 'check');
    assert.equal(d.gate_ran, true);
    assert.equal(d.completion?.kind, 'pending');
    assert.match(res.message ?? '', /check stage \(lint\)/);
    assert.equal(step(res, 'lint').outcome, 'failed');
    assert.equal(step(res, 'lint').output_lines, 1);
    assert.equal(step(res, 'lint').error_like_lines, 1);
    assert.equal(step(res, 'test').outcome, 'cancelled');
    const [first] = res.diagnostics ?? [];
    assert.ok(first, show(res));
    assert.deepEqual(
      {
        tool: first.tool,
        file: first.file,
        line: first.line,
        col: first.col,
        rule: first.rule,
        severity: first.severity,
        reproduce_cmd: first.reproduce_cmd,
      },
      { tool: 'lint', file: 'src/a.ts', line: 3, col: 7, rule: 'TS2322', severity: 'error', reproduce_cmd: lint },
    );
    assert.match(first.message, /not assignable/);
    assert.equal(existsSync(markerPath(r.root)), false, 'no Proof marker for a red run');
    const ran = count(c);

    const again = await done(r.root);
    assert.equal(again.error, 'unchanged_tree_rerun', show(again));
    const a = dataOf(again);
    assert.equal(a.gate_ran, false);
    assert.equal(a.failed_stage, 'check');
    const next = again.hints?.at(-1) ?? '';
    assert.ok(next.includes(`discern_progress with handle "${d.handle ?? ''}"`), next);
    assert.match(next, /rerun: true/);
    assert.equal(count(c), ran, 'nothing ran');

    const rerun = await done(r.root, { rerun: true });
    assert.equal(rerun.error, 'gate_failed', show(rerun));
    assert.equal(dataOf(rerun).gate_ran, true);
    assert.equal(step(rerun, 'lint').outcome, 'failed');
  });

  it('build fails: later stages are skipped, reproduce_cmd and tool come from the job', async () => {
    const c = counter();
    const r = gateRepo(
      `[jobs]\nformat = "true"\nbuild = "echo linker exploded >&2; exit 1"\nlint = "${counting(c, 'lint')}"\ntest = "${counting(c, 'test')}"\n`,
    );
    const res = await done(r.root);
    assert.equal(res.error, 'gate_failed', show(res));
    assert.equal(dataOf(res).failed_stage, 'build');
    assert.equal(step(res, 'format').outcome, 'ok');
    assert.equal(step(res, 'build').outcome, 'failed');
    assert.deepEqual(stepsWith(res, 'skipped').sort(), ['lint', 'test']);
    assert.equal(count(c), 0);
    const diag = (res.diagnostics ?? []).find((x) => x.tool === 'build');
    assert.ok(diag, show(res));
    assert.equal(diag.reproduce_cmd, 'echo linker exploded >&2; exit 1');
    assert.match(`${diag.message}\n${diag.output ?? ''}`, /linker exploded/);
  });

  it('fix fails: the serial fix stage stops at the failing command, nothing later runs', async () => {
    const c = counter();
    const r = gateRepo(
      `[jobs]\nformat = ["true", "echo cannot format; exit 3"]\nbuild = "${counting(c, 'build')}"\ntest = "${counting(c, 'test')}"\n\n[jobs.fixup]\nstage = "fix"\nrun = "${counting(c, 'fixup')}"\n`,
    );
    const res = await done(r.root);
    assert.equal(res.error, 'gate_failed', show(res));
    assert.equal(dataOf(res).failed_stage, 'fix');
    assert.equal(step(res, 'format').outcome, 'failed');
    assert.deepEqual(stepsWith(res, 'skipped').sort(), ['build', 'fixup', 'test']);
    assert.equal(count(c), 0);
    assert.equal(
      res.diagnostics?.[0]?.reproduce_cmd,
      'echo cannot format; exit 3',
      'the failing command, not the first',
    );
    assert.equal(res.diagnostics?.[0]?.tool, 'format');
    assert.equal(dataOf(res).producer_executions?.['format'], 2);
  });

  it('test fails with JUnit output: one diagnostic per failing testcase', async () => {
    const junit = `<?xml version="1.0"?>
<testsuites><testsuite name="math" tests="2" failures="1">
<testcase name="adds" classname="math" file="tests/add.test.ts" line="12"><failure message="expected 2, got 3">AssertionError</failure></testcase>
<testcase name="subtracts" classname="math" file="tests/sub.test.ts"/>
</testsuite></testsuites>
`;
    // fail_fast off: lint is a sibling in the same stage and must not be cancelled by a faster test failure.
    const r = gateRepo(`[gate]\nfail_fast = false\n\n[jobs]\nlint = "true"\ntest = "cat tools/junit.xml; exit 1"\n`, {
      'tools/junit.xml': junit,
    });
    const res = await done(r.root);
    assert.equal(res.error, 'gate_failed', show(res));
    assert.equal(dataOf(res).failed_stage, 'test');
    assert.equal(step(res, 'lint').outcome, 'ok');
    const diags = res.diagnostics ?? [];
    assert.equal(diags.length, 1, show(res));
    assert.deepEqual(
      {
        tool: diags[0]?.tool,
        file: diags[0]?.file,
        line: diags[0]?.line,
        rule: diags[0]?.rule,
        reproduce_cmd: diags[0]?.reproduce_cmd,
      },
      { tool: 'test', file: 'tests/add.test.ts', line: 12, rule: 'adds', reproduce_cmd: 'cat tools/junit.xml; exit 1' },
    );
    assert.match(diags[0]?.message ?? '', /expected 2, got 3/);
  });

  it('check and test both fail with fail_fast = false: SARIF diagnostics, a slow sibling finishes', async () => {
    const c = counter();
    const sarif = JSON.stringify({
      version: '2.1.0',
      runs: [
        {
          tool: { driver: { name: 'eslint' } },
          results: [
            {
              ruleId: 'no-unused-vars',
              level: 'error',
              message: { text: "'x' is assigned a value but never used." },
              locations: [
                {
                  physicalLocation: { artifactLocation: { uri: 'src/b.ts' }, region: { startLine: 5, startColumn: 2 } },
                },
              ],
            },
            {
              ruleId: 'prefer-const',
              level: 'warning',
              message: { text: "'y' is never reassigned." },
              locations: [
                {
                  physicalLocation: { artifactLocation: { uri: 'src/c.ts' }, region: { startLine: 9, startColumn: 4 } },
                },
              ],
            },
          ],
        },
      ],
    });
    const r = gateRepo(
      `[gate]\nfail_fast = false\nconcurrency = 4\n\n[jobs]\nlint = "cat tools/eslint.sarif; exit 1"\ntest = "echo 1 failing; exit 1"\n\n[jobs.slowcheck]\nstage = "check"\nrun = "sleep 0.5; ${counting(c)}"\n`,
      { 'tools/eslint.sarif': `${sarif}\n` },
    );
    const res = await done(r.root);
    assert.equal(res.error, 'gate_failed', show(res));
    assert.equal(dataOf(res).failed_stage, 'check/test');
    assert.equal(step(res, 'slowcheck').outcome, 'ok', 'without fail_fast the sibling is not cancelled');
    assert.equal(count(c), 1);
    assert.deepEqual(stepsWith(res, 'failed').sort(), ['lint', 'test']);
    const lint = (res.diagnostics ?? []).filter((x) => x.tool === 'lint');
    assert.deepEqual(
      lint.map((x) => ({
        file: x.file,
        line: x.line,
        col: x.col,
        rule: x.rule,
        severity: x.severity,
        reproduce_cmd: x.reproduce_cmd,
      })),
      [
        {
          file: 'src/b.ts',
          line: 5,
          col: 2,
          rule: 'no-unused-vars',
          severity: 'error',
          reproduce_cmd: 'cat tools/eslint.sarif; exit 1',
        },
        {
          file: 'src/c.ts',
          line: 9,
          col: 4,
          rule: 'prefer-const',
          severity: 'warning',
          reproduce_cmd: 'cat tools/eslint.sarif; exit 1',
        },
      ],
    );
    assert.ok((res.diagnostics ?? []).some((x) => x.tool === 'test' && x.reproduce_cmd === 'echo 1 failing; exit 1'));
  });

  it('a timeout names the config key that set it and kills the job and its children, even ones ignoring SIGTERM', async () => {
    const dir = outsideDir();
    const own = join(dir, 'own.pid');
    const global = join(dir, 'global.pid');
    const stubborn = join(dir, 'stubborn.pid');
    const r = gateRepo(
      `[gate]\ntimeout = 1\nfail_fast = false\n\n[jobs]\nlint = "sleep 30 & echo $! > ${global}; wait"\n\n[jobs.slow]\nstage = "check"\nrun = "sleep 30 & echo $! > ${own}; wait"\ntimeout = 1\n\n[jobs.stubborn]\nstage = "test"\nrun = "trap '' TERM; sleep 30 & echo $! > ${stubborn}; wait"\ntimeout = 1\n`,
    );
    const started = Date.now();
    const res = await done(r.root);
    assert.ok(Date.now() - started < 10_000, 'the run did not wait for the sleeping jobs');
    assert.equal(res.error, 'gate_failed', show(res));
    assert.equal(dataOf(res).failed_stage, 'check/test');
    assert.deepEqual(stepsWith(res, 'failed').sort(), ['lint', 'slow', 'stubborn']);
    const messages = (res.diagnostics ?? []).map((x) => `${x.tool}: ${x.message}`);
    assert.ok(
      messages.some((m) => m.startsWith('slow:') && m.includes('[jobs.slow] timeout')),
      messages.join('\n'),
    );
    assert.ok(
      messages.some((m) => m.startsWith('lint:') && m.includes('[gate] timeout')),
      messages.join('\n'),
    );
    assert.ok(
      messages.some((m) => m.startsWith('stubborn:') && m.includes('[jobs.stubborn] timeout')),
      messages.join('\n'),
    );
    for (const file of [own, global, stubborn]) {
      const pid = await pidFrom(file);
      await waitFor(`the job's child ${pid} to be gone`, () => !processAlive(pid), 3000);
    }
  });
});

describe('red runs, continued', () => {
  it('under fail_fast with concurrency = 1 the queued siblings of a failure are skipped, not run', async () => {
    const c = counter();
    const r = gateRepo(
      `[gate]\nconcurrency = 1\n\n[jobs]\nlint = "exit 1"\ntypecheck = "${counting(c, 'typecheck')}"\ntest = "${counting(c, 'test')}"\n`,
    );
    const res = await done(r.root);
    assert.equal(res.error, 'gate_failed', show(res));
    assert.equal(step(res, 'lint').outcome, 'failed');
    assert.deepEqual(stepsWith(res, 'skipped').sort(), ['test', 'typecheck']);
    assert.equal(count(c), 0);
  });

  it('a failing job that floods its output gives a bounded, truncated diagnostic pointing at the full output', async () => {
    const r = gateRepo(`[jobs]\ntest = "seq 1 20000; echo final words; exit 1"\n`);
    const res = await done(r.root);
    assert.equal(res.error, 'gate_failed', show(res));
    const s = step(res, 'test');
    assert.equal(s.output_lines, 20001);
    const [diag] = res.diagnostics ?? [];
    assert.ok(diag);
    assert.equal(diag.truncated, true);
    assert.ok(diag.output_path && existsSync(diag.output_path), 'the full output is on disk');
    assert.equal(
      readFileSync(diag.output_path, 'utf8')
        .split('\n')
        .filter((l) => l.length > 0).length >= 20001,
      true,
    );
    assert.match(diag.output ?? '', /final words$/);
    assert.ok(
      (diag.output ?? '').length < 10_000,
      `the inline output is bounded (${(diag.output ?? '').length} chars)`,
    );
  });

  it('an amend of a red commit (same tree) is still refused as unchanged_tree_rerun', async () => {
    const c = counter();
    const r = gateRepo(`[jobs]\ntest = "${counting(c)}; exit 1"\n`);
    assert.equal((await done(r.root)).error, 'gate_failed');
    r.git('commit', '-q', '--amend', '-m', 'same tree, another message');
    const res = await done(r.root);
    assert.equal(res.error, 'unchanged_tree_rerun', show(res));
    assert.equal(count(c), 1);
  });

  it('standalone and ci red runs record no verdict: a plain done afterwards runs the gate', async () => {
    const c = counter();
    const r = gateRepo(`[jobs]\ntest = "${counting(c)}; exit 1"\n`);
    assert.equal((await done(r.root, { standalone: true })).error, 'gate_failed');
    assert.equal((await done(r.root, { ci: true })).error, 'gate_failed');
    const res = await done(r.root);
    assert.equal(res.error, 'gate_failed', show(res));
    assert.equal(dataOf(res).gate_ran, true);
    assert.equal(count(c), 3);
  });

  it('a red re-measure of a proven HEAD is not answered with the old green Proof afterwards', async () => {
    const dir = outsideDir();
    const broken = join(dir, 'broken');
    const r = gateRepo(`[jobs]\ntest = "test ! -f ${broken}"\n`);
    assert.equal((await done(r.root)).ok, true);
    writeFileSync(broken, 'now it fails\n');
    const remeasured = await done(r.root, { rerun: true });
    assert.equal(remeasured.error, 'gate_failed', show(remeasured));
    const next = await done(r.root);
    assert.equal(next.ok, false, `the last verdict on this tree is red:\n${show(next)}`);
    assert.equal(next.error, 'unchanged_tree_rerun');
  });

  it('a red re-measure also stops an identical tree from replaying the older green evidence', async () => {
    const dir = outsideDir();
    const broken = join(dir, 'broken');
    const r = gateRepo(`[jobs]\ntest = "test ! -f ${broken}"\n`);
    assert.equal((await done(r.root)).ok, true);
    writeFileSync(broken, 'now it fails\n');
    assert.equal((await done(r.root, { rerun: true })).error, 'gate_failed');
    r.git('commit', '-q', '--amend', '-m', 'same tree, new commit');
    const next = await done(r.root);
    assert.equal(next.ok, false, `the last verdict on this tree is red:\n${show(next)}`);
    assert.equal(next.error, 'unchanged_tree_rerun');
  });

  it('a job that moves HEAD (commits) during the run does not earn Proof', async () => {
    const r = gateRepo(`[jobs]\ntest = "echo sneaky > sneaky.txt && git add sneaky.txt && git commit -q -m sneaky"\n`);
    const before = head(r.root);
    const res = await done(r.root);
    assert.notEqual(head(r.root), before, 'the job did commit');
    assert.equal(res.ok, false, `Proof needs HEAD unmoved:\n${show(res)}`);
    assert.equal(dataOf(res).proof, undefined);
    assert.equal(existsSync(markerPath(r.root)), false);
  });

  it('a check job writing only ignored files (a cache) leaves the tree clean: green', async () => {
    const r = gateRepo(`[jobs]\nlint = "mkdir -p .cache && echo cached > .cache/lint.json"\n`, {
      '.gitignore': '.cache/\n',
    });
    const res = await done(r.root);
    assert.equal(res.ok, true, show(res));
  });
});

describe('timeouts that do not fire', () => {
  it('a job that reads standard input gets end-of-file, not a hang', async () => {
    const r = gateRepo(`[gate]\ntimeout = 5\n\n[jobs]\ntest = "cat > /dev/null"\n`);
    const res = await done(r.root);
    assert.equal(res.ok, true, show(res));
  });

  it("a job's timeout = 0 (no limit) overrides a short [gate] timeout", async () => {
    const r = gateRepo(`[gate]\ntimeout = 1\n\n[jobs.patient]\nstage = "test"\nrun = "sleep 1.1"\ntimeout = 0\n`);
    const res = await done(r.root);
    assert.equal(res.ok, true, show(res));
    assert.equal(step(res, 'patient').outcome, 'ok');
  });
});

describe('the gate leaves the tree as it found it', () => {
  it('a format job that rewrites a tracked file fails as tree_drift naming the stage and the file', async () => {
    const c = counter();
    const r = gateRepo(`[jobs]\nformat = "echo reformatted > src/a.txt"\ntest = "${counting(c)}"\n`, {
      'src/a.txt': 'original\n',
    });
    const res = await done(r.root);
    assert.equal(res.error, 'gate_failed', show(res));
    assert.equal(dataOf(res).failed_stage, 'tree_drift');
    assert.equal(step(res, 'format').outcome, 'ok');
    assert.equal(step(res, 'test').outcome, 'skipped');
    assert.equal(count(c), 0);
    const diag = (res.diagnostics ?? []).find((x) => x.file === 'src/a.txt');
    assert.ok(diag, show(res));
    assert.match(diag.message, /\bfix\b/, 'the stage is named');
    assert.equal(existsSync(markerPath(r.root)), false);
  });

  it('a check job that writes an untracked file fails as tree_drift', async () => {
    const r = gateRepo(`[jobs]\nlint = "echo cache > lint-cache.json"\n`);
    const res = await done(r.root);
    assert.equal(res.error, 'gate_failed', show(res));
    assert.equal(dataOf(res).failed_stage, 'tree_drift');
    assert.ok(
      (res.diagnostics ?? []).some((x) => x.file === 'lint-cache.json'),
      show(res),
    );
  });

  it('a generator that reproduces its committed paths is green', async () => {
    const r = gateRepo(
      `[jobs]\ntest = "true"\n\n[generated.types]\npaths = ["gen/**"]\nrun = "mkdir -p gen && echo v1 > gen/types.txt"\n`,
      { 'gen/types.txt': 'v1\n' },
    );
    const res = await done(r.root);
    assert.equal(res.ok, true, show(res));
    assert.equal(step(res, 'generated:types').outcome, 'ok');
  });

  it('a generator whose committed output is stale rewrites it and fails as tree_drift, naming the file', async () => {
    const r = gateRepo(
      `[jobs]\ntest = "true"\n\n[generated.types]\npaths = ["gen/**"]\nrun = "mkdir -p gen && echo v2 > gen/types.txt"\n`,
      { 'gen/types.txt': 'v1\n' },
    );
    const res = await done(r.root);
    assert.equal(res.error, 'gate_failed', show(res));
    assert.equal(dataOf(res).failed_stage, 'tree_drift');
    assert.deepEqual(
      (res.diagnostics ?? []).map((x) => x.file),
      ['gen/types.txt'],
    );
    assert.equal(step(res, 'test').outcome, 'skipped');
  });

  it('a generator that writes outside its [generated] paths fails as generated_drift', async () => {
    const r = gateRepo(
      `[jobs]\ntest = "true"\n\n[generated.types]\npaths = ["gen/**"]\nrun = "mkdir -p gen && echo v1 > gen/types.txt && echo stray > stray.txt"\n`,
      { 'gen/types.txt': 'v1\n' },
    );
    const res = await done(r.root);
    assert.equal(res.error, 'gate_failed', show(res));
    assert.equal(dataOf(res).failed_stage, 'generated_drift');
    const files = (res.diagnostics ?? []).map((x) => x.file);
    assert.deepEqual(files, ['stray.txt'], show(res));
  });
});

describe('standards', () => {
  it('measured standards: improved and held verdicts, pin targets, the last valid metric wins (stdout or stderr), per a metric, per files, scale, deferred', async () => {
    const c = counter();
    const r = gateRepo(
      `[jobs]
test = "true"

[standards.coverage]
direction = "up"
limit = 80
margin = 2
run = "echo 'DISCERN_METRIC coverage 50'; echo 'DISCERN_METRIC coverage 90  '; echo 'DISCERN_METRIC coverage 1e999'; echo 'DISCERN_METRIC coverage ninety'; echo 'DISCERN_METRIC  coverage 10'"

[standards.docs]
direction = "up"
limit = 80
margin = 5
metric = "documented"
per = "exported"
scale = 100
run = "echo 'DISCERN_METRIC documented 41'; echo 'DISCERN_METRIC exported 50'"

[standards.todo_density]
direction = "down"
limit = 1
per = { files = "src" }
run = "echo 'DISCERN_METRIC todo_density 2' >&2"

[standards.bench]
direction = "down"
limit = 100
measure = "on-demand"
run = "${counting(c)}; echo 'DISCERN_METRIC bench 1'"
`,
      { 'src/a.ts': 'a\n', 'src/b.ts': 'b\n', 'src/c.ts': 'c\n', 'src/d.ts': 'd\n' },
    );
    const res = await done(r.root);
    assert.equal(res.ok, true, show(res));
    const d = dataOf(res);
    const by = new Map((d.standards ?? []).map((s) => [s.name, s]));
    assert.deepEqual(pick(by.get('coverage')), {
      measurement: 'measured',
      value: 90,
      verdict: 'improved',
      pin_eligible: true,
      pin_target: 88,
    });
    assert.deepEqual(pick(by.get('docs')), {
      measurement: 'measured',
      value: 82,
      verdict: 'held',
      pin_eligible: false,
      pin_target: undefined,
    });
    assert.deepEqual(pick(by.get('todo_density')), {
      measurement: 'measured',
      value: 0.5,
      verdict: 'improved',
      pin_eligible: true,
      pin_target: 0.5,
    });
    assert.equal(by.get('bench')?.measurement, 'deferred');
    assert.equal(count(c), 0, 'an on-demand standard is not run by done');
    assert.equal(step(res, 'standard:coverage').kind, 'standard');
    assert.match(d.proof?.line ?? '', /coverage 90 ≥ 80/);
  });

  it('a regressed standard and a standard printing no metric fail the gate at standards', async () => {
    const r = gateRepo(
      `[gate]\nfail_fast = false\n\n[jobs]\ntest = "true"\n\n[standards.coverage]\ndirection = "up"\nlimit = 80\nrun = "echo 'DISCERN_METRIC coverage 70'"\n\n[standards.silent]\ndirection = "down"\nlimit = 5\nrun = "echo measured nothing"\n`,
    );
    const res = await done(r.root);
    assert.equal(res.error, 'gate_failed', show(res));
    const d = dataOf(res);
    assert.equal(d.failed_stage, 'standards');
    assert.equal(step(res, 'test').outcome, 'ok');
    assert.deepEqual(stepsWith(res, 'failed').sort(), ['standard:coverage', 'standard:silent']);
    const coverage = d.standards?.find((s) => s.name === 'coverage');
    assert.equal(coverage?.value, 70);
    assert.equal(coverage?.verdict, 'regressed');
    const messages = (res.diagnostics ?? []).map((x) => x.message).join('\n');
    assert.match(messages, /coverage regressed: measured 70/);
    assert.match(messages, /DISCERN_METRIC silent/);
  });

  it("a branch that loosens the trunk's limit fails at standards before any job runs", async () => {
    const c = counter();
    const size = `\n[standards.size]\ndirection = "down"\nlimit = 100\nrun = "echo 'DISCERN_METRIC size 5'"\n`;
    const r = gateRepo(
      `[jobs]\ntest = "${counting(c)}"\n\n[standards.coverage]\ndirection = "up"\nlimit = 80\nrun = "echo 'DISCERN_METRIC coverage 90'"\n${size}`,
    );
    const wt = addWorktree(r, 'agent/loosen');
    const toml = readFileSync(join(wt.root, 'discern.toml'), 'utf8');
    wt.write('discern.toml', toml.replace('limit = 80', 'limit = 70').replace(size, ''));
    wt.commit('loosen coverage');
    const res = await done(wt.root);
    assert.equal(res.error, 'gate_failed', show(res));
    const d = dataOf(res);
    assert.equal(d.failed_stage, 'standards');
    assert.equal(d.gate_ran, false);
    assert.equal(d.standards_limits?.status, 'loosened');
    assert.equal(d.standards_limits?.loosened?.length, 2, JSON.stringify(d.standards_limits));
    assert.match(JSON.stringify(d.standards_limits), /coverage/);
    assert.match(JSON.stringify(d.standards_limits), /size/);
    assert.ok(
      (res.diagnostics ?? []).every((x) => x.file === 'discern.toml'),
      show(res),
    );
    assert.equal(step(res, "no standard loosened against the trunk's config").outcome, 'failed');
    assert.equal(count(c), 0, 'no project job ran');
  });

  it('an unparseable trunk discern.toml fails the never-loosen check at standards', async () => {
    const c = counter();
    const good = `[jobs]\ntest = "${counting(c)}"\n`;
    const r = gateRepo(good);
    r.write('discern.toml', '[project\nname = broken\n');
    r.commit('break the trunk config');
    const wt = addWorktree(r, 'agent/repair');
    wt.write('discern.toml', `[project]\nname = "Gate"\n\n[repository]\ntrunk = "main"\n\n${good}`);
    wt.commit('repair the config on the branch');
    const res = await done(wt.root);
    assert.equal(res.error, 'gate_failed', show(res));
    assert.equal(dataOf(res).failed_stage, 'standards');
    assert.equal(dataOf(res).standards_limits?.status, 'parse_failed');
    assert.equal(count(c), 0);
  });

  it('a standard whose inputs are untouched is replayed on the next run; touching them measures again', async () => {
    const c = counter();
    const r = gateRepo(
      `[jobs]\ntest = "true"\n\n[standards.size]\ndirection = "down"\nlimit = 1000\ninputs = ["src/**"]\nrun = "${counting(c)}; echo 'DISCERN_METRIC size 10'"\n`,
      { 'src/a.ts': 'a\n' },
    );
    const first = await done(r.root);
    assert.equal(first.ok, true, show(first));
    assert.equal(dataOf(first).standards?.[0]?.measurement, 'measured');
    const measuredAt = head(r.root);
    assert.equal(count(c), 1);

    r.write('README.md', 'docs only\n');
    r.commit('outside the inputs');
    const second = await done(r.root);
    assert.equal(second.ok, true, show(second));
    const s = dataOf(second).standards?.[0];
    assert.equal(dataOf(second).gate_ran, true);
    assert.deepEqual(
      { measurement: s?.measurement, value: s?.value, replayed_from: s?.replayed_from },
      { measurement: 'replayed', value: 10, replayed_from: measuredAt },
    );
    assert.equal(count(c), 1, "the standard's command did not run again");

    r.write('src/a.ts', 'changed\n');
    r.commit('inside the inputs');
    const third = await done(r.root);
    assert.equal(third.ok, true, show(third));
    assert.equal(dataOf(third).standards?.[0]?.measurement, 'measured');
    assert.equal(count(c), 2);
  });
});

describe('preconditions', () => {
  it("a worktree branch without the trunk's newest commit fails the merge check before any job", async () => {
    const c = counter();
    const r = gateRepo(`[jobs]\ntest = "${counting(c)}"\n`);
    const wt = addWorktree(r, 'agent/behind');
    wt.write('feature.txt', 'feature\n');
    wt.commit('feature');
    r.write('trunk.txt', 'moved on\n');
    r.commit('trunk moves');
    const res = await done(wt.root);
    assert.equal(res.error, 'gate_failed', show(res));
    assert.equal(dataOf(res).failed_stage, 'merge');
    assert.equal(dataOf(res).gate_ran, false);
    assert.equal(res.diagnostics?.[0]?.reproduce_cmd, 'git merge-base --is-ancestor refs/heads/main HEAD');
    assert.match(res.message ?? '', /`discern update`/);
    assert.equal((res.steps ?? []).find((s) => s.kind === 'merge-check')?.outcome, 'failed');
    assert.equal(count(c), 0);

    const standalone = await done(wt.root, { standalone: true });
    assert.equal(standalone.ok, true, `standalone skips the merge check:\n${show(standalone)}`);
    assert.equal(
      (standalone.steps ?? []).some((s) => s.kind === 'merge-check'),
      false,
    );
    assert.equal(count(c), 1);

    wt.git('merge', '-q', '--no-edit', 'main');
    const merged = await done(wt.root);
    assert.equal(merged.ok, true, show(merged));
    assert.equal(count(c), 2);
  });

  it('a tracked file the ignore rules cover fails as tracked_artifacts', async () => {
    const c = counter();
    const r = gateRepo(`[jobs]\ntest = "${counting(c)}"\n`, { '.gitignore': 'dist/\n' });
    r.write('dist/out.js', 'built\n');
    r.git('add', '-f', 'dist/out.js');
    r.commit('commit the build output by mistake');
    const res = await done(r.root);
    assert.equal(res.error, 'gate_failed', show(res));
    assert.equal(dataOf(res).failed_stage, 'tracked_artifacts');
    assert.deepEqual(
      (res.diagnostics ?? []).map((x) => x.file),
      ['dist/out.js'],
    );
    assert.equal(count(c), 0);
  });

  it(
    'an unwritable state directory is write_denied and nothing runs',
    { skip: isRoot() ? 'root ignores directory permissions' : false },
    async () => {
      const c = counter();
      const r = gateRepo(`[jobs]\ntest = "${counting(c)}"\n`);
      const state = join(gitDir(r.root), 'discern');
      mkdirSync(state, { recursive: true });
      rememberLocked(state);
      chmodSync(state, 0o555);
      try {
        const res = await done(r.root);
        assert.equal(res.error, 'write_denied', show(res));
        assert.equal(count(c), 0);
      } finally {
        chmodSync(state, 0o755);
      }
    },
  );

  it('a state directory that is not a directory is write_denied, not a crash', async () => {
    const c = counter();
    const r = gateRepo(`[jobs]\ntest = "${counting(c)}"\n`);
    const state = join(gitDir(r.root), 'discern');
    rmSync(state, { recursive: true, force: true });
    writeFileSync(state, 'not a directory\n');
    const res = await done(r.root);
    assert.equal(res.error, 'write_denied', show(res));
    assert.equal(dataOf(res).failed_stage, 'write_denied');
    assert.equal(count(c), 0);
  });
});

describe('plans and modes', () => {
  it('dry_run returns the plan with preconditions and jobs, runs nothing and records nothing', async () => {
    const c = counter();
    const r = gateRepo(`[jobs]\nlint = "${counting(c, 'lint')}"\ntest = "${counting(c, 'test')}"\n`);
    const res = await done(r.root, { dry_run: true });
    assert.equal(res.ok, true, show(res));
    assert.equal(res.dry_run, true);
    assert.equal(res.steps, undefined, 'a plan, not steps');
    const plan = res.plan?.steps ?? [];
    assert.ok(
      plan.some((s) => s.kind === 'tracked-artifacts-check' && s.disposition === 'gate'),
      JSON.stringify(plan),
    );
    assert.ok(plan.some((s) => s.kind === 'standards-limits-check' && s.disposition === 'gate'));
    assert.deepEqual(
      plan
        .filter((s) => s.disposition === 'run')
        .map((s) => s.label)
        .sort(),
      ['lint', 'test'],
    );
    assert.equal(count(c), 0);
    assert.equal(existsSync(markerPath(r.root)), false);
    assert.equal(dataOf(res).gate_ran, false);
    // Nothing was recorded, so the real run still runs.
    assert.equal(dataOf(await done(r.root)).gate_ran, true);
    assert.equal(count(c), 2);
  });

  it('a dry run in a linked worktree plans the merge check against the trunk', async () => {
    const r = gateRepo(`[jobs]\ntest = "true"\n`);
    const wt = addWorktree(r, 'agent/plan');
    const res = await done(wt.root, { dry_run: true });
    assert.equal(res.ok, true, show(res));
    const merge = res.plan?.steps.find((s) => s.kind === 'merge-check');
    assert.ok(merge, show(res));
    assert.equal(merge.disposition, 'gate');
    assert.match(merge.note ?? '', /main/);
  });

  it('ci: true reports: mode report, a report-only marker, a diagnostic completion', async () => {
    const c = counter();
    const r = gateRepo(`[jobs]\ntest = "${counting(c)}"\n`);
    const res = await done(r.root, { ci: true });
    assert.equal(res.ok, true, show(res));
    const d = dataOf(res);
    assert.equal(d.mode, 'report');
    assert.equal(d.completion?.kind, 'diagnostic');
    assert.equal(d.gate_proof?.status, 'diagnostic');
    assert.equal((JSON.parse(readFileSync(markerPath(r.root), 'utf8')) as { mode: string }).mode, 'report');
    assert.equal(count(c), 1);
  });

  it('a scope gate runs only when the change against the trunk touches its scope', async () => {
    const c = counter();
    const r = gateRepo(`[jobs]\ntest = "true"\n\n[scopes.docs]\npaths = ["docs/**"]\ngate = "${counting(c)}"\n`);
    const wt = addWorktree(r, 'agent/scoped');
    wt.write('src/code.ts', 'code\n');
    wt.commit('code only');
    const code = await done(wt.root);
    assert.equal(code.ok, true, show(code));
    assert.deepEqual(dataOf(code).scopes_changed, []);
    assert.equal(
      (code.steps ?? []).some((s) => s.label === 'scope:docs'),
      false,
    );
    assert.equal(count(c), 0);

    wt.write('docs/guide.md', '# guide\n');
    wt.commit('docs');
    const docs = await done(wt.root);
    assert.equal(docs.ok, true, show(docs));
    assert.deepEqual(dataOf(docs).scopes_changed, ['docs']);
    assert.equal(step(docs, 'scope:docs').outcome, 'ok');
    assert.equal(step(docs, 'scope:docs').kind, 'scope-gate');
    assert.match(
      dataOf(docs).proof?.line ?? '',
      /^discern Proof: agent\/scoped @ [0-9a-f]{12} — gate green \(test, scope:docs\) — 2 files, \+2 −0 against main$/,
    );
    assert.equal(count(c), 1);
  });
});

describe('[gate] concurrency', () => {
  const timed = (file: string, name: string, seconds = 0.2): string =>
    `echo start ${name} $(date +%s%N) >> ${file}; sleep ${seconds}; echo end ${name} $(date +%s%N) >> ${file}`;
  const intervals = (file: string): [number, number][] => {
    const at = new Map<string, { start?: number; end?: number }>();
    for (const line of lines(file)) {
      const [edge, name, ns] = line.split(' ');
      const entry = at.get(name ?? '') ?? {};
      entry[edge === 'start' ? 'start' : 'end'] = Number(BigInt(ns ?? '0') / 1000n) / 1000;
      at.set(name ?? '', entry);
    }
    return [...at.values()].map((e) => [e.start ?? NaN, e.end ?? NaN] as [number, number]).sort((a, b) => a[0] - b[0]);
  };
  const overlaps = (spans: [number, number][]): boolean =>
    spans.some((s, i) => i > 0 && s[0] < (spans[i - 1]?.[1] ?? 0));

  it('concurrency = 1 runs a parallel stage one job at a time', async () => {
    const t = counter('times');
    const r = gateRepo(
      `[gate]\nconcurrency = 1\n\n[jobs]\nlint = "${timed(t, 'lint')}"\ntypecheck = "${timed(t, 'typecheck')}"\ntest = "${timed(t, 'test')}"\n`,
    );
    const res = await done(r.root);
    assert.equal(res.ok, true, show(res));
    const spans = intervals(t);
    assert.equal(spans.length, 3);
    assert.equal(overlaps(spans), false, JSON.stringify(spans));
  });

  it(
    'the default concurrency runs them side by side',
    { skip: availableParallelism() < 2 ? 'one core: the default is 1' : false },
    async () => {
      const t = counter('times');
      const r = gateRepo(`[jobs]\nlint = "${timed(t, 'lint', 0.5)}"\ntest = "${timed(t, 'test', 0.5)}"\n`);
      const res = await done(r.root);
      assert.equal(res.ok, true, show(res));
      assert.equal(overlaps(intervals(t)), true, JSON.stringify(intervals(t)));
    },
  );
});

describe('attempts in the same checkout', () => {
  it('a second done while one runs is incomplete, naming the running attempt; the first still records Proof', async () => {
    const dir = outsideDir();
    const started = join(dir, 'started');
    const go = join(dir, 'release');
    const r = gateRepo(`[jobs]\ntest = "${heldJob(started, go)}"\n`);
    const first = startCli(['done', '--json'], r.root);
    await waitFor('the first done to start its job', () => existsSync(started));
    const res = await done(r.root);
    assert.equal(res.error, 'incomplete', show(res));
    const d = dataOf(res);
    assert.equal(d.gate_ran, false);
    assert.equal(d.failed_stage, null);
    assert.equal(d.completion?.kind, 'pending');
    const pending = d.completion?.pending?.[0];
    assert.ok(pending, show(res));
    assert.equal(pending.kind, 'attempt');
    assert.match(pending.handle ?? '', R1_HANDLE);
    assert.ok(Date.parse(pending.expires_at ?? '') > Date.now(), `expires_at in the future: ${pending.expires_at}`);
    assert.ok(
      (res.hints?.at(-1) ?? '').includes(`discern_progress with handle "${pending.handle ?? ''}"`),
      res.hints?.at(-1),
    );

    release(go);
    const run = await first.result;
    assert.equal(run.code, 0, run.stdout + run.stderr);
    const result = JSON.parse(run.stdout) as { ok: boolean; data: DiscernDoneData };
    assert.equal(result.ok, true);
    assert.equal(result.data.handle, pending.handle, 'the pending row names the running attempt');
    assert.ok(existsSync(markerPath(r.root)), 'the first attempt recorded its Proof');
  });

  it("a killed attempt's claim is taken over at once by the next done", async () => {
    const dir = outsideDir();
    const c = counter();
    const flag = join(dir, 'first');
    const pidFile = join(dir, 'job.pid');
    const r = gateRepo(
      `[jobs]\ntest = "if [ -f ${flag} ]; then ${counting(c)}; else touch ${flag}; echo $$ > ${pidFile}; exec sleep 30; fi"\n`,
    );
    const first = startCli(['done', '--json'], r.root);
    const jobPid = await pidFrom(pidFile);
    first.child.kill('SIGKILL');
    await first.result;
    killJob(jobPid);
    const started = Date.now();
    const res = await done(r.root);
    assert.equal(res.ok, true, show(res));
    assert.equal(dataOf(res).gate_ran, true);
    assert.equal(count(c), 1);
    assert.ok(Date.now() - started < 20_000, 'no lease wait when the holder is gone');
  });
});

it('done was driven through success and failure', () => {
  assertDriven(['done']);
});

function pick(
  s: { measurement: string; value?: number; verdict?: string; pin_eligible?: boolean; pin_target?: number } | undefined,
): Record<string, unknown> {
  return {
    measurement: s?.measurement,
    value: s?.value,
    verdict: s?.verdict,
    pin_eligible: s?.pin_eligible,
    pin_target: s?.pin_target,
  };
}
