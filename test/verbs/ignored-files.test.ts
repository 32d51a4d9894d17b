// Nothing a landing or an update replaces is lost: a file a checkout ignores, at a path the incoming change
// starts tracking, is saved as a blob (kept reachable by a ref) before the checkout moves, reported in
// data.ignored_file_changes, and its restore command brings the user's bytes back. Real repositories.
import assert from 'node:assert/strict';
import { execSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import type { DiscernAcceptData, DiscernUpdateData } from '../../generated/types.js';
import { call } from '../helpers/drive.js';
import { effort, trackedRepo } from '../helpers/efforts.js';
import type { ScratchRepo } from '../helpers/scratch-repo.js';

const repos: ScratchRepo[] = [];
after(() => repos.forEach((r) => r.cleanup()));

const MINE = 'user = me\nsecret-ish = local only\n';

describe('ignored files a move would replace', () => {
  it('accept saves the trunk checkout’s ignored file before the fast-forward replaces it, and says how to restore it', async () => {
    const r = trackedRepo(repos);
    r.write('.gitignore', 'local.cfg\n');
    r.commit('ignore local.cfg');
    writeFileSync(join(r.root, 'local.cfg'), MINE);
    const w = await effort(r, 'tracks-cfg', '.gitignore', '', false);
    w.change('local.cfg', 'user = shipped default\n', 'track local.cfg');
    assert.ok((await call('done', {}, w.path)).ok);
    const result = await call('accept', { confirmed: true }, w.path);
    assert.ok(result.ok, JSON.stringify(result, null, 2));
    assert.ok(result.verb === 'accept' && result.data && !('issues' in result.data));
    const changes = (result.data as DiscernAcceptData).ignored_file_changes ?? [];
    assert.equal(changes.length, 1);
    assert.equal(changes[0]?.path, 'local.cfg');
    assert.equal(readFileSync(join(r.root, 'local.cfg'), 'utf8'), 'user = shipped default\n');
    assert.equal(r.git('cat-file', 'blob', changes[0]?.blob ?? '').toString(), MINE);
    assert.equal(r.git('rev-parse', `refs/discern/kept/${changes[0]?.blob}`).trim(), changes[0]?.blob);
    execSync(changes[0]?.restore ?? 'false', { cwd: r.root });
    assert.equal(readFileSync(join(r.root, 'local.cfg'), 'utf8'), MINE);
    assert.match((result.hints ?? []).join(' '), /replaced 1 ignored file/);
  });

  it('a change that sets ignored_file_drift = false for itself still has the trunk checkout’s file saved', async () => {
    const r = trackedRepo(repos);
    r.write('.gitignore', 'local.cfg\n');
    r.commit('ignore local.cfg');
    writeFileSync(join(r.root, 'local.cfg'), MINE);
    const w = await effort(r, 'opts-out', '.gitignore', '', false);
    const config = readFileSync(join(w.path, 'discern.toml'), 'utf8');
    w.change('discern.toml', `${config}\n[worktree]\nignored_file_drift = false\n`, 'turn the protection off');
    w.change('local.cfg', 'user = shipped default\n', 'track local.cfg');
    assert.ok((await call('done', {}, w.path)).ok);
    // Turning the protection off is a change of the trunk's policy: the owner approves it first.
    const asked = await call('accept', { confirmed: true }, w.path);
    assert.equal(asked.error, 'awaiting_policy_approval', JSON.stringify(asked, null, 2));
    const result = await call('accept', { confirmed: true, approve_policy: true }, w.path);
    assert.ok(result.ok, JSON.stringify(result, null, 2));
    const changes = (result.data as DiscernAcceptData).ignored_file_changes ?? [];
    assert.deepEqual(
      changes.map((c) => c.path),
      ['local.cfg'],
    );
    assert.equal(r.git('cat-file', 'blob', changes[0]?.blob ?? ''), MINE);
  });

  it('an ignored file that already holds the incoming bytes is not saved', async () => {
    const r = trackedRepo(repos);
    r.write('.gitignore', 'same.cfg\n');
    r.commit('ignore same.cfg');
    writeFileSync(join(r.root, 'same.cfg'), 'same\n');
    const w = await effort(r, 'same-cfg', '.gitignore', '', false);
    w.change('same.cfg', 'same\n', 'track same.cfg');
    assert.ok((await call('done', {}, w.path)).ok);
    const result = await call('accept', { confirmed: true }, w.path);
    assert.ok(result.ok, JSON.stringify(result, null, 2));
    assert.equal((result.data as DiscernAcceptData).ignored_file_changes, undefined);
  });

  it('update saves the worktree’s ignored file before the trunk’s version replaces it', async () => {
    const r = trackedRepo(repos);
    r.write('.gitignore', 'local.cfg\n');
    r.commit('ignore local.cfg');
    const w = await effort(r, 'keeps-cfg', 'work.txt', 'w\n', false);
    writeFileSync(join(w.path, 'local.cfg'), MINE);
    r.write('.gitignore', '');
    r.write('local.cfg', 'user = shipped default\n');
    r.commit('the trunk tracks local.cfg');
    const result = await call('update', {}, w.path);
    assert.ok(result.ok, JSON.stringify(result, null, 2));
    const changes = (result.data as DiscernUpdateData).ignored_file_changes ?? [];
    assert.deepEqual(
      changes.map((c) => c.path),
      ['local.cfg'],
    );
    assert.equal(readFileSync(join(w.path, 'local.cfg'), 'utf8'), 'user = shipped default\n');
    execSync(changes[0]?.restore ?? 'false', { cwd: w.path });
    assert.equal(readFileSync(join(w.path, 'local.cfg'), 'utf8'), MINE);
  });
});
