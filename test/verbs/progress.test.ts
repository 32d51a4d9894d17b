// progress on real runs: this checkout's latest operation without a handle, an empty store, another worktree's
// handle refused by name, malformed and checksum-broken handles, a valid handle this repository never issued,
// producer counts and failures from DISCERN_PROGRESS lines (invalid lines ignored whole), the retained result,
// a run read while it is running, and a run whose process was killed mid-way (executor gone, no outcome).
import { describe, it, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { DiscernProgressRecord, DiscernTestData } from '../../generated/types.js';
import { runCli } from '../helpers/cli.js';
import { assertDriven, call } from '../helpers/drive.js';
import {
  R1_HANDLE,
  addWorktree,
  cleanupGate,
  envelope,
  gateRepo,
  killJob,
  outsideDir,
  pidFrom,
  sleep,
  startCli,
  type Envelope,
} from '../helpers/gate-repo.js';

after(cleanupGate);

function show(result: Envelope): string {
  return JSON.stringify(result, null, 2);
}

async function progress(root: string, handle?: string): Promise<Envelope> {
  return envelope(await call('progress', handle === undefined ? {} : { handle }, root));
}

function progressData(result: Envelope): DiscernProgressRecord {
  assert.equal(result.ok, true, show(result));
  return result.data as DiscernProgressRecord;
}

async function testRun(root: string): Promise<{ result: Envelope; handle: string }> {
  const result = envelope(await call('test', {}, root));
  const handle = (result.data as DiscernTestData | undefined)?.handle ?? '';
  assert.match(handle, R1_HANDLE, show(result));
  return { result, handle };
}

const PROGRESS_LINES = [
  `echo 'DISCERN_PROGRESS {"units":{"kind":"tests","completed":3,"total":4},"results":{"passed":3,"failed":1},"active":["suite b"],"elapsed_ms":120}'`,
  // Invalid, each ignored whole: a negative count, a line that is not JSON, a failure without its message.
  `echo 'DISCERN_PROGRESS {"units":{"kind":"tests","completed":-1,"total":4},"results":{"passed":99}}'`,
  `echo 'DISCERN_PROGRESS not json at all'`,
  // Valid, but over 16 KiB: dropped before it is parsed.
  `printf 'DISCERN_PROGRESS {"units":{"kind":"tests","completed":4,"total":4},"pad":"%s"}\\n' "$(head -c 17408 /dev/zero | tr '\\0' x)"`,
  `echo 'DISCERN_PROGRESS {"failure":{"name":"no message"}}' >&2`,
  `echo 'DISCERN_PROGRESS {"failure":{"name":"adds","message":"expected 2, got 3","file":"tests/add.test.ts","line":42,"reproduce":"npm test -- --grep adds"}}' >&2`,
  'exit 1',
].join('; ');

describe('progress', () => {
  const partial = `echo 'DISCERN_PROGRESS {"units":{"kind":"cases","completed":1,"total":null},"partial":true}'; echo 'DISCERN_PROGRESS {"units":{"kind":"cases","completed":2}}'`;
  const r = gateRepo(`[gate]\nfail_fast = false\n\n[jobs]\ntest = '''${PROGRESS_LINES}'''\nsmoke = '''${partial}'''\n`);
  let failedHandle = '';

  it('with an empty store, reading the latest is unknown_target', async () => {
    const res = await progress(r.root);
    assert.equal(res.error, 'unknown_target', show(res));
  });

  it('reads producer counts and failures from DISCERN_PROGRESS lines, and the retained result', async () => {
    const { result, handle } = await testRun(r.root);
    failedHandle = handle;
    assert.equal(result.error, 'gate_failed');
    // The producer's own failure fact becomes the diagnostic, with its place and focused reproduce command.
    const diag = result.diagnostics?.[0];
    assert.deepEqual(
      { tool: diag?.tool, rule: diag?.rule, file: diag?.file, line: diag?.line, reproduce_cmd: diag?.reproduce_cmd },
      { tool: 'test', rule: 'adds', file: 'tests/add.test.ts', line: 42, reproduce_cmd: 'npm test -- --grep adds' },
    );

    const p = progressData(await progress(r.root, handle));
    assert.equal(p.handle, handle);
    assert.equal(p.operation.verb, 'test');
    assert.equal(p.operation.path, r.root);
    assert.equal(p.operation.branch, 'main');
    assert.ok(p.operation.finished_at, 'finished');
    assert.equal(p.outcome, 'failed');
    const producer = p.producers.find((x) => x.producer === 'test');
    assert.ok(producer, show(envelope({ data: p })));
    assert.deepEqual(
      producer.units,
      { kind: 'tests', completed: 3, total: 4 },
      'the invalid line (completed -1) and the oversized line were ignored whole',
    );
    assert.deepEqual(producer.results, { passed: 3, failed: 1 });
    assert.deepEqual(producer.active, ['suite b']);
    assert.equal(producer.elapsed_ms, 120);
    assert.equal(producer.partial, false);
    assert.equal(producer.state, 'failed');
    const smoke = p.producers.find((x) => x.producer === 'smoke');
    assert.deepEqual(
      smoke?.units,
      { kind: 'cases', completed: 2, total: null },
      'an omitted total is an unknown total',
    );
    assert.equal(smoke?.partial, true, 'once reported, partial stays');
    assert.equal(smoke?.state, 'ok');
    assert.deepEqual(
      p.failures.map((f) => ({
        producer: f.producer,
        name: f.name,
        message: f.message,
        file: f.file,
        line: f.line,
        reproduce_cmd: f.reproduce_cmd,
      })),
      [
        {
          producer: 'test',
          name: 'adds',
          message: 'expected 2, got 3',
          file: 'tests/add.test.ts',
          line: 42,
          reproduce_cmd: 'npm test -- --grep adds',
        },
      ],
    );
    const retained = p.result as { ok?: boolean; error?: string; verb?: string } | undefined;
    assert.deepEqual(
      { ok: retained?.ok, error: retained?.error, verb: retained?.verb },
      { ok: false, error: 'gate_failed', verb: 'test' },
    );
    assert.ok(p.account.length > 0);
  });

  it("without a handle it reads this checkout's latest operation", async () => {
    const green = gateRepo(`[jobs]\ntest = "true"\n`);
    const first = await testRun(green.root);
    const second = await testRun(green.root);
    assert.notEqual(first.handle, second.handle);
    const p = progressData(await progress(green.root));
    assert.equal(p.handle, second.handle);
    assert.equal(p.outcome, 'completed');
    assert.equal((p.result as { ok?: boolean } | undefined)?.ok, true);
  });

  it("a finished run's current state no longer says it is running", async () => {
    const green = gateRepo(`[jobs]\ntest = "true"\n`);
    const { handle } = await testRun(green.root);
    const p = progressData(await progress(green.root, handle));
    assert.equal(p.outcome, 'completed');
    assert.notEqual(p.progress.state, 'running', `finished, yet: ${JSON.stringify(p.progress)}`);
    assert.doesNotMatch(p.progress.next ?? '', /starts when these finish/);
  });

  it("another worktree's operation is refused, naming that checkout", async () => {
    const wt = addWorktree(r, 'agent/other');
    const theirs = await testRun(wt.root);
    const res = await progress(r.root, theirs.handle);
    assert.equal(res.error, 'invalid_value', show(res));
    assert.ok((res.message ?? '').includes(wt.root), res.message);
    assert.match(res.message ?? '', /agent\/other/);
    // From its own checkout it reads fine, and there it is the latest.
    assert.equal(progressData(await progress(wt.root, theirs.handle)).handle, theirs.handle);
    assert.equal(progressData(await progress(wt.root)).handle, theirs.handle);
    // The main checkout's own latest is still its own.
    assert.equal(progressData(await progress(r.root)).handle, failedHandle);
  });

  it('a malformed handle is invalid_value', async () => {
    for (const handle of ['R1-XYZ', 'C1-0000-0000-00', 'not a handle']) {
      const res = await progress(r.root, handle);
      assert.equal(res.error, 'invalid_value', `${handle}: ${show(res)}`);
    }
  });

  it('a handle with one mistyped symbol fails its checksum: invalid_value', async () => {
    const symbols = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
    const at = 4; // the second payload symbol
    const original = failedHandle.charAt(at);
    const replacement = symbols.charAt((symbols.indexOf(original) + 1) % symbols.length);
    const broken = `${failedHandle.slice(0, at)}${replacement}${failedHandle.slice(at + 1)}`;
    const res = await progress(r.root, broken);
    assert.equal(res.error, 'invalid_value', show(res));
    // Case and dashes do not matter; the intact handle in lower case reads back.
    assert.equal(
      progressData(await progress(r.root, failedHandle.toLowerCase().replace(/-/g, ''))).handle,
      failedHandle,
    );
  });

  it('a valid handle this repository never issued is unknown_target', async () => {
    const elsewhere = gateRepo(`[jobs]\ntest = "true"\n`);
    const { handle } = await testRun(elsewhere.root);
    const res = await progress(r.root, handle);
    assert.equal(res.error, 'unknown_target', show(res));
  });
});

describe('a run read back while it runs, and after its process was killed', () => {
  it('shows a running executor, then gone with no outcome', async () => {
    const dir = outsideDir();
    const pidFile = join(dir, 'job.pid');
    const r = gateRepo(
      `[jobs]\ntest = '''echo 'DISCERN_PROGRESS {"units":{"kind":"files","completed":1,"total":null}}'; echo 'DISCERN_PROGRESS {"failure":{"name":"early","message":"broke early"}}'; echo $$ > ${pidFile}; exec sleep 30'''\n`,
    );
    const run = startCli(['test', '--json'], r.root);
    const jobPid = await pidFrom(pidFile);
    let live: DiscernProgressRecord | undefined;
    const deadline = Date.now() + 5000;
    while (Date.now() < deadline) {
      live = progressData(await progress(r.root));
      if (live.producers.some((p) => p.units !== undefined) && live.failures.length > 0) break;
      await sleep(50);
    }
    assert.ok(live);
    assert.equal(live.executor, 'running');
    assert.equal(live.outcome, undefined);
    assert.equal(live.operation.finished_at, undefined);
    assert.deepEqual(live.producers.find((p) => p.producer === 'test')?.units, {
      kind: 'files',
      completed: 1,
      total: null,
    });
    assert.equal(live.failures[0]?.name, 'early');

    run.child.kill('SIGKILL');
    await run.result;
    killJob(jobPid);
    const p = progressData(await progress(r.root, live.handle));
    assert.equal(p.executor, 'gone');
    assert.equal(p.outcome, undefined, 'a gone executor with no outcome stopped without finishing');
    assert.equal(p.operation.finished_at, undefined);
    assert.equal(p.result, undefined);
    assert.equal(p.progress.state, 'stopped');
    assert.equal(p.failures[0]?.message, 'broke early', 'the facts established before it died are kept');
  });
});

describe('done runs read back', () => {
  it('a red done and a green done: their outcomes, accounts and retained results', async () => {
    const r = gateRepo(`[jobs]\ntest = "exit 1"\n`);
    const red = envelope(await call('done', {}, r.root));
    assert.equal(red.error, 'gate_failed');
    const redHandle = (red.data as { handle?: string }).handle ?? '';
    const p = progressData(await progress(r.root, redHandle));
    assert.equal(p.operation.verb, 'done');
    assert.equal(p.outcome, 'failed');
    assert.equal((p.result as { error?: string } | undefined)?.error, 'gate_failed');

    r.write('discern.toml', readFileSync(join(r.root, 'discern.toml'), 'utf8').replace('exit 1', 'true'));
    r.commit('fix the test');
    const green = envelope(await call('done', {}, r.root));
    assert.equal(green.ok, true, show(green));
    const line = (green.data as { proof?: { line: string } }).proof?.line ?? '';
    const q = progressData(await progress(r.root));
    assert.equal(q.handle, (green.data as { handle?: string }).handle);
    assert.equal(q.outcome, 'completed');
    assert.equal((q.result as { ok?: boolean } | undefined)?.ok, true);
    assert.ok(q.account.includes(line), `the account carries the Proof line: ${JSON.stringify(q.account)}`);
  });
});

describe("a red run's diagnostics, read back by progress", () => {
  // The failing unittest project of the diagnostics runner tests: one error and one failed assertion.
  const project = join(import.meta.dirname, '../fixtures/diagnostics/projects/python');
  const files = Object.fromEntries(
    ['calc/__init__.py', 'tests/test_calc.py'].map((f) => [f, readFileSync(join(project, f), 'utf8')]),
  );
  const command = 'python3 -m unittest discover -s tests';
  const expected = [
    ['test_calc.RatioTest.test_by_zero', 'tests/test_calc.py', 23, `${command} -k test_calc.RatioTest.test_by_zero`],
    ['test_calc.RatioTest.test_half', 'tests/test_calc.py', 20, `${command} -k test_calc.RatioTest.test_half`],
  ];

  it('unchanged_tree_rerun sends the caller to progress, which shows each failure with its place in every presentation', async () => {
    const r = gateRepo(`[jobs]\ntest = "${command}"\n`, { ...files, '.gitignore': '__pycache__/\n' });
    const red = envelope(await call('done', {}, r.root));
    assert.equal(red.error, 'gate_failed', show(red));
    const again = envelope(await call('done', {}, r.root));
    assert.equal(again.error, 'unchanged_tree_rerun', show(again));

    const p = progressData(await progress(r.root));
    assert.deepEqual(
      p.failures.map((f) => [f.name, f.file, f.line, f.reproduce_cmd]),
      expected,
    );
    assert.ok(p.failures.every((f) => f.producer === 'test' && f.message !== ''));

    const json = await runCli(['progress', '--json'], { cwd: r.root });
    const data = (JSON.parse(json.stdout) as { data: DiscernProgressRecord }).data;
    assert.deepEqual(data.failures, p.failures);
    for (const args of [['progress', '--markdown'], ['progress']]) {
      const run = await runCli(args, { cwd: r.root });
      assert.equal(run.code, 0, run.stderr);
      assert.match(run.stdout, /Failures\n/, run.stdout);
      for (const [name, file, line, reproduce] of expected) {
        const row = run.stdout.split('\n').find((l) => l.includes(String(name))) ?? '';
        assert.ok(
          row.includes(`${String(file)}:${String(line)}`),
          `${args.join(' ')} shows ${String(name)} at its line:\n${run.stdout}`,
        );
        assert.ok(
          run.stdout.includes(String(reproduce)),
          `${args.join(' ')} shows ${String(reproduce)}:\n${run.stdout}`,
        );
      }
    }
  });
});

describe('records that are large or damaged', () => {
  it('an oversized result is reduced in the record and kept whole at result_path', async () => {
    const loop = `M=$(head -c 4000 /dev/zero | tr '\\0' m); i=0; while [ $i -lt 120 ]; do printf 'DISCERN_PROGRESS {"failure":{"name":"case %d","message":"%s"}}\\n' $i "$M"; i=$((i+1)); done; exit 1`;
    const r = gateRepo(`[jobs]\ntest = '''${loop}'''\n`);
    const { result, handle } = await testRun(r.root);
    assert.equal(result.error, 'gate_failed');
    const shown = result.diagnostics?.length ?? 0;
    assert.ok(shown >= 70, `the reported failures are diagnostics (${shown})`);
    const p = progressData(await progress(r.root, handle));
    assert.equal(p.result_truncated, true, show(envelope({ data: { ...p, result: '…' } })));
    assert.ok(p.result_path && existsSync(p.result_path), 'the complete result is on disk');
    const whole = JSON.parse(readFileSync(p.result_path, 'utf8')) as { error?: string; diagnostics?: unknown[] };
    assert.equal(whole.error, 'gate_failed');
    assert.equal(whole.diagnostics?.length, shown);
    assert.equal(
      (p.result as { error?: string } | undefined)?.error,
      'gate_failed',
      'the reduced result still says what happened',
    );
  });

  it('a damaged record is read_failed', async () => {
    const r = gateRepo(`[jobs]\ntest = "true"\n`);
    const { handle } = await testRun(r.root);
    const p = progressData(await progress(r.root, handle));
    writeFileSync(p.record_path, '{"half a record');
    const res = await progress(r.root, handle);
    assert.equal(res.error, 'read_failed', show(res));
  });
});

it('progress was driven through success and failure', () => {
  assertDriven(['progress']);
});
