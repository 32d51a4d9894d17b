// update on real scratch repositories: fast-forward, merge commit, overlap, a conflict that leaves the worktree
// untouched, dry runs, regenerations committed after the merge, and refusals.
import { describe, it, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { DiscernUpdateData } from '../../generated/types.js';
import { assertDriven, call } from '../helpers/drive.js';
import { scratchRepo, type ScratchRepo } from '../helpers/scratch-repo.js';

const repos: ScratchRepo[] = [];
after(() => repos.forEach((r) => r.cleanup()));

interface Effort {
  main: ScratchRepo;
  path: string;
  git(...args: string[]): string;
  write(file: string, text: string): void;
  commit(message: string): void;
}

/** A repository with a linked worktree on agent/work, started from main. */
function effort(extra = '', files: Record<string, string> = {}): Effort {
  const main = scratchRepo({
    'discern.toml': `[project]\nname = "update"\n\n[jobs]\ntest = "true"\n\n[scopes.docs]\npaths = ["docs/**"]\nneutral = true\n${extra}`,
    'shared.txt': 'one\ntwo\nthree\nfour\nfive\nsix\nseven\n',
    ...files,
  });
  repos.push(main);
  const path = `${main.root}.worktrees/work`;
  main.git('worktree', 'add', '-q', '-b', 'agent/work', path, 'main');
  const git = (...args: string[]): string => main.git('-C', path, ...args);
  return {
    main,
    path,
    git,
    write: (file, text) => writeFileSync(join(path, file), text),
    commit: (message) => {
      git('add', '-A');
      git('commit', '-q', '-m', message);
    },
  };
}

function updated(result: Awaited<ReturnType<typeof call>>): DiscernUpdateData {
  assert.ok(result.ok, JSON.stringify(result, null, 2));
  assert.ok(result.verb === 'update' && result.data && 'behind' in result.data);
  return result.data;
}

function mainCommit(e: Effort, file: string, text: string, message: string): string {
  e.main.write(file, text);
  e.main.commit(message);
  return e.main.git('rev-parse', 'HEAD').trim();
}

describe('update', () => {
  it('fast-forwards a branch with no commits of its own and reports what came in', async () => {
    const e = effort();
    const tip = mainCommit(e, 'docs/guide.md', 'a\nb\n', 'Add the guide');
    const result = await call('update', {}, e.path);
    const d = updated(result);
    assert.equal(d.behind, 1);
    assert.equal(d.fast_forward, true);
    assert.deepEqual(d.commits, [{ sha: tip, subject: 'Add the guide' }]);
    assert.deepEqual(d.files, [{ path: 'docs/guide.md', status: 'A', added: 2, removed: 0 }]);
    assert.deepEqual(d.scopes_incoming, ['docs']);
    assert.equal(d.range.after, tip);
    assert.equal(e.git('rev-parse', 'HEAD').trim(), tip);
  });

  it('merges with a merge commit when both sides moved, and names the paths both changed', async () => {
    const e = effort();
    e.write('shared.txt', 'ONE\ntwo\nthree\nfour\nfive\nsix\nseven\n');
    e.write('mine.txt', 'mine\n');
    e.commit('Change the top');
    mainCommit(e, 'shared.txt', 'one\ntwo\nthree\nfour\nfive\nsix\nSEVEN\n', 'Change the bottom');
    const before = e.git('rev-parse', 'HEAD').trim();
    const result = await call('update', {}, e.path);
    const d = updated(result);
    assert.equal(d.fast_forward, false);
    assert.deepEqual(d.overlap, ['shared.txt']);
    assert.match(result.hints?.[0] ?? '', /Both sides changed 1 of the same paths/);
    const parents = e.git('rev-list', '--parents', '-n', '1', 'HEAD').trim().split(' ');
    assert.equal(parents.length, 3, 'a merge commit');
    assert.equal(parents[1], before);
    assert.equal(e.git('show', 'HEAD:shared.txt'), 'ONE\ntwo\nthree\nfour\nfive\nsix\nSEVEN\n');
    assert.equal(e.git('status', '--porcelain').trim(), '');
  });

  it('a conflict refuses with the paths and leaves the worktree exactly as it was', async () => {
    const e = effort();
    e.write('shared.txt', 'mine\ntwo\nthree\nfour\nfive\nsix\nseven\n');
    e.commit('Mine');
    mainCommit(e, 'shared.txt', 'theirs\ntwo\nthree\nfour\nfive\nsix\nseven\n', 'Theirs');
    const before = e.git('rev-parse', 'HEAD').trim();
    const result = await call('update', {}, e.path);
    assert.equal(result.error, 'conflict');
    assert.ok(result.verb === 'update' && result.data && 'conflicts' in result.data);
    assert.deepEqual(result.data.conflicts, ['shared.txt']);
    assert.equal(e.git('rev-parse', 'HEAD').trim(), before);
    assert.equal(e.git('status', '--porcelain').trim(), '');
    const gitDir = e.git('rev-parse', '--absolute-git-dir').trim();
    assert.ok(!existsSync(join(gitDir, 'MERGE_HEAD')), 'no merge in progress');
  });

  it('already up to date is a success that changes nothing', async () => {
    const e = effort();
    const result = await call('update', {}, e.path);
    const d = updated(result);
    assert.equal(d.behind, 0);
    assert.equal(result.steps, undefined);
    assert.match(result.hints?.[0] ?? '', /already contains main/);
  });

  it('a dry run computes everything and changes nothing', async () => {
    const e = effort();
    e.write('mine.txt', 'x\n');
    e.commit('Mine');
    mainCommit(e, 'theirs.txt', 'y\n', 'Theirs');
    const before = e.git('rev-parse', 'HEAD').trim();
    const result = await call('update', { dry_run: true }, e.path);
    const d = updated(result);
    assert.equal(result.dry_run, true);
    assert.equal(d.behind, 1);
    assert.deepEqual(
      result.plan?.steps.map((s) => s.kind),
      ['merge-check', 'git'],
    );
    assert.equal(e.git('rev-parse', 'HEAD').trim(), before);
  });

  it('re-runs [generated] regenerations after the merge and commits their output', async () => {
    const e = effort(
      '\n[generated.count]\npaths = ["gen/**"]\nrun = "mkdir -p gen && ls *.txt | wc -l | tr -d \' \' > gen/count"\n',
    );
    e.write('mine.txt', 'x\n');
    e.commit('Mine');
    mainCommit(e, 'theirs.txt', 'y\n', 'Theirs');
    const result = await call('update', {}, e.path);
    const d = updated(result);
    assert.deepEqual(d.regenerated, ['count']);
    assert.equal(e.git('show', 'HEAD:gen/count').trim(), '3');
    assert.equal(e.git('log', '-1', '--format=%s').trim(), 'Regenerate after merging main: count');
    assert.equal(d.range.after, e.git('rev-parse', 'HEAD').trim());
    assert.equal(e.git('status', '--porcelain').trim(), '');
  });

  it('a generator writing outside its paths fails after the merge, committing nothing of it', async () => {
    const e = effort('\n[generated.stray]\npaths = ["gen/**"]\nrun = "echo x > stray.out"\n');
    e.write('mine.txt', 'x\n');
    e.commit('Mine');
    mainCommit(e, 'theirs.txt', 'y\n', 'Theirs');
    const result = await call('update', {}, e.path);
    assert.equal(result.error, 'partial_materialization');
    assert.match(result.message ?? '', /The merge is done .* wrote outside every \[generated\] path \(stray\.out\)/);
    assert.equal(
      result.hints?.at(-1),
      'Read the steps for what happened, then fix the generator, commit its output, then call discern_done.',
    );
    assert.equal(e.git('log', '-1', '--format=%s').trim(), 'Merge main into agent/work');
  });

  it('a generator that fails after the merge is partial_materialization; the merge stands, its output uncommitted', async () => {
    const e = effort('\n[generated.half]\npaths = ["gen/**"]\nrun = "mkdir -p gen && echo part > gen/a && exit 3"\n');
    e.write('mine.txt', 'x\n');
    e.commit('Mine');
    mainCommit(e, 'theirs.txt', 'y\n', 'Theirs');
    const result = await call('update', {}, e.path);
    assert.equal(result.error, 'partial_materialization');
    assert.match(
      result.message ?? '',
      /The merge is done \([0-9a-f]{12}\), but generated:half failed; its partial output is left uncommitted\./,
    );
    assert.equal(result.steps?.find((s) => s.label === 'generated:half')?.outcome, 'failed');
    assert.equal(e.git('log', '-1', '--format=%s').trim(), 'Merge main into agent/work');
    assert.equal(e.git('status', '--porcelain').trim(), '?? gen/');
  });

  it('refuses a dirty tree, a detached HEAD and a from that names nothing', async () => {
    const e = effort();
    e.write('loose.txt', 'x\n');
    assert.equal((await call('update', {}, e.path)).error, 'dirty_worktree');
    e.git('clean', '-fq');
    e.git('checkout', '-q', '--detach');
    assert.equal((await call('update', {}, e.path)).error, 'detached_head');
    e.git('checkout', '-q', 'agent/work');
    const missing = await call('update', { from: 'nope' }, e.path);
    assert.equal(missing.error, 'invalid_value');
  });

  it('merges another ref given as from, and reports binary files without line counts', async () => {
    const e = effort();
    e.main.git('checkout', '-q', '-b', 'release');
    e.main.write('logo.bin', '\u0000\u0001\u0002');
    e.main.commit('Add the logo');
    e.main.git('checkout', '-q', 'main');
    const d = updated(await call('update', { from: 'release' }, e.path));
    assert.deepEqual(d.files, [{ path: 'logo.bin', status: 'A', added: null, removed: null }]);
  });

  it('drove update through success and failure', () => assertDriven(['update']));
});
