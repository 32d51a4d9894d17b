// Project resolution on real scratch repositories: every way a path can fail to be a usable project gets its
// classified refusal, and a usable one resolves from anywhere inside it, main checkout or linked worktree.
import { describe, it, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { resolveProject, type Resolution } from '../../src/engine/project/resolve.js';
import { MINIMAL_CONFIG, cleanEnv, scratchRepo, tempDir, type ScratchRepo } from '../helpers/scratch-repo.js';

const repos: ScratchRepo[] = [];
after(() => repos.forEach((r) => r.cleanup()));

function repo(
  files: Record<string, string> = { 'discern.toml': MINIMAL_CONFIG },
  options: { commit?: boolean } = {},
): ScratchRepo {
  const r = scratchRepo(files, options);
  repos.push(r);
  return r;
}

function resolve(path: string, env: Record<string, string> = {}): Promise<Resolution> {
  return resolveProject({ path, pathFrom: 'argument', env: cleanEnv(env) });
}

function refusal(r: Resolution): { error: string; message: string } {
  assert.equal(r.ok, false, 'expected a refusal');
  return r.ok ? { error: '', message: '' } : r.refusal;
}

describe('project resolution', () => {
  it('resolves the main checkout from its root and from a subdirectory or file inside it', async () => {
    const r = repo({ 'discern.toml': MINIMAL_CONFIG, 'src/deep/file.ts': 'x' });
    for (const path of [r.root, join(r.root, 'src/deep'), join(r.root, 'src/deep/file.ts')]) {
      const result = await resolve(path);
      assert.ok(result.ok, JSON.stringify(result));
      assert.equal(result.project.root, r.root);
      assert.equal(result.project.location, 'main');
      assert.equal(result.project.trunk.name, 'main');
      assert.equal(result.project.trunk.source, 'config');
      assert.equal(result.project.config.project?.name, 'Scratch');
    }
  });

  it('resolves a linked worktree to its own root, with the shared common dir', async () => {
    const r = repo();
    const worktree = join(tempDir('discern-wt-'), 'feature');
    r.git('worktree', 'add', '-q', '-b', 'agent/feature', worktree);
    const result = await resolve(join(worktree, 'README.md'));
    assert.ok(result.ok, JSON.stringify(result));
    assert.equal(result.project.root, realpathSync(worktree));
    assert.equal(result.project.location, 'worktree');
    assert.equal(result.project.commonDir, join(r.root, '.git'));
    assert.notEqual(result.project.gitDir, result.project.commonDir);
  });

  it('refuses a relative path as invalid_arguments', async () => {
    assert.equal(refusal(await resolve('relative/dir')).error, 'invalid_arguments');
  });

  it('refuses a path that does not exist as invalid_arguments', async () => {
    assert.equal(refusal(await resolve('/definitely/not/here/discern')).error, 'invalid_arguments');
  });

  it('refuses a directory outside any repository as no_repository', async () => {
    const outside = tempDir('discern-outside-');
    const r = refusal(await resolve(outside));
    assert.equal(r.error, 'no_repository');
    assert.match(r.message, /not inside a git checkout/);
  });

  it('refuses the inside of a .git directory as no_repository', async () => {
    const r = repo();
    const result = refusal(await resolve(join(r.root, '.git')));
    assert.equal(result.error, 'no_repository');
    assert.match(result.message, /inside a git directory/);
  });

  it('refuses a checkout without discern.toml as no_project', async () => {
    const r = repo({});
    const result = await resolve(r.root);
    assert.equal(refusal(result).error, 'no_project');
    assert.ok(!result.ok && result.partial.checkout?.root === r.root, 'reports the checkout it found');
  });

  it('reports a TOML syntax error as invalid_toml with line and column', async () => {
    const r = repo({ 'discern.toml': '[project]\nname = "x"\nslug = \n' });
    const result = await resolve(r.root);
    const e = refusal(result);
    assert.equal(e.error, 'invalid_toml');
    assert.match(e.message, /line 3, column 8/);
    assert.ok(!result.ok);
    assert.deepEqual(result.partial.configIssues?.[0]?.line, 3);
  });

  it('reports an unknown key as unknown_key with its dotted path and line', async () => {
    const r = repo({ 'discern.toml': '[project]\nname = "x"\n\n[jobs]\ntest = { run = "npm test", retries = 60 }\n' });
    const result = await resolve(r.root);
    const e = refusal(result);
    assert.equal(e.error, 'unknown_key');
    assert.match(e.message, /`jobs\.test\.retries`/);
    assert.ok(!result.ok);
    assert.deepEqual(result.partial.configIssues?.[0], {
      kind: 'unknown_key',
      path: 'jobs.test.retries',
      message: 'is not a key discern honours',
      line: 5,
      column: 28,
    });
  });

  it('reports a wrong value type as invalid_config with the dotted key', async () => {
    const r = repo({ 'discern.toml': '[repository]\ntrunk = 7\n' });
    const e = refusal(await resolve(r.root));
    assert.equal(e.error, 'invalid_config');
    assert.match(e.message, /`repository\.trunk` must be string/);
  });

  it('takes the trunk from DISCERN_TRUNK over discern.toml, and refuses a missing trunk as no_trunk', async () => {
    const r = repo();
    r.git('branch', 'develop');
    const fromEnv = await resolve(r.root, { DISCERN_TRUNK: 'develop' });
    assert.ok(fromEnv.ok);
    assert.deepEqual(fromEnv.project.trunk, { name: 'develop', source: 'env', exists: true });
    const missing = refusal(await resolve(r.root, { DISCERN_TRUNK: 'release' }));
    assert.equal(missing.error, 'no_trunk');
    assert.match(missing.message, /"release" \(from DISCERN_TRUNK\)/);
  });

  it('finds the trunk as a loose ref, in packed-refs, and with a slash in its name', async () => {
    const r = repo();
    r.git('branch', 'release/1.2');
    assert.ok((await resolve(r.root, { DISCERN_TRUNK: 'release/1.2' })).ok, 'loose, nested');
    r.git('pack-refs', '--all');
    assert.ok((await resolve(r.root)).ok, 'packed');
    assert.ok((await resolve(r.root, { DISCERN_TRUNK: 'release/1.2' })).ok, 'packed, nested');
    assert.equal(
      refusal(await resolve(r.root, { DISCERN_TRUNK: 'release' })).error,
      'no_trunk',
      'a folder of refs is not a branch',
    );
    assert.equal(
      refusal(await resolve(r.root, { DISCERN_TRUNK: 'release/1' })).error,
      'no_trunk',
      'a prefix is not a branch',
    );
  });

  it('refuses a trunk that is a revision expression rather than a branch name', async () => {
    const r = repo();
    for (const name of ['main~0', 'main@{0}', 'main^']) {
      const e = refusal(await resolve(r.root, { DISCERN_TRUNK: name }));
      assert.equal(e.error, 'no_trunk', name);
      assert.match(e.message, /is not a branch name/);
    }
  });

  it('refuses a deleted working directory as no_repository, and a missing path argument as invalid_arguments', async () => {
    const gone = tempDir('discern-gone-');
    rmSync(gone, { recursive: true });
    const fromCwd = refusal(await resolveProject({ path: gone, pathFrom: 'working-directory', env: cleanEnv() }));
    assert.equal(fromCwd.error, 'no_repository');
    assert.match(fromCwd.message, /working directory .* no longer exists/);
    assert.equal(refusal(await resolve(gone)).error, 'invalid_arguments');
  });

  it('defaults the trunk to main and refuses an unborn trunk', async () => {
    const r = repo({ 'discern.toml': '[project]\nname = "x"\n' }, { commit: false });
    const e = refusal(await resolve(r.root));
    assert.equal(e.error, 'no_trunk');
    assert.match(e.message, /"main" \(from the default\)/);
  });

  it('ignores an inherited GIT_DIR that points at another repository', async () => {
    const target = repo();
    const other = repo();
    const result = await resolve(target.root, {
      GIT_DIR: join(other.root, '.git'),
      GIT_WORK_TREE: other.root,
      GIT_INDEX_FILE: join(other.root, '.git/index'),
    });
    assert.ok(result.ok);
    assert.equal(result.project.root, target.root);
  });

  it('reads discern.toml from the checkout root, not from a subdirectory', async () => {
    const r = repo({ 'discern.toml': MINIMAL_CONFIG });
    mkdirSync(join(r.root, 'pkg'));
    writeFileSync(join(r.root, 'pkg/discern.toml'), 'this is not toml');
    const result = await resolve(join(r.root, 'pkg'));
    assert.ok(result.ok);
  });
});
