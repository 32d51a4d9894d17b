// The CLI-only worktree commands and enter on real repositories: destructive commands refuse to lose work and
// name it, --force never deletes unlanded commits except drop (which reports the tip), park and setup round-trip
// an effort with its resources, rename moves branch, worktree and records together, prune clears what vanished
// efforts left — and none of them is an MCP tool.
import { describe, it, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { MCP_TOOLS } from '../../generated/mcp-table.js';
import { assertDriven, call } from '../helpers/drive.js';
import { BASE_CONFIG, effort, trackedRepo } from '../helpers/efforts.js';
import { tempDir, type ScratchRepo } from '../helpers/scratch-repo.js';

const repos: ScratchRepo[] = [];
after(() => repos.forEach((r) => r.cleanup()));

function data(result: Awaited<ReturnType<typeof call>>): Record<string, unknown> {
  assert.ok(result.data && !('issues' in result.data), JSON.stringify(result, null, 2));
  return result.data as Record<string, unknown>;
}

function branches(r: ScratchRepo): string[] {
  return r.git('for-each-ref', '--format=%(refname:short)', 'refs/heads/').trim().split('\n');
}

describe('worktree commands', () => {
  it('are CLI only: no MCP tool for any of them', () => {
    const names = MCP_TOOLS.map((t) => t.name);
    for (const name of [
      'discern_enter',
      'discern_worktree_teardown',
      'discern_worktree_drop',
      'discern_worktree_park',
      'discern_worktree_setup',
      'discern_worktree_prune',
    ])
      assert.ok(!names.includes(name), name);
  });

  it('enter names the worktree; an unknown effort is unknown_target', async () => {
    const r = trackedRepo(repos);
    const w = await effort(r, 'here', 'h.txt', 'h\n', false);
    const result = await call('enter', { target: 'here' }, r.root, {}, 'cli');
    assert.equal(data(result)['path'], w.path);
    assert.equal((await call('enter', { target: 'nowhere' }, r.root, {}, 'cli')).error, 'unknown_target');
  });

  it('teardown refuses unlanded commits and uncommitted changes, naming them; forced, it keeps the branch', async () => {
    const r = trackedRepo(repos);
    const w = await effort(r, 'keep', 'k.txt', 'k\n', false);
    const sha = w.git('rev-parse', 'HEAD').trim();
    const refused = await call('worktreeTeardown', { target: 'keep' }, r.root, {}, 'cli');
    assert.equal(refused.error, 'precondition_failed');
    assert.match(refused.message ?? '', new RegExp(`${sha.slice(0, 12)} change k\\.txt`));
    assert.deepEqual(
      (data(refused)['unlanded_commits'] as { sha: string }[]).map((c) => c.sha),
      [sha],
    );
    assert.ok(existsSync(w.path));
    const forced = await call('worktreeTeardown', { target: 'keep', force: true }, r.root, {}, 'cli');
    assert.ok(forced.ok, JSON.stringify(forced, null, 2));
    assert.equal(data(forced)['branch_deleted'], false);
    assert.ok(!existsSync(w.path));
    assert.ok(branches(r).includes('agent/keep'), 'the unlanded branch stays');
    assert.equal(r.git('rev-parse', 'agent/keep').trim(), sha);
  });

  it('teardown of a landed effort removes the worktree and the branch', async () => {
    const r = trackedRepo(repos);
    const w = await effort(r, 'merged', 'm.txt', 'm\n', false);
    r.git('merge', '-q', '--ff-only', 'agent/merged');
    const result = await call('worktreeTeardown', { target: 'merged' }, r.root, {}, 'cli');
    assert.ok(result.ok, JSON.stringify(result, null, 2));
    assert.equal(data(result)['branch_deleted'], true);
    assert.ok(!existsSync(w.path));
    assert.ok(!branches(r).includes('agent/merged'));
  });

  it('drop needs --force for unlanded commits, then deletes the branch and reports its tip', async () => {
    const r = trackedRepo(repos);
    const w = await effort(r, 'spike', 's.txt', 's\n', false);
    const tip = w.git('rev-parse', 'HEAD').trim();
    assert.equal((await call('worktreeDrop', { target: 'spike' }, r.root, {}, 'cli')).error, 'precondition_failed');
    const dropped = await call('worktreeDrop', { target: 'spike', force: true }, r.root, {}, 'cli');
    assert.ok(dropped.ok, JSON.stringify(dropped, null, 2));
    assert.equal(data(dropped)['dropped_tip'], tip);
    assert.match(dropped.hints?.[0] ?? '', new RegExp(`git branch agent/spike ${tip}`));
    assert.ok(!branches(r).includes('agent/spike'));
    // The tip really does restore it.
    r.git('branch', 'agent/spike', tip);
    assert.equal(r.git('show', 'agent/spike:s.txt'), 's\n');
  });

  it('park sets the effort aside with its branch; setup brings the worktree and its resources back', async () => {
    const log = join(tempDir(), 'resources.log');
    const r = trackedRepo(
      repos,
      `\n[worktree.resources.db]\ncreate = "echo create $DISCERN_EFFORT >> ${log}"\ndestroy = "echo destroy $DISCERN_EFFORT >> ${log}"\n`,
    );
    const w = await effort(r, 'later', 'l.txt', 'l\n', false);
    w.git('status');
    const parked = await call('worktreePark', { target: 'later' }, r.root, {}, 'cli');
    assert.ok(parked.ok, JSON.stringify(parked, null, 2));
    assert.ok(!existsSync(w.path));
    assert.ok(branches(r).includes('agent/later'));
    const back = await call('worktreeSetup', { target: 'later' }, r.root, {}, 'cli');
    assert.ok(back.ok, JSON.stringify(back, null, 2));
    assert.deepEqual(data(back)['resources_created'], ['db']);
    assert.equal(readFileSync(join(w.path, 'l.txt'), 'utf8'), 'l\n');
    assert.equal(readFileSync(log, 'utf8'), 'create later\ndestroy later\ncreate later\n');
  });

  it('park refuses uncommitted changes unless forced', async () => {
    const r = trackedRepo(repos);
    const w = await effort(r, 'busy', 'b.txt', 'b\n', false);
    w.git('rm', '-q', 'shared.txt');
    const refused = await call('worktreePark', { target: 'busy' }, r.root, {}, 'cli');
    assert.equal(refused.error, 'precondition_failed');
    assert.match(refused.message ?? '', /1 uncommitted change/);
    assert.ok(existsSync(w.path));
  });

  it('rename moves branch, worktree and records together; resources are destroyed under the names they were made with', async () => {
    const log = join(tempDir(), 'resources.log');
    const r = trackedRepo(
      repos,
      `\n[worktree.resources.db]\ncreate = "echo create $DISCERN_EFFORT >> ${log}"\ndestroy = "echo destroy $DISCERN_EFFORT >> ${log}"\n`,
    );
    const w = await effort(r, 'old-name', 'o.txt', 'o\n');
    assert.equal((await call('accept', { action: 'queue' }, w.path)).ok, true);
    const renamed = await call('worktreeRename', { target: 'old-name', name: 'new-name' }, r.root, {}, 'cli');
    assert.ok(renamed.ok, JSON.stringify(renamed, null, 2));
    const path = data(renamed)['path'] as string;
    assert.equal(path, `${r.root}.worktrees/new-name`);
    assert.ok(existsSync(path) && !existsSync(w.path));
    assert.ok(branches(r).includes('agent/new-name') && !branches(r).includes('agent/old-name'));
    assert.ok(existsSync(join(r.root, '.git', 'discern', 'submissions', 'new-name.json')));
    assert.equal(
      (await call('worktreeRename', { target: 'new-name', name: 'x.lock' }, r.root, {}, 'cli')).error,
      'invalid_value',
    );
    const dropped = await call('worktreeDrop', { target: 'new-name', force: true }, r.root, {}, 'cli');
    assert.ok(dropped.ok, JSON.stringify(dropped, null, 2));
    assert.equal(readFileSync(log, 'utf8'), 'create old-name\ndestroy old-name\n');
  });

  it('ensure runs [repository] ensure in the worktree', async () => {
    const r = trackedRepo(repos, '\n[repository]\nensure = ["echo ensured > ensured.log"]\n');
    const w = await effort(r, 'deps', 'd.txt', 'd\n', false);
    rmSync(join(w.path, 'ensured.log'), { force: true });
    const result = await call('worktreeEnsure', { target: 'deps' }, r.root, {}, 'cli');
    assert.ok(result.ok, JSON.stringify(result, null, 2));
    assert.equal(readFileSync(join(w.path, 'ensured.log'), 'utf8'), 'ensured\n');
  });

  it('ensure and setup stop at an ensure command that fails, name it and keep the worktree', async () => {
    const r = trackedRepo(repos, '\n[repository]\nensure = ["test ! -f ensure.block"]\n');
    const w = await effort(r, 'blocked', 'b.txt', 'b\n', false);
    writeFileSync(join(w.path, 'ensure.block'), 'x\n');
    for (const id of ['worktreeEnsure', 'worktreeSetup'] as const) {
      const result = await call(id, { target: 'blocked' }, r.root, {}, 'cli');
      assert.equal(result.error, 'apply_failed', JSON.stringify(result, null, 2));
      assert.ok(
        result.steps?.some((s) => s.outcome === 'failed' && /ensure\.block/.test(s.note ?? '')),
        JSON.stringify(result.steps),
      );
      assert.equal(data(result)['path'], w.path);
      assert.ok(existsSync(w.path));
    }
  });

  it('prune forgets vanished worktrees and clears records whose branch is gone; a dry run changes nothing', async () => {
    const r = trackedRepo(repos);
    const w = await effort(r, 'vanish', 'v.txt', 'v\n');
    assert.equal((await call('accept', { action: 'queue' }, w.path)).ok, true);
    rmSync(w.path, { recursive: true, force: true });
    r.git('update-ref', '-d', 'refs/heads/agent/vanish');
    const preview = await call('worktreePrune', { dry_run: true }, r.root, {}, 'cli');
    assert.equal(preview.dry_run, true);
    assert.deepEqual(data(preview)['records_cleared'], ['submission/vanish']);
    assert.ok(existsSync(join(r.root, '.git', 'discern', 'submissions', 'vanish.json')));
    const pruned = await call('worktreePrune', {}, r.root, {}, 'cli');
    assert.ok(pruned.ok, JSON.stringify(pruned, null, 2));
    assert.deepEqual(data(pruned)['worktrees_pruned'], ['vanish']);
    assert.ok(!existsSync(join(r.root, '.git', 'discern', 'submissions', 'vanish.json')));
    assert.equal(
      r
        .git('worktree', 'list', '--porcelain')
        .split('\n')
        .filter((l) => l.startsWith('worktree ')).length,
      1,
    );
  });

  it('prune refuses a discern.toml that does not load, and forgets nothing', async () => {
    const r = trackedRepo(repos);
    writeFileSync(join(r.root, 'discern.toml'), `${BASE_CONFIG}\n[worktree]\nenv_files = ".env"\n`);
    const result = await call('worktreePrune', {}, r.root, {}, 'cli');
    assert.equal(result.error, 'invalid_config', JSON.stringify(result, null, 2));
  });

  it('drove the commands through success and failure', () =>
    assertDriven([
      'enter',
      'worktreeTeardown',
      'worktreeDrop',
      'worktreePark',
      'worktreeRename',
      'worktreeSetup',
      'worktreeEnsure',
      'worktreePrune',
    ]));
});
