// A change only in neutral scopes needs no gate run: done still checks the preconditions and records Proof with
// gate_ran false and gate_skipped { reason: "neutral" }, and accept lands it like any other Proof. Neutrality is
// judged with the trunk's [scopes]: a branch that declares its own paths neutral still runs every job.
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { DiscernDoneData } from '../../generated/types.js';
import { call } from '../helpers/drive.js';
import { effort, trackedRepo } from '../helpers/efforts.js';
import { cleanupGate, count, counter } from '../helpers/gate-repo.js';
import type { ScratchRepo } from '../helpers/scratch-repo.js';

const repos: ScratchRepo[] = [];
after(() => {
  repos.forEach((r) => r.cleanup());
  cleanupGate();
});

/** A project whose every job appends to `ran`, so a test can tell whether the gate ran. */
function project(ran: string): ScratchRepo {
  return trackedRepo(repos, `\n[jobs.witness]\nstage = "check"\nrun = "echo ran >> '${ran}'"\n`);
}

function doneData(result: Awaited<ReturnType<typeof call>>): DiscernDoneData {
  assert.ok(result.data && typeof result.data === 'object' && 'gate_ran' in result.data, JSON.stringify(result));
  return result.data;
}

describe('neutral changes', () => {
  it('a docs-only change is proven without running a job, and accept lands that Proof', async () => {
    const ran = counter('neutral');
    const r = project(ran);
    const w = await effort(r, 'docs-only', 'docs/guide.md', '# Guide\n', false);
    const done = await call('done', {}, w.path);
    assert.ok(done.ok, JSON.stringify(done, null, 2));
    const data = doneData(done);
    assert.equal(data.gate_ran, false);
    assert.deepEqual(data.gate_skipped, { reason: 'neutral', scopes: ['docs'] });
    assert.deepEqual(data.proof?.gate_skipped, { reason: 'neutral', scopes: ['docs'] });
    assert.match(data.proof?.line ?? '', /no job needed \(a neutral change: docs\)/);
    assert.equal(data.gate_proof?.status, 'recorded');
    assert.equal(count(ran), 0, 'no job ran');
    // The preconditions still ran: the steps name them, and nothing after them.
    const kinds = (done.steps ?? []).map((s) => s.kind);
    assert.ok(kinds.includes('merge-check') && kinds.includes('tracked-refresh-check'), JSON.stringify(done.steps));
    assert.ok(!(done.steps ?? []).some((s) => s.label.includes('witness')), JSON.stringify(done.steps));

    const head = w.git('rev-parse', 'HEAD').trim();
    const accepted = await call('accept', { confirmed: true }, w.path);
    assert.ok(accepted.ok, JSON.stringify(accepted, null, 2));
    assert.equal(r.git('rev-parse', 'main').trim(), head);
    assert.equal(count(ran), 0, 'accept took the Proof: no job ran');
  });

  it('a change that also touches code runs the gate', async () => {
    const ran = counter('mixed');
    const r = project(ran);
    const w = await effort(r, 'mixed', 'docs/guide.md', '# Guide\n', false);
    w.change('src/app.txt', 'code\n');
    const done = await call('done', {}, w.path);
    assert.ok(done.ok, JSON.stringify(done, null, 2));
    assert.equal(doneData(done).gate_ran, true);
    assert.equal(doneData(done).gate_skipped, undefined);
    assert.equal(count(ran), 1);
  });

  it('a path a gated scope also claims keeps its gate: the change is not neutral', async () => {
    const ran = counter('gated');
    const r = trackedRepo(repos, `\n[scopes.api-docs]\npaths = ["docs/api/**"]\ngate = "echo scoped >> '${ran}'"\n`);
    const w = await effort(r, 'api-docs', 'docs/api/orders.md', '# Orders\n', false);
    const done = await call('done', {}, w.path);
    assert.ok(done.ok, JSON.stringify(done, null, 2));
    assert.equal(doneData(done).gate_ran, true);
    assert.equal(doneData(done).gate_skipped, undefined);
    assert.equal(count(ran), 1, 'the scope gate ran');
  });

  it('a replace ref that hides code from the diff does not make the change neutral', async () => {
    const ran = counter('replaced');
    const r = project(ran);
    const w = await effort(r, 'replaced', 'src/app.txt', 'code\n', false);
    const codeCommit = w.git('rev-parse', 'HEAD').trim();
    w.change('docs/guide.md', '# Guide\n');
    // The merge-base, replaced by a commit whose tree already holds the code: git diff then shows only docs.
    const base = w.git('merge-base', 'main', 'HEAD').trim();
    const fake = w.git('commit-tree', `${codeCommit}^{tree}`, '-m', 'stand-in').trim();
    w.git('replace', base, fake);
    const done = await call('done', {}, w.path);
    const data = doneData(done);
    assert.equal(data.gate_skipped, undefined, JSON.stringify(done, null, 2));
    assert.equal(data.gate_ran, true, 'the jobs ran');
    assert.equal(count(ran), 1);
  });

  it("the trunk's scopes judge: a branch that declares its code neutral still runs every job", async () => {
    const ran = counter('self-declared');
    const r = project(ran);
    const w = await effort(r, 'self-declared', 'src/app.txt', 'code\n', false);
    const toml = join(w.path, 'discern.toml');
    writeFileSync(toml, `${readFileSync(toml, 'utf8')}\n[scopes.src]\npaths = ["src/**"]\nneutral = true\n`);
    w.git('commit', '-qam', 'call src neutral');
    const done = await call('done', {}, w.path);
    const data = doneData(done);
    assert.equal(data.gate_ran, true, JSON.stringify(done, null, 2));
    assert.equal(data.gate_skipped, undefined);
    assert.equal(count(ran), 1);
  });
});
