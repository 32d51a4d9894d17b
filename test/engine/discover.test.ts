// In-process checkout discovery against what git itself answers: every case it recognises must agree with
// `git rev-parse` exactly, and every case it does not must be left to git (undefined), never guessed.
import { describe, it, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { discoverCheckout } from '../../src/engine/git/discover.js';
import { cleanEnv, scratchRepo, tempDir, type ScratchRepo } from '../helpers/scratch-repo.js';

const repos: ScratchRepo[] = [];
after(() => {
  for (const r of repos) r.cleanup();
});

function repo(): ScratchRepo {
  const r = scratchRepo({ 'src/a.txt': 'a\n' });
  repos.push(r);
  return r;
}

function gitSays(start: string): {
  root: string;
  gitDir: string;
  commonDir: string;
  location: string;
  shallow: boolean;
} {
  const out = execFileSync(
    'git',
    [
      'rev-parse',
      '--path-format=absolute',
      '--show-toplevel',
      '--absolute-git-dir',
      '--git-common-dir',
      '--is-shallow-repository',
    ],
    { cwd: start, env: cleanEnv(), encoding: 'utf8' },
  );
  const [root = '', gitDir = '', commonDir = '', shallow] = out.split('\n');
  return { root, gitDir, commonDir, location: gitDir === commonDir ? 'main' : 'worktree', shallow: shallow === 'true' };
}

describe('discoverCheckout agrees with git rev-parse', () => {
  it('at the root and in a subdirectory of a main checkout', () => {
    const r = repo();
    assert.deepEqual(discoverCheckout(r.root), gitSays(r.root));
    assert.deepEqual(discoverCheckout(join(r.root, 'src')), gitSays(join(r.root, 'src')));
  });
  it('in a linked worktree and its subdirectory', () => {
    const r = repo();
    const wt = join(tempDir(), 'wt');
    r.git('worktree', 'add', '-q', '-b', 'agent/x', wt);
    assert.deepEqual(discoverCheckout(wt), gitSays(wt));
    assert.deepEqual(discoverCheckout(join(wt, 'src')), gitSays(join(wt, 'src')));
    assert.equal(discoverCheckout(wt)?.location, 'worktree');
  });
  it('through a symbolic link to the checkout (git reports physical paths)', () => {
    const r = repo();
    const link = join(tempDir(), 'link');
    symlinkSync(r.root, link);
    const found = discoverCheckout(link);
    assert.ok(found === undefined || JSON.stringify(found) === JSON.stringify(gitSays(link)), JSON.stringify(found));
  });
  it('in a shallow clone', () => {
    const r = repo();
    r.write('b.txt', 'b\n');
    r.commit('second');
    const clone = join(tempDir(), 'shallow');
    execFileSync('git', ['clone', '-q', '--depth', '1', `file://${r.root}`, clone], { env: cleanEnv() });
    assert.deepEqual(discoverCheckout(clone), gitSays(clone));
    assert.equal(discoverCheckout(clone)?.shallow, true);
  });
});

describe('discoverCheckout leaves to git what it does not recognise', () => {
  it('inside a .git directory', () => {
    const r = repo();
    assert.equal(discoverCheckout(join(r.root, '.git')), undefined);
    assert.equal(discoverCheckout(join(r.root, '.git', 'refs')), undefined);
  });
  it('a link inside a checkout to a folder outside it, and a path that steps out with .. (git: not a repository)', () => {
    // git changes into the directory first, so both name the folder they reach, never the checkout around them.
    const r = repo();
    const outside = tempDir();
    symlinkSync(outside, join(r.root, 'out'));
    assert.equal(discoverCheckout(join(r.root, 'out')), undefined);
    assert.equal(discoverCheckout(`${r.root}/../${outside.split('/').pop() ?? ''}`), undefined);
    assert.deepEqual(
      discoverCheckout(`${outside}/../${r.root.split('/').pop() ?? ''}/src`),
      gitSays(join(r.root, 'src')),
    );
  });
  it('outside any repository', () => {
    assert.equal(discoverCheckout(tempDir()), undefined);
  });
  it('a repository whose config moves the work tree or makes it bare', () => {
    const r = repo();
    r.git('config', 'core.worktree', r.root);
    assert.equal(discoverCheckout(r.root), undefined);
    const b = repo();
    b.git('config', 'core.bare', 'true');
    assert.equal(discoverCheckout(b.root), undefined);
  });
  it('a submodule, whose config names its work tree (core.worktree)', () => {
    const sub = repo();
    const sup = repo();
    sup.git('-c', 'protocol.file.allow=always', 'submodule', 'add', '-q', sub.root, 'vendor/sub');
    assert.equal(discoverCheckout(join(sup.root, 'vendor', 'sub')), undefined);
  });
  it('a .git file whose git dir does not point back (a moved worktree)', () => {
    const dir = tempDir();
    mkdirSync(join(dir, 'gitdir'));
    writeFileSync(join(dir, 'gitdir', 'commondir'), '../common\n');
    writeFileSync(join(dir, 'gitdir', 'gitdir'), '/somewhere/else/.git\n');
    writeFileSync(join(dir, '.git'), `gitdir: ${join(dir, 'gitdir')}\n`);
    assert.equal(discoverCheckout(dir), undefined);
  });
});
