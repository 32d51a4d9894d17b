// The parsers of git's -z machine formats, on written samples for every record shape (including paths that
// look like records), then on real git output from a scratch repository.
import { describe, it, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { rmSync } from 'node:fs';
import { parseNameStatus } from '../../../src/engine/git/change-set.js';
import { parsePorcelainStatus } from '../../../src/engine/git/porcelain-status.js';
import { parseWorktreeList } from '../../../src/engine/git/worktree-list.js';
import { scratchRepo, tempDir, type ScratchRepo } from '../../helpers/scratch-repo.js';

const z = (...fields: string[]): string => `${fields.join('\0')}\0`;
const OID = 'a'.repeat(40);
const repos: ScratchRepo[] = [];
const dirs: string[] = [];
after(() => {
  repos.forEach((r) => r.cleanup());
  dirs.forEach((d) => rmSync(d, { recursive: true, force: true }));
});

describe('parsePorcelainStatus', () => {
  it('reads the branch header and counts changed and untracked paths', () => {
    const out = z(
      `# branch.oid ${OID}`,
      '# branch.head main',
      '# branch.upstream origin/main',
      '# branch.ab +1 -2',
      '1 .M N... 100644 100644 100644 h1 h2 dir with space/a b.txt',
      '1 A. N... 000000 100644 100644 h0 h2 new\nline.txt',
      'u UU N... 100644 100644 100644 100644 h1 h2 h3 conflicted.txt',
      '? untracked.txt',
      '! ignored.txt',
    );
    assert.deepEqual(parsePorcelainStatus(out), {
      branch: 'main',
      head: OID,
      detached: false,
      unborn: false,
      changed: 4,
      untracked: 1,
      paths: ['dir with space/a b.txt', 'new\nline.txt', 'conflicted.txt', 'untracked.txt'],
    });
  });
  it("skips a rename's original path, even one that looks like a record", () => {
    const out = z(
      `# branch.oid ${OID}`,
      '# branch.head main',
      '2 R. N... 100644 100644 100644 h1 h1 R100 renamed.txt',
      '? not untracked',
      '2 C. N... 100644 100644 100644 h1 h1 C75 copy.txt',
      '1 .M x',
    );
    assert.deepEqual(parsePorcelainStatus(out), {
      branch: 'main',
      head: OID,
      detached: false,
      unborn: false,
      changed: 2,
      untracked: 0,
      paths: ['renamed.txt', 'copy.txt'],
    });
  });
  it('an unborn branch and a detached HEAD', () => {
    assert.deepEqual(parsePorcelainStatus(z('# branch.oid (initial)', '# branch.head fresh')), {
      branch: 'fresh',
      head: null,
      detached: false,
      unborn: true,
      changed: 0,
      untracked: 0,
      paths: [],
    });
    assert.deepEqual(parsePorcelainStatus(z(`# branch.oid ${OID}`, '# branch.head (detached)')), {
      branch: null,
      head: OID,
      detached: true,
      unborn: false,
      changed: 0,
      untracked: 0,
      paths: [],
    });
  });
  it('empty output is a clean, unnamed state', () => {
    assert.deepEqual(parsePorcelainStatus(''), {
      branch: null,
      head: null,
      detached: false,
      unborn: false,
      changed: 0,
      untracked: 0,
      paths: [],
    });
  });
  it('agrees with real git output', () => {
    const r = scratchRepo({ 'a.txt': 'a', 'b.txt': 'b' });
    repos.push(r);
    r.git('mv', 'a.txt', '? tricky.txt');
    r.write('b.txt', 'changed');
    r.write('new\nfile', 'x');
    const state = parsePorcelainStatus(r.git('status', '--porcelain=v2', '-z', '--branch', '--untracked-files=all'));
    assert.deepEqual([state.branch, state.changed, state.untracked], ['main', 3, 1]);
    assert.deepEqual([...state.paths].sort(), ['? tricky.txt', 'b.txt', 'new\nfile']);
  });
});

describe('parseWorktreeList', () => {
  it('reads each record: main, branch, detached, locked and prunable with and without reasons', () => {
    const out = [
      z('worktree /repo', `HEAD ${OID}`, 'branch refs/heads/main'),
      z('worktree /wt/detached', `HEAD ${OID}`, 'detached'),
      z('worktree /wt/locked', `HEAD ${OID}`, 'branch refs/heads/agent/x', 'locked'),
      z('worktree /wt/why', `HEAD ${OID}`, 'branch refs/heads/feature/refs/heads/y', 'locked on a USB disk'),
      z(
        'worktree /wt/gone',
        `HEAD ${OID}`,
        'branch refs/heads/old',
        'prunable gitdir file points to non-existent location',
      ),
      z('worktree /wt/new\nline', `HEAD ${'0'.repeat(40)}`, 'branch refs/heads/unborn'),
    ].join('');
    assert.deepEqual(parseWorktreeList(out), [
      { path: '/repo', head: OID, branch: 'main', bare: false, locked: null, prunable: null },
      { path: '/wt/detached', head: OID, branch: null, bare: false, locked: null, prunable: null },
      { path: '/wt/locked', head: OID, branch: 'agent/x', bare: false, locked: 'locked', prunable: null },
      {
        path: '/wt/why',
        head: OID,
        branch: 'feature/refs/heads/y',
        bare: false,
        locked: 'on a USB disk',
        prunable: null,
      },
      {
        path: '/wt/gone',
        head: OID,
        branch: 'old',
        bare: false,
        locked: null,
        prunable: 'gitdir file points to non-existent location',
      },
      { path: '/wt/new\nline', head: null, branch: 'unborn', bare: false, locked: null, prunable: null },
    ]);
  });
  it("marks a bare repository's own record", () => {
    assert.deepEqual(
      parseWorktreeList(
        z('worktree /bare.git', 'bare') + z('worktree /wt', `HEAD ${OID}`, 'branch refs/heads/main'),
      ).map((r) => [r.path, r.bare]),
      [
        ['/bare.git', true],
        ['/wt', false],
      ],
    );
  });
  it('is empty for empty output', () => assert.deepEqual(parseWorktreeList(''), []));
  it('agrees with real git output', () => {
    const r = scratchRepo();
    repos.push(r);
    const dir = tempDir('discern-parse-wt-');
    dirs.push(dir);
    r.git('worktree', 'add', '-q', '-b', 'agent/a', join(dir, 'a b'));
    r.git('worktree', 'lock', '--reason', 'kept', join(dir, 'a b'));
    const records = parseWorktreeList(r.git('worktree', 'list', '--porcelain', '-z'));
    assert.deepEqual(
      records.map((x) => [x.path, x.branch, x.locked]),
      [
        [r.root, 'main', null],
        [join(dir, 'a b'), 'agent/a', 'kept'],
      ],
    );
  });
});

describe('parseNameStatus', () => {
  it('reads one path per status, two for renames and copies; only a rename has a from', () => {
    const out = z(
      'M',
      'src/a.ts',
      'A',
      'with space.txt',
      'D',
      'gone',
      'R100',
      'old name',
      'new name',
      'C75',
      'source.ts',
      'copy.ts',
      'T',
      'link',
      'M',
      'new\nline',
    );
    assert.deepEqual(parseNameStatus(out), [
      { path: 'src/a.ts' },
      { path: 'with space.txt' },
      { path: 'gone' },
      { path: 'new name', from: 'old name' },
      { path: 'copy.ts' },
      { path: 'link' },
      { path: 'new\nline' },
    ]);
  });
  it('paths that look like statuses are still paths', () => {
    assert.deepEqual(parseNameStatus(z('A', 'R100', 'M', 'C50')), [{ path: 'R100' }, { path: 'C50' }]);
  });
  it('is empty for empty output', () => assert.deepEqual(parseNameStatus(''), []));
  it('agrees with real git output', () => {
    const r = scratchRepo({ 'keep.txt': 'a\nb\nc\nd\ne\n', 'drop.txt': 'x' });
    repos.push(r);
    const base = r.git('rev-parse', 'HEAD').trim();
    r.git('mv', 'keep.txt', 'R100');
    r.git('rm', '-q', 'drop.txt');
    r.write('added.txt', 'new');
    r.commit('change');
    assert.deepEqual(parseNameStatus(r.git('diff', '--name-status', '-z', '-M', base, 'HEAD')), [
      { path: 'R100', from: 'keep.txt' },
      { path: 'added.txt' },
      { path: 'drop.txt' },
    ]);
  });
});
