// A ci report is kept as a report-only marker: current for its commit, but it cannot authorize a landing because
// checkpoint review was not enforced. status shows it as report_only, accept refuses it with report_only_proof,
// done without ci runs the gate rather than reuse it, and a report never replaces a strict Proof of the commit.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import type { DiscernDoneData, DiscernStatusData } from '../../generated/types.js';
import { call } from '../helpers/drive.js';
import { effort, trackedRepo } from '../helpers/efforts.js';
import { cleanupGate, count, counter } from '../helpers/gate-repo.js';
import type { ScratchRepo } from '../helpers/scratch-repo.js';

const repos: ScratchRepo[] = [];
after(() => {
  repos.forEach((r) => r.cleanup());
  cleanupGate();
});

function show(value: unknown): string {
  return JSON.stringify(value, null, 2);
}

function markerMode(gitDir: string): string {
  return (JSON.parse(readFileSync(join(gitDir, 'discern', 'gate-proof'), 'utf8')) as { mode: string }).mode;
}

describe('report-only Proof', () => {
  it('a ci report is report_only in status, refused by accept, and replaced by done without ci', async () => {
    const ran = counter('report');
    const r = trackedRepo(repos, `\n[jobs.witness]\nstage = "check"\nrun = "echo ran >> '${ran}'"\n`);
    const w = await effort(r, 'reported', 'src/app.txt', 'code\n', false);
    const gitDir = w.git('rev-parse', '--absolute-git-dir').trim();

    const report = await call('done', { ci: true }, w.path);
    assert.ok(report.ok, show(report));
    const reported = report.data as DiscernDoneData;
    assert.equal(reported.mode, 'report');
    assert.match(reported.gate_proof?.reason ?? '', /report-only/);
    assert.equal(markerMode(gitDir), 'report');

    const status = await call('status', {}, w.path);
    assert.equal((status.data as DiscernStatusData).gate_proof?.status, 'report_only', show(status.data));
    const fleet = (await call('status', {}, r.root)).data as DiscernStatusData;
    const row = fleet.fleet?.find((f) => f.path === w.path);
    assert.equal(row?.gate_proof?.status, 'report_only', show(fleet.fleet));

    const refused = await call('accept', { confirmed: true }, w.path);
    assert.equal(refused.ok, false);
    assert.equal(refused.error, 'report_only_proof', show(refused));
    assert.match(refused.message ?? '', /report mode \(ci\)/);
    assert.match(refused.hints.at(-1) ?? '', /discern_done|discern done/);
    assert.notEqual(r.git('rev-parse', 'main').trim(), w.git('rev-parse', 'HEAD').trim(), 'nothing landed');

    const before = count(ran);
    const strict = await call('done', {}, w.path);
    assert.ok(strict.ok, show(strict));
    assert.equal((strict.data as DiscernDoneData).gate_ran, true, 'a report is never reused as Proof');
    assert.equal(count(ran), before + 1);
    assert.equal(markerMode(gitDir), 'strict');

    // A later report of the same commit keeps the strict Proof.
    const again = await call('done', { ci: true }, w.path);
    assert.ok(again.ok, show(again));
    assert.match((again.data as DiscernDoneData).gate_proof?.reason ?? '', /strict Proof stands/);
    assert.equal(markerMode(gitDir), 'strict');

    const landed = await call('accept', { confirmed: true }, w.path);
    assert.ok(landed.ok, show(landed));
  });
});
