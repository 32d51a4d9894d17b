// A setup finished outside discern: its branch merged by hand and deleted, so the trunk commits a discern.toml
// and no setup is in progress. The repository is set up: the work loop runs, status reports no setup, and
// setup accept says there is nothing left to land instead of pointing back at setup begin.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { test } from 'node:test';
import type { DiscernStatusData } from '../../generated/types.js';
import { call } from '../helpers/drive.js';
import { scratchRepo } from '../helpers/scratch-repo.js';

test('a setup branch merged by hand and deleted leaves a set-up repository, not a stuck setup', async () => {
  const repo = scratchRepo({ 'package.json': JSON.stringify({ name: 'merged-by-hand', scripts: { test: 'true' } }) });
  const begun = await call('setupBegin', {}, repo.root, {}, 'cli');
  assert.equal(begun.ok, true, JSON.stringify(begun));
  const gated = await call('done', {}, repo.root, {}, 'cli');
  assert.equal(gated.error, 'setup_unfinished', 'mid-setup, the work loop waits');
  const git = (...args: string[]): string => execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], { cwd: repo.root, encoding: 'utf8' });
  git('switch', '-q', 'main');
  git('merge', '-q', '--ff-only', 'discern/setup');
  git('branch', '-q', '-D', 'discern/setup');
  const status = await call('status', {}, repo.root, {}, 'cli');
  assert.equal(status.ok, true, JSON.stringify(status));
  assert.equal((status.data as DiscernStatusData).setup_unfinished, undefined);
  const done = await call('done', {}, repo.root, {}, 'cli');
  assert.notEqual(done.error, 'setup_unfinished', JSON.stringify(done));
  const accept = await call('setupAccept', {}, repo.root, {}, 'cli');
  assert.equal(accept.error, 'precondition_failed');
  assert.match(accept.message ?? '', /has its own committed discern\.toml, so the repository is set up/);
});
