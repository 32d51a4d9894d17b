// The commit proved is the commit tested. Tried over the SDK's MCP client the way an agent would make a red commit
// look green without touching discern: a replace ref that shows the jobs a stand-in's content while Proof names
// the real commit (which a fresh clone gets), on HEAD and on HEAD's tree. Both are refused before any job runs,
// naming the ref; a replacement elsewhere in history (a graft) keeps working. Each case fails when the replace-ref
// precondition or the replace-free read of HEAD is removed.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { scratchRepo, type ScratchRepo } from '../helpers/scratch-repo.js';
import { show, trustHarness } from '../helpers/trust-harness.js';

const CONFIG = `[project]
name = "tested"

[jobs]
test = "test ! -f broken"
`;

const { repos, tool } = trustHarness('discern-tested-');

/** An effort whose HEAD adds `broken` (red), plus a green stand-in commit with the same parent. */
async function redEffort(
  name: string,
): Promise<{ repo: ScratchRepo; path: string; git: (...a: string[]) => string; red: string; standIn: string }> {
  const repo = scratchRepo({ 'discern.toml': CONFIG, 'app.txt': 'ok\n' });
  repos.push(repo);
  const started = await tool('discern_start', { name, path: repo.root });
  assert.equal(started.ok, true, show(started));
  const path = (started.data as { path: string }).path;
  const git = (...args: string[]): string => repo.git('-C', path, ...args).trim();
  writeFileSync(join(path, 'app.txt'), 'changed\n');
  git('commit', '-qam', 'the green content');
  const standIn = git('rev-parse', 'HEAD');
  git('reset', '-q', '--hard', 'HEAD~1');
  writeFileSync(join(path, 'app.txt'), 'changed\n');
  writeFileSync(join(path, 'broken'), 'the job fails on this\n');
  git('add', '-A');
  git('commit', '-qm', 'the red content');
  return { repo, path, git, red: git('rev-parse', 'HEAD'), standIn };
}

describe('a replace ref cannot stand in for the commit Proof names', () => {
  it('a replacement of HEAD is refused before any job, naming the ref', async () => {
    const e = await redEffort('head');
    e.git('replace', e.red, e.standIn);
    // The checkout now shows the stand-in's tree, and git status is clean against it.
    e.git('read-tree', '-u', '--reset', 'HEAD');
    assert.equal(e.git('status', '--porcelain'), '');
    const done = await tool('discern_done', { path: e.path });
    assert.equal(done.ok, false, show(done));
    assert.equal(done.data?.['failed_stage'], 'replaced_objects', show(done));
    assert.match(done.message ?? '', new RegExp(`refs/replace/${e.red}`));
    assert.equal(done.data?.['gate_ran'], false);
  });

  it("a replacement of HEAD's tree is refused", async () => {
    const e = await redEffort('tree');
    const realTree = e.git('rev-parse', `${e.red}^{tree}`);
    e.git('replace', realTree, e.git('rev-parse', `${e.standIn}^{tree}`));
    e.git('read-tree', '-u', '--reset', 'HEAD');
    const done = await tool('discern_done', { path: e.path });
    assert.equal(done.data?.['failed_stage'], 'replaced_objects', show(done));
    assert.match(done.message ?? '', new RegExp(`refs/replace/${realTree}`));
  });

  // The replace refs are read from the ref files: a packed one counts as much as a loose one.
  it('a packed replace ref is refused like a loose one', async () => {
    const e = await redEffort('packed');
    e.git('replace', e.red, e.standIn);
    e.git('pack-refs', '--all');
    e.git('read-tree', '-u', '--reset', 'HEAD');
    const done = await tool('discern_done', { path: e.path });
    assert.equal(done.data?.['failed_stage'], 'replaced_objects', show(done));
    assert.match(done.message ?? '', new RegExp(`refs/replace/${e.red}`));
  });

  it('a graft elsewhere in history keeps working', async () => {
    const e = await redEffort('graft');
    e.git('reset', '-q', '--hard', e.standIn);
    const root = e.git('rev-list', '--max-parents=0', 'HEAD');
    const copy = e.git('commit-tree', `${root}^{tree}`, '-m', 'a rewritten root');
    e.git('replace', root, copy);
    const done = await tool('discern_done', { path: e.path });
    assert.equal(done.ok, true, show(done));
  });
});

describe('what the jobs see is what the commit holds', () => {
  it('a job that hides a file it changed (skip-worktree) is tree_drift', async () => {
    const repo = scratchRepo({
      'discern.toml': `[project]\nname = "hidden"\n\n[jobs]\ntest = "git update-index --skip-worktree app.txt && echo tampered > app.txt"\n`,
      'app.txt': 'ok\n',
    });
    repos.push(repo);
    const started = await tool('discern_start', { name: 'hides', path: repo.root });
    const path = (started.data as { path: string }).path;
    writeFileSync(join(path, 'notes.txt'), 'a change\n');
    repo.git('-C', path, 'add', '-A');
    repo.git('-C', path, 'commit', '-qm', 'a change');
    const done = await tool('discern_done', { path });
    assert.equal(done.ok, false, show(done));
    assert.equal(done.data?.['failed_stage'], 'tree_drift', show(done));
    assert.match(show(done['diagnostics']), /app\.txt was hidden from git status/);
  });

  it('a submodule checked out away from its gitlink is not clean, whatever .gitmodules ignore says', async () => {
    const sub = scratchRepo({ 'lib.txt': 'one\n' });
    repos.push(sub);
    const first = sub.git('rev-parse', 'HEAD').trim();
    sub.write('lib.txt', 'two\n');
    sub.commit('two');
    const repo = scratchRepo({ 'discern.toml': CONFIG, 'app.txt': 'ok\n' });
    repos.push(repo);
    repo.git('-c', 'protocol.file.allow=always', 'submodule', 'add', '-q', sub.root, 'sub');
    repo.git('config', '-f', '.gitmodules', 'submodule.sub.ignore', 'all');
    repo.commit('a submodule, ignored by .gitmodules');
    const started = await tool('discern_start', { name: 'sub', path: repo.root });
    const path = (started.data as { path: string }).path;
    const git = (...args: string[]): string => repo.git('-C', path, ...args);
    git('-c', 'protocol.file.allow=always', 'submodule', 'update', '-q', '--init');
    writeFileSync(join(path, 'app.txt'), 'changed\n');
    git('commit', '-qam', 'a change');
    repo.git('-C', join(path, 'sub'), 'checkout', '-q', first);
    assert.equal(git('status', '--porcelain').trim(), '', 'git status itself hides it');
    const done = await tool('discern_done', { path });
    assert.equal(done.ok, false, show(done));
    assert.equal(done.error, 'dirty_worktree', show(done));
  });
});
