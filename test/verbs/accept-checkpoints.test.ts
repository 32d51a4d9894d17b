// accept and checkpoints on real efforts: an unmet stop declaration goes green at done but lands only with the
// owner's variance (recorded in the Proof note); declarations given to accept are recorded and the Proof replays
// with them; and when the trunk moved with a change that makes a stop checkpoint fire on the composed result, the
// composition is kept and a composition_receipt served, a wrong or stale receipt is refused, and the right one
// continues the same landing.
import { describe, it, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import type { DiscernAcceptData } from '../../generated/types.js';
import { parseProofNote } from '../../src/engine/notes/proof-note.js';
import { assertDriven, call } from '../helpers/drive.js';
import { BASE_CONFIG, effort, trackedRepo } from '../helpers/efforts.js';
import type { ScratchRepo } from '../helpers/scratch-repo.js';

const repos: ScratchRepo[] = [];
after(() => repos.forEach((r) => r.cleanup()));

const API_SCOPE = `\n[scopes.api]\npaths = ["src/api/**"]\n`;
const API_REVIEW = `\n[checkpoints.api-review]\nscope = "api"\nquestion = "Is the API change backwards compatible?"\n`;

function show(result: unknown): string {
  return JSON.stringify(result, null, 2);
}

function accepted(result: Awaited<ReturnType<typeof call>>): DiscernAcceptData {
  assert.ok(result.verb === 'accept' && result.data && !('issues' in result.data), show(result));
  return result.data;
}

function trunk(r: ScratchRepo): string {
  return r.git('rev-parse', 'main').trim();
}

interface Work {
  id: string;
  path: string;
  commit(file: string, text: string): string;
}

/** An effort with one committed change (not proven). */
async function startEffort(r: ScratchRepo, id: string, file: string, text: string): Promise<Work> {
  const w = await effort(r, id, file, text, false);
  return { id, path: w.path, commit: w.change };
}

function note(r: ScratchRepo, commit: string): NonNullable<ReturnType<typeof parseProofNote>>['payload'] {
  const parsed = parseProofNote(r.git('notes', '--ref=refs/notes/discern', 'show', commit));
  assert.ok(parsed, 'a Proof note');
  return parsed.payload;
}

function worktrees(r: ScratchRepo): number {
  return r
    .git('worktree', 'list', '--porcelain')
    .split('\n')
    .filter((l) => l.startsWith('worktree ')).length;
}

describe("accept: unmet stop checkpoints need the owner's variance", () => {
  it('unmet goes green at done; accept refuses awaiting_variance, then lands with variance and confirmed, recorded in the note', async () => {
    const r = trackedRepo(repos, `${API_SCOPE}${API_REVIEW}`);
    const w = await startEffort(r, 'breaking', 'src/api/users.ts', 'export const users = 2;\n');
    const done = await call(
      'done',
      { unmet: [{ id: 'api-review', why: 'renames a field; clients updated in the same release' }] },
      w.path,
    );
    assert.ok(done.ok, show(done));
    const before = trunk(r);
    const refused = await call('accept', { confirmed: true }, w.path);
    assert.equal(refused.error, 'awaiting_variance', show(refused));
    assert.deepEqual(
      accepted(refused).variances_required?.map((u) => [u.id, u.why]),
      [['api-review', 'renames a field; clients updated in the same release']],
    );
    assert.equal(trunk(r), before, 'nothing landed');
    const unconfirmed = await call('accept', { variance: 'owner accepts the break for 2.0' }, w.path);
    assert.equal(unconfirmed.error, 'awaiting_variance', 'a variance needs confirmed');
    const landed = await call('accept', { confirmed: true, variance: 'owner accepts the break for 2.0' }, w.path);
    assert.ok(landed.ok, show(landed));
    const d = accepted(landed);
    assert.equal(d.variances?.length, 1);
    assert.equal(d.variances?.[0]?.checkpoint, 'api-review');
    assert.equal(d.variances?.[0]?.why, 'owner accepts the break for 2.0');
    const payload = note(r, trunk(r));
    assert.deepEqual(
      payload.acceptance?.variances?.map((v) => [v.checkpoint, v.why]),
      [['api-review', 'owner accepts the break for 2.0']],
    );
    assert.match(payload.acceptance?.variances?.[0]?.subject ?? '', /^[0-9a-f]{64}$/);
  });

  it('declarations given to accept are recorded; the gate runs with them and the work lands', async () => {
    const r = trackedRepo(repos, `${API_SCOPE}${API_REVIEW}`);
    const w = await startEffort(r, 'compatible', 'src/api/users.ts', 'export const users = 2;\n');
    const waiting = await call('accept', { confirmed: true }, w.path);
    assert.equal(waiting.error, 'awaiting_declaration', show(waiting));
    assert.equal(accepted(waiting).checkpoints?.outstanding?.[0]?.id, 'api-review');
    assert.match(waiting.hints?.at(-1) ?? '', /call discern_accept again with met/);
    const variance = await call('accept', { confirmed: true, variance: 'nothing to vary' }, w.path);
    assert.equal(variance.error, 'awaiting_declaration', 'variance is no answer to an open question');
    const landed = await call('accept', { confirmed: true, met: ['api-review'] }, w.path);
    assert.ok(landed.ok, show(landed));
    assert.deepEqual(accepted(landed).proof?.checkpoints?.declared_met, ['api-review']);
  });

  it('a variance with nothing unmet is refused', async () => {
    const r = trackedRepo(repos, API_SCOPE);
    const w = await startEffort(r, 'plain', 'src/api/users.ts', 'x\n');
    assert.ok((await call('done', {}, w.path)).ok);
    const result = await call('accept', { confirmed: true, variance: 'why not' }, w.path);
    assert.equal(result.error, 'invalid_value', show(result));
  });
});

describe('accept: checkpoints on the composed result', () => {
  /** An effort proven before the trunk gained a stop checkpoint its change sets off, then the trunk moves. */
  async function movedTrunk(r: ScratchRepo): Promise<Work> {
    const w = await startEffort(r, 'api-work', 'src/api/orders.ts', 'export const orders = 2;\n');
    const done = await call('done', {}, w.path);
    assert.ok(done.ok, `no checkpoint governs the effort at its merge-base:\n${show(done)}`);
    r.write('discern.toml', `${BASE_CONFIG}${API_SCOPE}${API_REVIEW}`);
    r.commit('the trunk adds an API review checkpoint');
    return w;
  }

  it('keeps the composition and serves a receipt; a wrong receipt is refused; the right one lands the same composition', async () => {
    const r = trackedRepo(repos, API_SCOPE);
    const w = await movedTrunk(r);
    const tip = trunk(r);
    const served = await call('accept', { confirmed: true }, w.path);
    assert.equal(served.error, 'awaiting_declaration', show(served));
    const judgment = accepted(served).integration_judgment;
    assert.equal(judgment?.decision, 'awaiting_declaration');
    assert.deepEqual(
      judgment?.awaiting.map((q) => [q.id, q.matched]),
      [['api-review', ['src/api/orders.ts']]],
    );
    const receipt = judgment?.composition.receipt ?? '';
    assert.match(receipt, /^CR-[0-9a-f]{20}$/);
    assert.equal(judgment?.composition.trunk, tip);
    assert.ok(existsSync(judgment?.composition.path ?? ''), 'the integration worktree is kept');
    assert.equal(trunk(r), tip, 'the trunk is untouched');
    assert.match(served.hints?.at(-1) ?? '', new RegExp(receipt));

    const wrong = await call(
      'accept',
      { confirmed: true, met: ['api-review'], composition_receipt: 'CR-00000000000000000000' },
      w.path,
    );
    assert.equal(wrong.error, 'precondition_failed', show(wrong));
    assert.match(wrong.message ?? '', /does not match/);
    assert.equal(
      accepted(wrong).integration_judgment?.composition.receipt,
      receipt,
      'the kept composition still waits under its receipt',
    );
    assert.equal(trunk(r), tip);

    const landed = await call('accept', { confirmed: true, met: ['api-review'], composition_receipt: receipt }, w.path);
    assert.ok(landed.ok, show(landed));
    const d = accepted(landed);
    assert.equal(d.landing?.fast_forward, false);
    assert.equal(d.landing?.landed_commit, judgment?.composition.commit, 'the same composition landed');
    assert.deepEqual(d.proof?.checkpoints?.declared_met, ['api-review']);
    assert.equal(worktrees(r), 1, 'the integration worktree is gone after landing');
  });

  it('a receipt served before the trunk moved again is stale: a fresh composition and receipt; unmet on the composed result needs a variance naming it', async () => {
    const r = trackedRepo(repos, API_SCOPE);
    const w = await movedTrunk(r);
    const first = accepted(await call('accept', { confirmed: true }, w.path)).integration_judgment?.composition;
    r.write('docs/more.md', 'more\n');
    r.commit('the trunk moves again');
    const stale = await call(
      'accept',
      { confirmed: true, met: ['api-review'], composition_receipt: first?.receipt ?? '' },
      w.path,
    );
    assert.equal(stale.error, 'precondition_failed', show(stale));
    assert.match(stale.message ?? '', /main moved/);
    const fresh = accepted(stale).integration_judgment?.composition;
    assert.ok(fresh && fresh.receipt !== first?.receipt && fresh.trunk === trunk(r), show(stale));

    const unmet = await call(
      'accept',
      {
        confirmed: true,
        unmet: [{ id: 'api-review', why: 'breaking on purpose' }],
        composition_receipt: fresh.receipt,
      },
      w.path,
    );
    assert.equal(unmet.error, 'awaiting_variance', show(unmet));
    assert.equal(accepted(unmet).integration_judgment?.decision, 'awaiting_variance');
    const landed = await call(
      'accept',
      { confirmed: true, variance: 'the owner takes the break', composition_receipt: fresh.receipt },
      w.path,
    );
    assert.ok(landed.ok, show(landed));
    assert.deepEqual(
      note(r, trunk(r)).acceptance?.variances?.map((v) => [v.checkpoint, v.why]),
      [['api-review', 'the owner takes the break']],
    );
  });
});

after(() => assertDriven(['accept']));
