// prepare and test on real scratch projects: prepare runs fix → [generated] → check on a dirty tree and lists
// what the fixers and generators rewrote, fails on a check, on a generator writing outside its paths and on a
// check that writes, refuses beside a running done, and never records Proof; test runs only the test stage
// (test, smoke, custom test jobs), announces an R1 handle that progress reads back, and with
// [gate] concurrent_test_runs = 1 a second run in another worktree waits for the slot.
import { describe, it, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { DiscernPrepareData, DiscernProgressRecord, DiscernTestData } from '../../generated/types.js';
import { assertDriven, call } from '../helpers/drive.js';
import {
  R1_HANDLE,
  addWorktree,
  cleanupGate,
  counter,
  envelope,
  gateRepo,
  gitDir,
  heldJob,
  lines,
  markerPath,
  outsideDir,
  release,
  sleep,
  startCli,
  step,
  stepsWith,
  waitFor,
  type Envelope,
} from '../helpers/gate-repo.js';

after(cleanupGate);

function show(result: Envelope): string {
  return JSON.stringify(result, null, 2);
}

async function prepare(root: string): Promise<Envelope> {
  return envelope(await call('prepare', {}, root));
}

async function test(root: string): Promise<Envelope> {
  return envelope(await call('test', {}, root));
}

function prepareData(result: Envelope): DiscernPrepareData {
  assert.ok(typeof result.data === 'object' && result.data !== null && 'failed_stage' in result.data, show(result));
  return result.data as DiscernPrepareData;
}

function testData(result: Envelope): DiscernTestData {
  assert.ok(typeof result.data === 'object' && result.data !== null && 'failed_stage' in result.data, show(result));
  return result.data as DiscernTestData;
}

const TSC_LINE = `src/a.ts(3,7): error TS2322: Type 'x' is not assignable to type 'y'.`;

describe('prepare', () => {
  it('runs fix, then [generated], then check on a dirty tree; lists what fixers and generators rewrote; no Proof', async () => {
    const c = counter();
    const r = gateRepo(
      `[jobs]
format = "echo formatted > src/a.txt; echo format >> ${c}"
build = "echo build >> ${c}"
lint = "echo lint >> ${c}"
test = "echo test >> ${c}"
smoke = "echo smoke >> ${c}"

[generated.types]
paths = ["gen/**"]
run = "mkdir -p gen && echo v2 > gen/types.txt && echo generated >> ${c}"

[standards.coverage]
direction = "up"
limit = 1
run = "echo standard >> ${c}; echo 'DISCERN_METRIC coverage 5'"
`,
      { 'src/a.txt': 'unformatted\n', 'gen/types.txt': 'v1\n' },
    );
    r.write('wip.txt', 'work in progress\n');
    r.write('README.md', 'edited, uncommitted\n');
    const res = await prepare(r.root);
    assert.equal(res.ok, true, show(res));
    const d = prepareData(res);
    assert.equal(d.failed_stage, null);
    assert.deepEqual(d.changed_by_fix, ['gen/types.txt', 'src/a.txt'], 'the files that were clean and were rewritten');
    assert.equal(d.changed_by_fix_total, 2);
    assert.deepEqual(
      lines(c),
      ['format', 'generated', 'lint'],
      'fix, then generated, then check; no build, tests or standards',
    );
    const labels = (res.steps ?? []).filter((s) => s.disposition === 'run').map((s) => s.label);
    assert.deepEqual(labels, ['format', 'generated:types', 'lint']);
    assert.equal(existsSync(markerPath(r.root)), false, 'prepare records no Proof');
    assert.match(res.hints?.join('\n') ?? '', /changed 2 files/);
  });

  it('a fixer that rewrites a file already being edited lists it in changed_by_fix', async () => {
    const r = gateRepo(`[jobs]\nformat = "echo formatted > src/a.txt"\n`, { 'src/a.txt': 'original\n' });
    r.write('src/a.txt', 'edited  by hand\n');
    const res = await prepare(r.root);
    assert.equal(res.ok, true, show(res));
    assert.deepEqual(prepareData(res).changed_by_fix, ['src/a.txt'], `the fixer rewrote src/a.txt:\n${show(res)}`);
  });

  it('a generator writing outside its [generated] paths fails as generated_drift', async () => {
    const r = gateRepo(
      `[jobs]\nlint = "true"\n\n[generated.types]\npaths = ["gen/**"]\nrun = "mkdir -p gen && echo v2 > gen/types.txt && echo oops > src-stray.txt"\n`,
      { 'gen/types.txt': 'v1\n' },
    );
    const res = await prepare(r.root);
    assert.equal(res.error, 'gate_failed', show(res));
    assert.equal(prepareData(res).failed_stage, 'generated_drift');
    assert.deepEqual(
      (res.diagnostics ?? []).map((x) => x.file),
      ['src-stray.txt'],
    );
    assert.equal(step(res, 'lint').outcome, 'skipped');
  });

  it('a failing check is gate_failed with its diagnostics', async () => {
    const lint = `echo "${TSC_LINE}"; exit 2`;
    const r = gateRepo(`[jobs]\nformat = "true"\nlint = '''${lint}'''\n`);
    r.write('src/a.ts', 'let x: y = 1;\n');
    const res = await prepare(r.root);
    assert.equal(res.error, 'gate_failed', show(res));
    assert.equal(prepareData(res).failed_stage, 'check');
    assert.match(res.message ?? '', /check stage/);
    const [first] = res.diagnostics ?? [];
    assert.deepEqual(
      {
        tool: first?.tool,
        file: first?.file,
        line: first?.line,
        col: first?.col,
        rule: first?.rule,
        reproduce_cmd: first?.reproduce_cmd,
      },
      { tool: 'lint', file: 'src/a.ts', line: 3, col: 7, rule: 'TS2322', reproduce_cmd: lint },
    );
    assert.equal(existsSync(markerPath(r.root)), false);
  });

  it('a check that writes fails as tree_drift', async () => {
    const r = gateRepo(`[jobs]\nlint = "echo cache > .lint-cache"\n`);
    const res = await prepare(r.root);
    assert.equal(res.error, 'gate_failed', show(res));
    assert.equal(prepareData(res).failed_stage, 'tree_drift');
    assert.deepEqual(
      (res.diagnostics ?? []).map((x) => x.file),
      ['.lint-cache'],
    );
  });

  it('refuses as incomplete while a done runs in the same checkout', async () => {
    const dir = outsideDir();
    const started = join(dir, 'started');
    const go = join(dir, 'release');
    const r = gateRepo(`[jobs]\ntest = "${heldJob(started, go)}"\n`);
    const running = startCli(['done', '--json'], r.root);
    await waitFor('done to start its job', () => existsSync(started));
    const res = await prepare(r.root);
    release(go);
    assert.equal(res.error, 'incomplete', show(res));
    assert.match(res.hints?.at(-1) ?? '', /discern_progress/);
    const finished = await running.result;
    assert.equal(finished.code, 0, finished.stdout);
  });

  it('an unusable state directory is write_denied, not a crash', async () => {
    const c = counter();
    const r = gateRepo(`[jobs]\nlint = "echo lint >> ${c}"\n`);
    const state = join(gitDir(r.root), 'discern');
    rmSync(state, { recursive: true, force: true });
    writeFileSync(state, 'not a directory\n');
    const res = await prepare(r.root);
    assert.equal(res.error, 'write_denied', show(res));
    assert.deepEqual(lines(c), []);
  });
});

describe('test', () => {
  it('runs only the test stage — test, smoke and custom test jobs — on a dirty tree, with a handle progress reads back', async () => {
    const c = counter();
    const r = gateRepo(`[jobs]
format = "echo format >> ${c}"
build = "echo build >> ${c}"
lint = "echo lint >> ${c}"
typecheck = "echo typecheck >> ${c}"
test = "echo test >> ${c}"
smoke = "echo smoke >> ${c}"

[jobs.e2e]
stage = "test"
run = "echo e2e >> ${c}"

[jobs.audit]
stage = "check"
run = "echo audit >> ${c}"

[standards.coverage]
direction = "up"
limit = 1
run = "echo standard >> ${c}; echo 'DISCERN_METRIC coverage 5'"
`);
    r.write('wip.txt', 'uncommitted\n');
    const res = await test(r.root);
    assert.equal(res.ok, true, show(res));
    const d = testData(res);
    assert.equal(d.failed_stage, null);
    assert.match(d.handle ?? '', R1_HANDLE);
    assert.deepEqual(lines(c).sort(), ['e2e', 'smoke', 'test']);
    assert.deepEqual(
      stepsWith(res, 'ok')
        .filter((l) => !l.includes(' '))
        .sort(),
      ['e2e', 'smoke', 'test'],
    );
    assert.equal(existsSync(markerPath(r.root)), false, 'test records no Proof');

    const back = envelope(await call('progress', { handle: d.handle }, r.root));
    assert.equal(back.ok, true, show(back));
    const p = back.data as DiscernProgressRecord;
    assert.equal(p.handle, d.handle);
    assert.equal(p.operation.verb, 'test');
    assert.equal(p.outcome, 'completed');
    assert.equal((p.result as { ok?: boolean } | undefined)?.ok, true);
  });

  it('a failing test job is gate_failed at test, and progress reads it back as failed', async () => {
    const r = gateRepo(`[jobs]\nlint = "exit 1"\ntest = "echo 'FAIL tests/a.test.ts'; exit 1"\n`);
    const res = await test(r.root);
    assert.equal(res.error, 'gate_failed', show(res));
    const d = testData(res);
    assert.equal(d.failed_stage, 'test');
    assert.equal(step(res, 'test').outcome, 'failed');
    assert.equal(
      (res.steps ?? []).some((s) => s.label === 'lint'),
      false,
      'the check job is not part of test',
    );
    assert.equal(res.diagnostics?.[0]?.reproduce_cmd, "echo 'FAIL tests/a.test.ts'; exit 1");
    const back = envelope(await call('progress', { handle: d.handle }, r.root));
    const p = back.data as DiscernProgressRecord;
    assert.equal(p.outcome, 'failed');
    assert.equal((p.result as { ok?: boolean; error?: string } | undefined)?.error, 'gate_failed');
  });

  it('with concurrent_test_runs = 1 a second run in another worktree waits for the slot', async () => {
    const dir = outsideDir();
    const started = join(dir, 'started');
    const go = join(dir, 'release');
    const r = gateRepo(`[gate]\nconcurrent_test_runs = 1\n\n[jobs]\ntest = "${heldJob(started, go)}"\n`);
    const wt = addWorktree(r, 'agent/second');
    const first = startCli(['test', '--json'], r.root);
    await waitFor('the first test run to hold the slot', () => existsSync(started));
    const second = startCli(['test', '--json'], wt.root);
    // Release the first run once the second is recorded as waiting for the slot (or after 1.5 s at most).
    const deadline = Date.now() + 1500;
    while (Date.now() < deadline) {
      const latest = envelope(await call('progress', {}, wt.root));
      if (latest.ok && (latest.data as DiscernProgressRecord).waits.length > 0) break;
      await sleep(50);
    }
    release(go);
    const [a, b] = await Promise.all([first.result, second.result]);
    assert.equal(a.code, 0, a.stdout + a.stderr);
    assert.equal(b.code, 0, b.stdout + b.stderr);
    const firstResult = JSON.parse(a.stdout) as { waited_ms?: number };
    const secondResult = JSON.parse(b.stdout) as { waited_ms?: number; data: DiscernTestData };
    assert.ok((secondResult.waited_ms ?? 0) > 0, `the second run waited: ${b.stdout}`);
    assert.ok((firstResult.waited_ms ?? 0) < (secondResult.waited_ms ?? 0));
    // Its record keeps the wait.
    const back = envelope(await call('progress', { handle: secondResult.data.handle }, wt.root));
    const p = back.data as DiscernProgressRecord;
    assert.ok(p.waits.length >= 1, show(back));
    assert.equal(p.waits[0]?.capacity, 1);
  });

  it('an unusable state directory is write_denied', async () => {
    const c = counter();
    const r = gateRepo(`[jobs]\ntest = "echo test >> ${c}"\n`);
    const state = join(gitDir(r.root), 'discern');
    rmSync(state, { recursive: true, force: true });
    writeFileSync(state, 'not a directory\n');
    const res = await test(r.root);
    assert.equal(res.error, 'write_denied', show(res));
    assert.deepEqual(lines(c), []);
  });
});

it('prepare and test were driven through success and failure', () => {
  assertDriven(['prepare', 'test']);
});
