// Verdicts follow what happened: once the trunk holds the landing commit, accept never answers apply_failed, and
// a worktree whose state cannot be read is never taken as clean, by accept's cleanup or by worktree
// teardown/drop/park. Real repositories; git's own post-merge hook moves the trunk on or breaks the worktree's
// index at the moment the landing's fast-forward finishes.
import assert from 'node:assert/strict';
import { chmodSync, existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import type { DiscernAcceptData } from '../../generated/types.js';
import { call } from '../helpers/drive.js';
import { effort, trackedRepo } from '../helpers/efforts.js';
import type { ScratchRepo } from '../helpers/scratch-repo.js';

const repos: ScratchRepo[] = [];

function accepted(result: Awaited<ReturnType<typeof call>>): DiscernAcceptData {
  assert.ok(result.verb === 'accept' && result.data && !('issues' in result.data), JSON.stringify(result, null, 2));
  return result.data;
}
after(() => repos.forEach((r) => r.cleanup()));

/** A post-merge hook in the repository, run by the trunk checkout's `git merge --ff-only`. */
function postMerge(r: ScratchRepo, script: string): void {
  const hook = join(r.root, '.git', 'hooks', 'post-merge');
  writeFileSync(hook, `#!/bin/sh\n${script}\n`);
  chmodSync(hook, 0o755);
}

describe('accept after the trunk moved', () => {
  it('a trunk that moves on right after the fast-forward still holds the landing: ok, landed, not apply_failed', async () => {
    const r = trackedRepo(repos);
    const w = await effort(r, 'moved-on', 'moved.txt', 'x\n');
    const head = w.git('rev-parse', 'HEAD').trim();
    // Another commit lands on the trunk the instant the fast-forward finishes.
    postMerge(r, 'git -c user.name=other -c user.email=o@x commit -q --allow-empty -m "right after"');
    const result = await call('accept', { confirmed: true }, w.path);
    assert.ok(result.ok, JSON.stringify(result, null, 2));
    assert.notEqual(result.error, 'apply_failed');
    assert.equal(r.git('merge-base', '--is-ancestor', head, 'main'), '');
    assert.equal(r.git('log', '-1', '--format=%s', 'main').trim(), 'right after');
    const landing = accepted(result).landing;
    assert.equal(landing?.trunk_landed, true);
  });

  it('a required record that cannot be written after the trunk moved is partial_acceptance with trunk_landed', async () => {
    const r = trackedRepo(repos);
    const w = await effort(r, 'unrecorded', 'rec.txt', 'r\n');
    const head = w.git('rev-parse', 'HEAD').trim();
    const records = join(r.root, '.git', 'discern', 'acceptance');
    // The landing's own transaction record can no longer be written once the fast-forward is done.
    postMerge(r, `rm -rf '${records}' && printf 'in the way' > '${records}'`);
    const result = await call('accept', { confirmed: true }, w.path);
    assert.equal(result.ok, false);
    assert.equal(result.error, 'partial_acceptance', JSON.stringify(result, null, 2));
    const d = accepted(result);
    assert.equal(d.landing?.trunk_landed, true);
    assert.equal(d.landing?.landed_commit, head);
    assert.equal(r.git('rev-parse', 'main').trim(), head);
    assert.match(result.hints.at(-1) ?? '', /discern_accept with target "unrecorded"/);
  });

  it('a worktree whose state cannot be read after landing is kept and reported, never removed', async () => {
    const r = trackedRepo(repos);
    const w = await effort(r, 'unreadable', 'u.txt', 'u\n');
    const index = r.git('rev-parse', '--path-format=absolute', '--git-path', 'worktrees/unreadable/index').trim();
    postMerge(r, `printf 'not an index' > '${index}'`);
    const result = await call('accept', { confirmed: true }, w.path);
    assert.ok(result.ok, JSON.stringify(result, null, 2));
    assert.ok(existsSync(w.path), 'the worktree is kept');
    const advisory = result.advisories?.find((a) => a.kind === 'acceptance-cleanup-incomplete');
    assert.match(advisory?.evidence.join(' ') ?? '', /could not be read/);
    const landing = accepted(result).landing;
    assert.equal(landing?.worktree_removed, false);
  });
});

describe('accept while the trunk is in the middle of an operation', () => {
  it('refuses while the main checkout rebases the trunk, and the rebase can still be finished', async () => {
    const r = trackedRepo(repos);
    const w = await effort(r, 'during-rebase', 'rebase.txt', 'r\n');
    const before = r.git('rev-parse', 'main').trim();
    // A local trunk commit and a side branch that conflict: `git rebase side` stops half-way on main.
    r.git('switch', '-q', '-c', 'side');
    r.write('shared.txt', 'side\n');
    r.commit('side edit');
    r.git('switch', '-q', 'main');
    r.write('shared.txt', 'main\n');
    r.commit('main edit');
    const local = r.git('rev-parse', 'main').trim();
    assert.throws(() => r.git('rebase', 'side'));
    assert.ok(existsSync(join(r.root, '.git', 'rebase-merge')));
    const refused = await call('accept', { confirmed: true }, w.path);
    assert.equal(refused.error, 'precondition_failed', JSON.stringify(refused, null, 2));
    assert.match(refused.message ?? '', /a rebase of main is in progress.*git rebase --abort/);
    assert.equal(r.git('rev-parse', 'main').trim(), local);
    assert.notEqual(local, before);
    r.git('rebase', '--abort');
    assert.equal(r.git('symbolic-ref', 'HEAD').trim(), 'refs/heads/main');
  });
});

describe('worktree teardown, drop and park when the worktree cannot be read', () => {
  for (const verb of ['worktreeTeardown', 'worktreeDrop', 'worktreePark'] as const) {
    it(`${verb} refuses without --force and keeps the worktree; with force it goes ahead`, async () => {
      const r = trackedRepo(repos);
      const w = await effort(r, `broken-${verb.toLowerCase()}`, 'b.txt', 'b\n', false);
      const index = r.git('rev-parse', '--path-format=absolute', '--git-path', `worktrees/${w.id}/index`).trim();
      writeFileSync(index, 'not an index');
      const refused = await call(verb, { target: w.id }, r.root);
      assert.equal(refused.error, 'precondition_failed', JSON.stringify(refused));
      assert.match(refused.message ?? '', /could not be read/);
      assert.ok(existsSync(w.path));
      const forced = await call(verb, { target: w.id, force: true }, r.root);
      assert.ok(forced.ok, JSON.stringify(forced, null, 2));
    });
  }
});
