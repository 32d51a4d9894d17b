// status's view of efforts on real repositories: each fleet row's effort id, Proof state and landing authority,
// the landing queue in accept's order, efforts changing the same paths, the Proof note of the last landing,
// effort branches no worktree holds, and the caps with true totals on a fleet of 20 efforts.
import { describe, it, after } from 'node:test';
import assert from 'node:assert/strict';
import type { DiscernStatusData } from '../../generated/types.js';
import { call } from '../helpers/drive.js';
import { effort, trackedRepo } from '../helpers/efforts.js';
import type { ScratchRepo } from '../helpers/scratch-repo.js';

const repos: ScratchRepo[] = [];
after(() => repos.forEach((r) => r.cleanup()));

async function status(root: string, input: Record<string, unknown> = {}): Promise<DiscernStatusData> {
  const result = await call('status', input, root);
  assert.ok(
    result.ok && result.verb === 'status' && result.data && 'fleet' in result.data,
    JSON.stringify(result, null, 2),
  );
  return result.data;
}

describe('status with efforts', () => {
  it('rows carry the effort id, its Proof state and landing authority; collisions, queue and unlanded branches appear', async () => {
    const r = trackedRepo(repos, '\n[acceptance]\npre_authorized = ["docs"]\n');
    const proven = await effort(r, 'proven', 'same.txt', 'a\n');
    await effort(r, 'unproven', 'same.txt', 'b\n', false);
    await effort(r, 'docs', 'docs/a.md', '# a\n');
    assert.equal((await call('accept', { action: 'queue' }, proven.path)).ok, true);
    r.git('branch', 'agent/left-behind', 'agent/unproven');
    const d = await status(r.root);
    const byId = new Map((d.fleet ?? []).map((row) => [row.id, row]));
    assert.equal(byId.get('proven')?.gate_proof?.status, 'honored');
    assert.equal(byId.get('unproven')?.gate_proof?.status, 'missing');
    assert.equal(byId.get('docs')?.landing_authority?.kind, 'authorized');
    assert.equal(byId.get('proven')?.landing_authority?.kind, 'conversation-required');
    assert.deepEqual(d.fleet_collisions, [{ efforts: ['proven', 'unproven'], shared: 1, paths: ['same.txt'] }]);
    assert.deepEqual(
      d.queue?.map((q) => [q.effort, q.position, q.authority]),
      [['proven', 1, 'awaiting-owner']],
    );
    assert.deepEqual(d.unlanded_branches, ['agent/left-behind']);
  });

  it("after a landing, the trunk's Proof note is the landed Proof", async () => {
    const r = trackedRepo(repos);
    const w = await effort(r, 'shipped', 's.txt', 's\n');
    const landed = await call('accept', { confirmed: true }, w.path);
    assert.ok(landed.ok && landed.verb === 'accept' && landed.data && 'proof_line' in landed.data);
    const d = await status(r.root);
    assert.equal(d.landed_proof?.line, landed.data.proof_line);
    assert.equal(d.landed_proof?.consent, 'conversation');
  });

  it('a fleet of 20 efforts: the main row plus six, the true total, and omitted counts', async () => {
    const r = trackedRepo(repos);
    for (let i = 0; i < 20; i++) assert.equal((await call('start', { name: `e${i}` }, r.root)).ok, true);
    const d = await status(r.root);
    assert.equal(d.fleet?.length, 7);
    assert.equal(d.fleet_total, 21);
    assert.equal(d.projection.omitted?.['fleet'], 14);
    const full = await status(r.root, { verbose: true });
    assert.equal(full.fleet?.length, 21);
  });
});
