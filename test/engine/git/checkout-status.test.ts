// One strict `git status` stands in for several reads (docs/decisions/0043): each view derived from it must equal
// the read it replaces, on real repositories in many states — edits, staged and unstaged, renames, deletions,
// untracked files in new directories, ignored files, paths with spaces and newlines, a nested repository, and
// submodules whose configured ignore rules hide what the strict read shows.
import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { git } from '../../../src/engine/git/git.js';
import { parseCheckoutStatus, readCheckoutStatus } from '../../../src/engine/git/checkout-status.js';
import { readWorkingState, workingStateFrom } from '../../../src/engine/git/porcelain-status.js';
import { dirtySetFrom, readDirtySet } from '../../../src/engine/gate/dirty-set.js';
import { lookAtTree } from '../../../src/engine/logbook/tree-probe.js';
import { parseNumstat, parseRaw, splitRawNumstat } from '../../../src/engine/checkpoints/change-facts.js';
import { cleanEnv, scratchRepo, tempDir, type ScratchRepo } from '../../helpers/scratch-repo.js';

const env = cleanEnv({ GIT_CONFIG_NOSYSTEM: '1' });
const repos: ScratchRepo[] = [];
after(() => repos.forEach((r) => r.cleanup()));

const NAMES = [
  'a.txt',
  'src/b.ts',
  'src/deep/c.md',
  'with space.txt',
  'new\nline.txt',
  'quote"d.txt',
  'build/out.js',
  'docs/ü.md',
];

type Op =
  | { kind: 'edit'; file: number; stage: boolean }
  | { kind: 'delete'; file: number; stage: boolean }
  | { kind: 'rename'; file: number; to: number }
  | { kind: 'untracked'; file: number }
  | { kind: 'ignored'; file: number }
  | { kind: 'nested-repo' };

const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ kind: fc.constant('edit' as const), file: fc.nat(NAMES.length - 1), stage: fc.boolean() }),
  fc.record({ kind: fc.constant('delete' as const), file: fc.nat(NAMES.length - 1), stage: fc.boolean() }),
  fc.record({ kind: fc.constant('rename' as const), file: fc.nat(NAMES.length - 1), to: fc.nat(NAMES.length - 1) }),
  fc.record({ kind: fc.constant('untracked' as const), file: fc.nat(NAMES.length - 1) }),
  fc.record({ kind: fc.constant('ignored' as const), file: fc.nat(NAMES.length - 1) }),
  fc.constant({ kind: 'nested-repo' as const }),
);

function write(root: string, path: string, text: string): void {
  mkdirSync(dirname(join(root, path)), { recursive: true });
  writeFileSync(join(root, path), text);
}

function apply(r: ScratchRepo, o: Op): void {
  const tracked = NAMES[('file' in o ? o.file : 0) % 4] ?? 'a.txt'; // the first four are committed
  try {
    switch (o.kind) {
      case 'edit':
        write(r.root, tracked, `edited ${Math.random()}\n`);
        if (o.stage) r.git('add', '--', tracked);
        break;
      case 'delete':
        if (o.stage) r.git('rm', '-q', '--cached', '--ignore-unmatch', '--', tracked);
        rmSync(join(r.root, tracked), { force: true });
        break;
      case 'rename':
        r.git('mv', '-k', '--', tracked, `moved/${o.to}-${tracked.replace(/\//g, '_')}`);
        break;
      case 'untracked':
        write(r.root, `new/${NAMES[o.file] ?? 'x'}`, 'untracked\n');
        break;
      case 'ignored':
        write(r.root, `ignored/${NAMES[o.file] ?? 'x'}`, 'ignored\n');
        break;
      case 'nested-repo':
        mkdirSync(join(r.root, 'vendor/inner'), { recursive: true });
        execFileSync('git', ['init', '-q'], { cwd: join(r.root, 'vendor/inner'), env });
        break;
    }
  } catch {
    // An operation that makes no sense in the state reached (moving a file already moved) is skipped.
  }
}

function freshRepo(): ScratchRepo {
  const r = scratchRepo({
    '.gitignore': 'ignored/\n*.log\n',
    'a.txt': 'a\n',
    'src/b.ts': 'b\n',
    'src/deep/c.md': 'c\n',
    'with space.txt': 's\n',
  });
  repos.push(r);
  return r;
}

describe('one strict status answers what the separate reads answered', () => {
  it('the working state, the dirty set and the logbook look equal the reads they replace', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 0, maxLength: 6 }), async (ops) => {
        const r = freshRepo();
        for (const o of ops) apply(r, o);
        const read = await readCheckoutStatus(r.root, env);
        assert.ok(read.ok);
        assert.equal(read.status.submoduleEntries, false);
        assert.deepEqual(await workingStateFrom(read, r.root, env), await readWorkingState(r.root, env));
        assert.deepEqual(await dirtySetFrom(read, r.root, env), await readDirtySet(r.root, env));
        const look = await lookAtTree(r.root, env);
        assert.equal(read.status.clean, look?.clean);
        assert.equal(read.status.head, look?.head);
        // The change set skips `ls-files --others` when the status listed no untracked file: it lists none either.
        const others = await git(['ls-files', '--others', '--exclude-standard', '-z'], { cwd: r.root, env });
        const state = await readWorkingState(r.root, env);
        assert.equal(state.untracked === 0, others.stdout === '');
        r.cleanup();
      }),
      { numRuns: 12 },
    );
  });

  it('reads the branch and HEAD from the header; a tag named like the branch changes neither', async () => {
    const r = freshRepo();
    r.git('tag', 'main');
    const read = await readCheckoutStatus(r.root, env);
    assert.ok(read.ok);
    assert.equal(read.status.branch, 'main');
    assert.equal(read.status.head, r.git('rev-parse', 'HEAD').trim());
    r.git('checkout', '-q', '--detach');
    const detached = await readCheckoutStatus(r.root, env);
    assert.ok(detached.ok);
    assert.equal(detached.status.branch, null);
  });

  it('a submodule its configuration ignores: the strict read sees it, the default views are read again', async () => {
    const sub = freshRepo();
    const r = freshRepo();
    r.git('-c', 'protocol.file.allow=always', 'submodule', '-q', 'add', sub.root, 'sm');
    r.commit('submodule');
    r.git('config', 'submodule.sm.ignore', 'all');
    writeFileSync(join(r.root, 'sm/a.txt'), 'changed inside the submodule\n');
    const read = await readCheckoutStatus(r.root, env);
    assert.ok(read.ok);
    assert.equal(read.status.submoduleEntries, true);
    assert.equal(read.status.clean, false);
    assert.equal((await lookAtTree(r.root, env))?.clean, false);
    const state = await workingStateFrom(read, r.root, env);
    assert.deepEqual(state, await readWorkingState(r.root, env));
    assert.equal(state.changed, 0); // the configured rule hides it from done's own view, as before
    assert.deepEqual(await dirtySetFrom(read, r.root, env), await readDirtySet(r.root, env));
  });

  it('a failed read fails each view the way its own read fails', async () => {
    const dir = tempDir('discern-not-a-repo-');
    const read = await readCheckoutStatus(dir, env);
    assert.equal(read.ok, false);
    await assert.rejects(workingStateFrom(read, dir, env), /git status failed in/);
    await assert.rejects(dirtySetFrom(read, dir, env), /git status failed in/);
  });

  it('parses a rename without taking its original path for an entry', () => {
    const out =
      [
        '# branch.oid abc',
        '# branch.head main',
        '2 R. N... 100644 100644 100644 1 1 R100 1 .M S... new',
        '1 .M S.M. 160000 160000 160000 a a sub',
      ].join('\0') + '\0';
    const parsed = parseCheckoutStatus(out);
    assert.equal(parsed.submoduleEntries, false, 'the original path of a rename is a path, not an entry');
    assert.equal(parsed.clean, false);
  });
});

describe('one diff prints the raw records and the line counts', () => {
  it('splits into exactly what the two diffs print', async () => {
    const r = freshRepo();
    const base = r.git('rev-parse', 'HEAD').trim();
    write(r.root, 'a.txt', 'a\nmore\n');
    write(r.root, 'bin.dat', '\0\u0001binary');
    write(r.root, 'new\nline.txt', 'n\n');
    write(r.root, ':colon.txt', 'c\n');
    write(r.root, '1\t2\tx', 'tabs\n');
    rmSync(join(r.root, 'src/b.ts'));
    r.commit('change');
    const o = { cwd: r.root, env };
    const both = await git(
      [
        'diff',
        '--raw',
        '--numstat',
        '-z',
        '--no-renames',
        '--full-index',
        '--no-ext-diff',
        '--no-textconv',
        base,
        'HEAD',
        '--',
      ],
      o,
    );
    const raw = await git(
      ['diff', '--raw', '-z', '--no-renames', '--full-index', '--no-ext-diff', base, 'HEAD', '--'],
      o,
    );
    const numstat = await git(
      ['diff', '--numstat', '-z', '--no-renames', '--no-ext-diff', '--no-textconv', base, 'HEAD', '--'],
      o,
    );
    const split = splitRawNumstat(both.stdout);
    assert.equal(split.raw, raw.stdout);
    assert.equal(split.numstat, numstat.stdout);
    assert.deepEqual(parseRaw(split.raw), parseRaw(raw.stdout));
    assert.deepEqual(parseNumstat(split.numstat), parseNumstat(numstat.stdout));
    assert.deepEqual(splitRawNumstat(''), { raw: '', numstat: '' });
  });
});
