// status on real scratch repositories: main checkout and linked worktree, detached HEAD, an unborn branch, a
// shallow clone, a dirty tree, the fleet (default, all, local), the default projection against verbose, and
// refusals — every result validated against the published schema.
import { describe, it, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { realpathSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { DiscernStatusData } from '../../generated/types.js';
import { assertDriven, call } from '../helpers/drive.js';
import { MINIMAL_CONFIG, cleanEnv, scratchRepo, tempDir, type ScratchRepo } from '../helpers/scratch-repo.js';

const repos: ScratchRepo[] = [];
const dirs: string[] = [];
after(() => {
  repos.forEach((r) => r.cleanup());
  dirs.forEach((d) => rmSync(d, { recursive: true, force: true }));
});
function repo(files: Record<string, string> = { 'discern.toml': MINIMAL_CONFIG }): ScratchRepo {
  const r = scratchRepo(files);
  repos.push(r);
  return r;
}
function worktreeDir(name: string): string {
  const dir = tempDir('discern-wt-');
  dirs.push(dir);
  return join(dir, name);
}
async function statusData(target: string, input: Record<string, unknown> = {}): Promise<DiscernStatusData> {
  const result = await call('status', input, target);
  assert.ok(result.ok, JSON.stringify(result));
  assert.ok(result.data && 'git' in result.data);
  return result.data;
}

describe('status', () => {
  it('a clean main checkout on the trunk', async () => {
    const r = repo({
      'discern.toml': `${MINIMAL_CONFIG}\n[scopes.docs]\npaths = ["docs/**", "*.md"]\nneutral = true\ngate = "npx markdownlint ."\n`,
    });
    const d = await statusData(r.root);
    assert.equal(d.location, 'main');
    assert.equal(d.root, r.root);
    assert.equal(d.project.name, 'Scratch');
    assert.deepEqual(
      {
        branch: d.git.branch,
        detached: d.git.detached,
        unborn: d.git.unborn,
        shallow: d.git.shallow,
        clean: d.git.clean,
        ahead: d.git.ahead_trunk,
        behind: d.git.behind_trunk,
      },
      { branch: 'main', detached: false, unborn: false, shallow: false, clean: true, ahead: 0, behind: 0 },
    );
    assert.deepEqual(d.gate.jobs, [{ name: 'test', stage: 'test', commands: ['git --version'] }]);
    assert.deepEqual(d.gate.scope_gates, [{ scope: 'docs', commands: ['npx markdownlint .'] }]);
    assert.deepEqual(d.scopes, [{ name: 'docs', paths: ['docs/**', '*.md'], neutral: true }]);
    assert.deepEqual(d.standards, []);
    assert.equal(d.fleet?.length, 1);
    assert.equal(d.projection.mode, 'orientation');
  });

  it('a dirty tree counts changed, staged and untracked files', async () => {
    const r = repo();
    r.write('README.md', 'changed\n');
    r.write('new.txt', 'new\n');
    r.write('dir with space/a b.txt', 'x');
    r.git('add', 'new.txt');
    const d = await statusData(r.root);
    assert.equal(d.git.clean, false);
    assert.equal(d.git.changed_files, 3);
    assert.equal(d.git.untracked_files, 1);
  });

  it('commits ahead of and behind the trunk', async () => {
    const r = repo();
    r.git('checkout', '-q', '-b', 'agent/feature');
    r.write('a.txt', 'a');
    r.commit('a');
    r.write('b.txt', 'b');
    r.commit('b');
    r.git('checkout', '-q', 'main');
    r.write('c.txt', 'c');
    r.commit('c');
    r.git('checkout', '-q', 'agent/feature');
    const d = await statusData(r.root);
    assert.equal(d.git.branch, 'agent/feature');
    assert.equal(d.git.ahead_trunk, 2);
    assert.equal(d.git.behind_trunk, 1);
  });

  it('a detached HEAD', async () => {
    const r = repo();
    const head = r.git('rev-parse', 'HEAD').trim();
    r.git('checkout', '-q', '--detach');
    const d = await statusData(r.root);
    assert.equal(d.git.branch, null);
    assert.equal(d.git.detached, true);
    assert.equal(d.git.head, head);
    assert.equal(d.git.ahead_trunk, 0);
  });

  it('an unborn branch', async () => {
    const r = repo();
    r.git('checkout', '-q', '--orphan', 'fresh');
    const d = await statusData(r.root);
    assert.equal(d.git.branch, 'fresh');
    assert.equal(d.git.unborn, true);
    assert.equal(d.git.head, null);
    assert.equal(d.git.ahead_trunk, null);
    assert.equal(d.git.behind_trunk, null);
  });

  it('a fresh repository without any commit: status still answers, the trunk does not exist yet', async () => {
    const r = scratchRepo({ 'discern.toml': MINIMAL_CONFIG }, { commit: false });
    repos.push(r);
    const d = await statusData(r.root);
    assert.deepEqual(
      {
        branch: d.git.branch,
        unborn: d.git.unborn,
        head: d.git.head,
        trunk_exists: d.git.trunk_exists,
        ahead: d.git.ahead_trunk,
        behind: d.git.behind_trunk,
      },
      { branch: 'main', unborn: true, head: null, trunk_exists: false, ahead: null, behind: null },
    );
    assert.equal(
      (await call('impact', {}, r.root)).error,
      'no_trunk',
      'impact measures from the trunk, so it needs one',
    );
  });

  it('a shallow clone', async () => {
    const origin = repo();
    for (const n of [1, 2, 3]) {
      origin.write(`f${n}.txt`, String(n));
      origin.commit(`c${n}`);
    }
    const clone = join(tempDir('discern-shallow-'), 'clone');
    dirs.push(join(clone, '..'));
    execFileSync('git', ['clone', '-q', '--depth', '1', `file://${origin.root}`, clone], { env: cleanEnv() });
    const d = await statusData(realpathSync(clone));
    assert.equal(d.git.shallow, true);
    assert.equal(d.git.branch, 'main');
    assert.equal(d.git.ahead_trunk, 0);
    assert.equal(d.git.behind_trunk, 0);
  });

  it('a linked worktree, and the fleet around it', async () => {
    const r = repo();
    const effort = worktreeDir('effort');
    r.git('worktree', 'add', '-q', '-b', 'agent/effort', effort);
    const other = worktreeDir('other');
    r.git('worktree', 'add', '-q', '-b', 'experiment', other);
    const d = await statusData(effort);
    assert.equal(d.location, 'worktree');
    assert.equal(d.root, realpathSync(effort));
    assert.deepEqual(
      d.fleet?.map((f) => [f.is_main, f.is_current, f.branch]),
      [
        [true, false, 'main'],
        [false, true, 'agent/effort'],
      ],
      'main, then here; a non-effort branch is left out',
    );
    const all = await statusData(effort, { all: true });
    assert.deepEqual(all.fleet?.map((f) => f.branch).sort(), ['agent/effort', 'experiment', 'main']);
    const local = await statusData(effort, { local: true });
    assert.equal(local.fleet, undefined);
    assert.equal(local.fleet_total, undefined);
  });

  it('a bare repository has no main checkout: its first linked worktree is not reported as main', async () => {
    const origin = repo();
    const bare = join(tempDir('discern-bare-'), 'repo.git');
    dirs.push(join(bare, '..'));
    execFileSync('git', ['clone', '-q', '--bare', origin.root, bare], { env: cleanEnv() });
    const first = worktreeDir('first');
    const second = worktreeDir('second');
    execFileSync('git', ['-C', bare, 'worktree', 'add', '-q', first, 'main'], { env: cleanEnv() });
    execFileSync('git', ['-C', bare, 'worktree', 'add', '-q', '-b', 'agent/second', second], { env: cleanEnv() });
    const d = await statusData(realpathSync(first));
    assert.equal(d.location, 'worktree');
    assert.deepEqual(
      d.fleet?.map((f) => [f.path, f.is_main, f.is_current]),
      [
        [realpathSync(first), false, true],
        [realpathSync(second), false, false],
      ],
    );
    const fromSecond = await statusData(realpathSync(second), { all: true });
    assert.ok(
      fromSecond.fleet?.every((f) => !f.is_main),
      JSON.stringify(fromSecond.fleet),
    );
    assert.equal(fromSecond.fleet?.length, 2);
  });

  it('a broken worktree is reported, not fatal', async () => {
    const r = repo();
    const gone = worktreeDir('gone');
    r.git('worktree', 'add', '-q', '-b', 'agent/gone', gone);
    rmSync(gone, { recursive: true, force: true });
    const d = await statusData(r.root);
    const row = d.fleet?.find((f) => f.branch === 'agent/gone');
    assert.equal(row?.broken, true);
    assert.ok(row?.reason);
  });

  it('a large fleet is capped at the main row plus six, with the true total; verbose shows all', async () => {
    const r = repo();
    for (let i = 0; i < 9; i++) r.git('worktree', 'add', '-q', '-b', `agent/e${i}`, worktreeDir(`e${i}`));
    const d = await statusData(r.root);
    assert.equal(d.fleet?.length, 7);
    assert.equal(d.fleet_total, 10);
    assert.deepEqual(d.projection, { mode: 'orientation', omitted: { fleet: 3 } });
    const verbose = await statusData(r.root, { verbose: true });
    assert.equal(verbose.fleet?.length, 10);
    assert.deepEqual(verbose.projection, { mode: 'full' });
  });

  it('the default result names the verbose route; verbose does not', async () => {
    const r = repo();
    const plain = await call('status', {}, r.root);
    assert.ok(plain.hints?.some((h) => h.includes('discern status --verbose --json')));
    const verbose = await call('status', { verbose: true }, r.root);
    assert.equal(verbose.hints, undefined);
  });

  it('refuses all with local', async () => {
    const r = repo();
    assert.equal((await call('status', { all: true, local: true }, r.root)).error, 'invalid_arguments');
  });

  it('refuses outside a project, and carries the config issues of a broken discern.toml', async () => {
    const outside = tempDir('discern-status-outside-');
    dirs.push(outside);
    assert.equal((await call('status', {}, outside)).error, 'no_repository');
    const r = repo({ 'discern.toml': '[projet]\nname = "x"\n' });
    const broken = await call('status', {}, r.root);
    assert.equal(broken.error, 'unknown_key');
    assert.deepEqual(broken.data && 'issues' in broken.data ? broken.data.issues[0] : undefined, {
      kind: 'unknown_key',
      path: 'projet',
      message: 'is not a key discern honours',
      line: 1,
      column: 1,
    });
  });

  it('drove status through success and failure', () => assertDriven(['status']));
});
