// The commit proved is the commit tested, in a sparse checkout and where core.fileMode is off. Over the SDK's MCP
// client, as an agent would: a sparse checkout's paths outside its patterns are expected to be skip-worktree (the
// jobs do not see them, and the Proof says so: sparse, and the patterns' digest); skip-worktree on a path the
// patterns select, assume-unchanged anywhere, or a file present outside the patterns that git status is told to
// expect, still refuse. With core.fileMode=false a flipped exec bit is invisible to git status, yet done compares
// modes wherever the filesystem keeps them. Each case fails when its guard is removed.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { chmodSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { scratchRepo } from '../helpers/scratch-repo.js';
import { show, trustHarness } from '../helpers/trust-harness.js';
import { readSparseCheckout } from '../../src/engine/git/sparse-checkout.js';
import { renderMarkdown } from '../../src/render/markdown/index.js';
import type { DiscernResult } from '../../generated/types.js';

const { repos, tool } = trustHarness('discern-sparse-modes-');

const CONFIG = (jobs: string, project = ''): string => `[project]\nname = "sparse"\n${project}\n[jobs]\n${jobs}\n`;

interface Effort {
  path: string;
  git: (...args: string[]) => string;
}

/** An effort (a linked worktree) of a repository with files inside and outside a later sparse cone. */
async function effort(name: string, config: string, files: Record<string, string> = {}): Promise<Effort> {
  const repo = scratchRepo({
    'discern.toml': config,
    'app.txt': 'ok\n',
    'lib/code.txt': 'code\n',
    'lib/deep/more.txt': 'more\n',
    'docs/guide.txt': 'guide\n',
    'docs/deep/page.txt': 'page\n',
    ...files,
  });
  repos.push(repo);
  const started = await tool('discern_start', { name, path: repo.root });
  assert.equal(started.ok, true, show(started));
  const path = (started.data as { path: string }).path;
  const git = (...args: string[]): string => repo.git('-C', path, ...args).trim();
  return { path, git };
}

/** The effort made a sparse cone checkout of lib/, with one commit of its own under lib/. */
async function sparseEffort(name: string, jobs = 'test = "test -f lib/code.txt && test ! -e docs"'): Promise<Effort> {
  const e = await effort(name, CONFIG(jobs));
  e.git('sparse-checkout', 'set', '--cone', 'lib');
  writeFileSync(join(e.path, 'lib', 'code.txt'), 'changed\n');
  e.git('commit', '-qam', 'a change inside the cone');
  assert.equal(e.git('status', '--porcelain'), '');
  return e;
}

describe('a sparse checkout', () => {
  it('skip-worktree outside the cone is expected: green, and the Proof records sparse and the patterns', async () => {
    const e = await sparseEffort('cone');
    assert.match(e.git('ls-files', '-v', 'docs'), /^S docs\/guide\.txt$/m, 'docs/ is outside the cone');
    const done = await tool('discern_done', { path: e.path });
    assert.equal(done.ok, true, show(done));
    const proof = done.data?.['proof'] as Record<string, unknown>;
    assert.equal(proof['sparse'], true, show(proof));
    const file = join(e.git('rev-parse', '--absolute-git-dir'), 'info', 'sparse-checkout');
    const digest = createHash('sha256').update(readFileSync(file)).digest('hex');
    assert.deepEqual(proof['sparse_patterns'], { digest, cone: true });
    assert.match(String(proof['line']), /sparse checkout \(cone patterns /);
    // The marker keeps it: the reused Proof says the same.
    const again = await tool('discern_done', { path: e.path });
    assert.equal((again.data?.['proof'] as Record<string, unknown>)['sparse'], true, show(again));
  });

  it('a replay of a sparse run says it ran sparse, in a full checkout too', async () => {
    const e = await sparseEffort('replayed');
    const first = await tool('discern_done', { path: e.path });
    assert.equal(first.ok, true, show(first));
    const patterns = (first.data?.['proof'] as Record<string, unknown>)['sparse_patterns'];
    e.git('sparse-checkout', 'disable');
    e.git('commit', '-q', '--allow-empty', '-m', 'the same tree, a full checkout');
    const replayed = await tool('discern_done', { path: e.path });
    assert.equal(replayed.ok, true, show(replayed));
    assert.equal(replayed.data?.['gate_ran'], false, show(replayed));
    assert.ok(replayed.data?.['replayed_from'], show(replayed));
    const proof = replayed.data?.['proof'] as Record<string, unknown>;
    assert.equal(proof['sparse'], true, show(proof));
    assert.deepEqual(proof['sparse_patterns'], patterns);
  });

  it('skip-worktree on a file inside the cone is refused', async () => {
    const e = await sparseEffort('inside');
    // The commit holds lib/deep/more.txt; the jobs would not see it.
    e.git('update-index', '--skip-worktree', 'lib/deep/more.txt');
    rmSync(join(e.path, 'lib', 'deep', 'more.txt'));
    assert.equal(e.git('status', '--porcelain'), '', 'git status itself hides it');
    const done = await tool('discern_done', { path: e.path });
    assert.equal(done.ok, false, show(done));
    assert.equal(done.error, 'dirty_worktree', show(done));
    assert.match(done.message ?? '', /lib\/deep\/more\.txt/);
    assert.match(done.message ?? '', /inside the sparse-checkout patterns/);
  });

  it('assume-unchanged in a sparse checkout is refused, inside the cone or outside it', async () => {
    const e = await sparseEffort('assumed');
    e.git('update-index', '--assume-unchanged', 'lib/code.txt');
    writeFileSync(join(e.path, 'lib', 'code.txt'), 'what the jobs see\n');
    assert.equal(e.git('status', '--porcelain'), '', 'git status itself hides it');
    const inside = await tool('discern_done', { path: e.path });
    assert.equal(inside.ok, false, show(inside));
    assert.equal(inside.error, 'dirty_worktree', show(inside));
    assert.match(inside.message ?? '', /lib\/code\.txt/);

    e.git('update-index', '--no-assume-unchanged', 'lib/code.txt');
    e.git('checkout', '--', 'lib/code.txt');
    // Outside the cone: skip-worktree and assume-unchanged both (`s`).
    e.git('update-index', '--assume-unchanged', 'docs/guide.txt');
    assert.match(e.git('ls-files', '-v', 'docs/guide.txt'), /^s /);
    const outside = await tool('discern_done', { path: e.path });
    assert.equal(outside.ok, false, show(outside));
    assert.equal(outside.error, 'dirty_worktree', show(outside));
    assert.match(outside.message ?? '', /docs\/guide\.txt/);
  });

  it('a file present outside the cone, which git status is told to expect, is refused', async () => {
    const e = await sparseEffort('present', 'test = "! grep -q red docs/guide.txt 2>/dev/null"');
    e.git('config', '--worktree', 'sparse.expectFilesOutsideOfPatterns', 'true');
    // The jobs would see this file; git status does not compare it with the commit.
    mkdirSync(join(e.path, 'docs'));
    writeFileSync(join(e.path, 'docs', 'guide.txt'), 'red\n');
    assert.equal(e.git('status', '--porcelain'), '', 'git status itself hides it');
    const done = await tool('discern_done', { path: e.path });
    assert.equal(done.ok, false, show(done));
    assert.equal(done.error, 'dirty_worktree', show(done));
    assert.match(done.message ?? '', /docs\/guide\.txt/);
  });

  it('a job that writes a file outside the cone, unseen by git status, is tree_drift', async () => {
    const e = await sparseEffort(
      'writes',
      'test = "git config --worktree sparse.expectFilesOutsideOfPatterns true && mkdir -p docs && echo red > docs/guide.txt"',
    );
    const done = await tool('discern_done', { path: e.path });
    assert.equal(done.ok, false, show(done));
    assert.equal(done.data?.['failed_stage'], 'tree_drift', show(done));
    assert.match(show(done['diagnostics']), /docs\/guide\.txt was hidden from git status/);
  });

  it('the patterns are read as git reads them, cone and non-cone', async () => {
    const e = await effort('rules', CONFIG('test = "true"'), {
      'lib/a.md': 'a\n',
      'lib/test/b.md': 'b\n',
      'src/x.ts': 'x\n',
      'src/lib/test/y.ts': 'y\n',
      'a b/c[1].txt': 'c\n',
    });
    const gitDir = e.git('rev-parse', '--absolute-git-dir');
    const sets: string[][] = [
      ['--no-cone', '*.md', '!lib/test/'],
      ['--no-cone', '/src/', '!src/lib/', 'src/lib/test/'],
      ['--no-cone', '**/deep/**', 'a b/'],
      ['--no-cone', 'lib/*', '!lib/deep', 'docs/*.txt'],
      ['--no-cone', '[ad]*/', '!*/deep/'],
      ['--cone', 'lib/deep', 'src'],
      ['--cone', 'docs'],
    ];
    for (const set of sets) {
      e.git('sparse-checkout', 'set', '--skip-checks', ...set);
      const sparse = await readSparseCheckout(gitDir, e.path, process.env);
      assert.ok(sparse, `sparse under ${set.join(' ')}`);
      for (const entry of e.git('ls-files', '-v', '-z').split('\0').filter(Boolean)) {
        const path = entry.slice(2);
        assert.equal(sparse.selects(path), entry[0] === 'H', `${path} under ${set.join(' ')}`);
      }
    }
  });
});

describe('file modes', () => {
  it('with core.fileMode=false, a flipped exec bit is a change: done refuses it', async () => {
    const e = await effort('modes', CONFIG('test = "true"'), { 'run.sh': '#!/bin/sh\nexit 0\n' });
    writeFileSync(join(e.path, 'notes.txt'), 'a change\n');
    e.git('add', 'notes.txt');
    e.git('commit', '-qm', 'a change');
    e.git('config', 'core.fileMode', 'false');
    chmodSync(join(e.path, 'run.sh'), 0o755);
    assert.equal(e.git('status', '--porcelain'), '', 'git status itself hides it');
    const done = await tool('discern_done', { path: e.path });
    assert.equal(done.ok, false, show(done));
    assert.equal(done.error, 'dirty_worktree', show(done));
    assert.equal(done.data?.['proof'], undefined, show(done));
  });

  it('a flipped exec bit is refused without the logbook too (done reads the status itself)', async () => {
    const e = await effort('modes-quiet', CONFIG('test = "true"', 'logbook = false\n'), {
      'run.sh': '#!/bin/sh\nexit 0\n',
    });
    e.git('config', 'core.fileMode', 'false');
    chmodSync(join(e.path, 'run.sh'), 0o755);
    const done = await tool('discern_done', { path: e.path });
    assert.equal(done.ok, false, show(done));
    assert.equal(done.error, 'dirty_worktree', show(done));
  });

  it('a job that flips an exec bit is tree_drift', async () => {
    const e = await effort('modes-job', CONFIG('test = "chmod +x run.sh"'), { 'run.sh': '#!/bin/sh\nexit 0\n' });
    e.git('config', 'core.fileMode', 'false');
    const done = await tool('discern_done', { path: e.path });
    assert.equal(done.ok, false, show(done));
    assert.equal(done.data?.['failed_stage'], 'tree_drift', show(done));
  });

  it('a Proof whose modes are unverified says so in status', async () => {
    const e = await effort('modes-status', CONFIG('test = "true"'));
    const done = await tool('discern_done', { path: e.path });
    assert.equal(done.ok, true, show(done));
    // This filesystem keeps exec bits: the modes were compared.
    assert.equal((done.data?.['proof'] as Record<string, unknown>)['file_modes'], undefined, show(done));
    const status = (await tool('discern_status', { path: e.path, local: true })) as unknown as DiscernResult & {
      data: { gate_proof: { status: string; proof: Record<string, unknown> } };
    };
    assert.equal(status.data.gate_proof.status, 'honored', show(status));
    assert.doesNotMatch(renderMarkdown(status), /File modes unverified/);
    status.data.gate_proof.proof['file_modes'] = 'unverified';
    assert.match(renderMarkdown(status), /File modes unverified: this checkout's filesystem keeps no exec bits/);
  });
});
