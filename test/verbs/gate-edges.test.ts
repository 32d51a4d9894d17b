// Edge cases of the gate found by reading its behaviour closely: a replayed standard judged against a tightened
// limit, a cancelled run's journal account, the last stage's timing closing with the run, reused Proof keeping
// its scopes, doctor seeing the globs the gate rejects, progress answering an unknown handle with recent ones,
// and prepare keeping a check's writes out of changed_by_fix.
import { describe, it, after } from 'node:test';
import assert from 'node:assert/strict';
import type {
  DiscernDoneData,
  DiscernLookupMiss,
  DiscernPrepareData,
  DiscernProgressRecord,
} from '../../generated/types.js';
import { call } from '../helpers/drive.js';
import {
  cleanupGate,
  count,
  counter,
  gateRepo,
  outsideDir,
  pidFrom,
  processAlive,
  startCli,
  waitFor,
} from '../helpers/gate-repo.js';
import { join } from 'node:path';

after(cleanupGate);

describe("done: standards replayed against today's limit", () => {
  it('a replayed value that no longer clears a tightened floor fails the gate as standards', async () => {
    const runs = counter();
    const r = gateRepo(
      `[jobs]\ntest = "true"\n\n[standards.coverage]\ndirection = "up"\nlimit = 80\nrun = "echo x >> ${runs}; echo 'DISCERN_METRIC coverage 90'"\ninputs = ["src/**"]\n`,
      { 'src/a.js': 'a\n' },
    );
    const green = await call('done', {}, r.root);
    assert.equal(green.ok, true, JSON.stringify(green));
    r.write(
      'discern.toml',
      (await import('node:fs')).readFileSync(join(r.root, 'discern.toml'), 'utf8').replace('limit = 80', 'limit = 95'),
    );
    r.commit('tighten the floor');
    const red = await call('done', {}, r.root);
    assert.equal(red.error, 'gate_failed', JSON.stringify(red));
    const data = red.data as DiscernDoneData;
    assert.equal(data.failed_stage, 'standards');
    assert.deepEqual(
      data.standards?.map((s) => [s.measurement, s.verdict]),
      [['replayed', 'regressed']],
    );
    assert.match(
      red.diagnostics?.[0]?.message ?? '',
      /coverage regressed: its last green value 90 \(replayed; its inputs are unchanged\) is below the floor 95/,
    );
    assert.equal(count(runs), 1, 'the standard was not run again');
  });
});

describe('done: the journal of a cancelled run', () => {
  it('says it was cancelled, and its last stage interval is closed', async () => {
    const dir = outsideDir();
    const r = gateRepo(`[jobs]\ntest = "sleep 30 & echo $! > ${join(dir, 'pid')}; wait"\n`);
    const run = startCli(['done', '--json'], r.root);
    const sleeper = await pidFrom(join(dir, 'pid'));
    run.child.kill('SIGINT');
    await run.result;
    await waitFor('the job to stop', () => !processAlive(sleeper));
    const read = await call('progress', {}, r.root);
    const data = read.data as DiscernProgressRecord;
    assert.equal(data.outcome, 'cancelled');
    assert.deepEqual(data.account, ['The run was cancelled; its jobs were stopped.']);
    assert.equal(data.progress.phase, 'finished');
    assert.ok(
      data.timings.every((t) => t.finished_at !== undefined),
      JSON.stringify(data.timings),
    );
    assert.equal((data.result as { error?: string }).error, 'apply_failed');
  });
  it('a finished green run closes every interval too', async () => {
    const r = gateRepo('[jobs]\nlint = "true"\ntest = "true"\n');
    assert.equal((await call('done', {}, r.root)).ok, true);
    const data = (await call('progress', {}, r.root)).data as DiscernProgressRecord;
    assert.ok(data.timings.length >= 2);
    assert.ok(
      data.timings.every((t) => t.finished_at !== undefined),
      JSON.stringify(data.timings),
    );
  });
});

describe('done: reused Proof', () => {
  it('keeps the scopes the proven change activated', async () => {
    const r = gateRepo('[jobs]\ntest = "true"\n\n[scopes.docs]\npaths = ["docs/**"]\n');
    r.git('checkout', '-q', '-b', 'agent/docs');
    r.write('docs/a.md', '# a\n');
    r.commit('docs');
    const first = (await call('done', {}, r.root)).data as DiscernDoneData;
    assert.deepEqual(first.scopes_changed, ['docs']);
    const again = (await call('done', {}, r.root)).data as DiscernDoneData;
    assert.equal(again.gate_ran, false);
    assert.deepEqual(again.scopes_changed, ['docs']);
  });
});

describe('doctor sees every glob the gate compiles', () => {
  it('a [generated] path or a [standards] input that cannot be compiled fails doctor as it fails the gate', async () => {
    const r = gateRepo('[jobs]\ntest = "true"\n\n[generated.types]\npaths = ["gen/[x"]\nrun = "true"\n');
    const gate = await call('test', {}, r.root);
    assert.equal(gate.error, 'invalid_config');
    const doctor = await call('doctor', {}, r.root);
    assert.equal(doctor.error, 'invalid_config', JSON.stringify(doctor));
    assert.match(doctor.message ?? '', /generated\.types\.paths\.0/);
  });
  it('resolves the commands of generators, standards and scope gates', async () => {
    const r = gateRepo(
      '[jobs]\ntest = "true"\n\n[generated.types]\npaths = ["gen/**"]\nrun = "no-such-generator-anywhere"\n\n[standards.cov]\ndirection = "up"\nlimit = 1\nrun = "true"\n\n[scopes.docs]\npaths = ["docs/**"]\ngate = "true"\n',
    );
    const doctor = await call('doctor', {}, r.root);
    const checks = (doctor.data && 'checks' in doctor.data ? doctor.data.checks : []).flatMap((c) =>
      'name' in c ? [c] : [],
    );
    assert.deepEqual(
      checks.filter((c) => /^(generated|standard|scope):/.test(c.name)).map((c) => [c.name, c.status]),
      [
        ['generated:types', 'fail'],
        ['standard:cov', 'ok'],
        ['scope:docs', 'ok'],
      ],
    );
  });
});

describe('progress lookups', () => {
  it("an unknown handle is answered with this checkout's recent handles", async () => {
    const r = gateRepo('[jobs]\ntest = "true"\n');
    const tested = await call('test', {}, r.root);
    const handle = (tested.data as { handle: string }).handle;
    const miss = await call('progress', { handle: 'R1-7KQ2-M9XD-P8' }, r.root);
    assert.equal(miss.error, 'unknown_target');
    assert.deepEqual((miss.data as DiscernLookupMiss).suggestions, [handle]);
    const broken = await call(
      'progress',
      { handle: `${handle.slice(0, -1)}${handle.endsWith('0') ? '1' : '0'}` },
      r.root,
    );
    assert.equal(broken.error, 'invalid_value');
    assert.equal((broken.message ?? '').match(/not a valid/g)?.length, 1, broken.message);
  });
});

describe('prepare: what changed_by_fix lists', () => {
  it('a check that writes is drift, not a fix', async () => {
    const r = gateRepo('[jobs]\nformat = "printf \'b\\\\n\' > b.txt"\nlint = "echo junk > junk.txt"\n', {
      'b.txt': 'a\n',
    });
    const prepared = await call('prepare', {}, r.root);
    assert.equal(prepared.error, 'gate_failed');
    const data = prepared.data as DiscernPrepareData;
    assert.equal(data.failed_stage, 'tree_drift');
    assert.deepEqual(data.changed_by_fix, ['b.txt']);
  });
});
