// Setup at its edges. A setup finished outside discern: its branch merged by hand and deleted, so the trunk commits a discern.toml
// and no setup is in progress. The repository is set up: the work loop runs, status reports no setup, and
// setup accept says there is nothing left to land instead of pointing back at setup begin.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
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

test('setup done commits the agents’ files git can commit and leaves ignored ones written but out of the commit', async () => {
  const repo = scratchRepo({ 'package.json': JSON.stringify({ name: 'ignores-vscode', scripts: { test: 'true' } }), '.gitignore': '.vscode/\n' });
  const begun = await call('setupBegin', {}, repo.root, {}, 'cli');
  assert.equal(begun.ok, true, JSON.stringify(begun));
  const file = join(repo.root, 'discern.toml');
  writeFileSync(file, readFileSync(file, 'utf8').replace('agents = ["claude_code", "codex"]', 'agents = ["claude_code", "copilot"]'));
  const git = (...args: string[]): string => execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], { cwd: repo.root, encoding: 'utf8' });
  git('commit', '-q', '-am', 'Copilot works here too');
  const done = await call('setupDone', {}, repo.root, {}, 'cli');
  assert.equal(done.ok, true, JSON.stringify(done));
  const step = done.steps?.find((s) => s.kind === 'refresh');
  assert.match(step?.note ?? '', /written but not committed, the ignore rules cover them: \.vscode\/mcp\.json/);
  assert.ok(existsSync(join(repo.root, '.vscode/mcp.json')), 'the ignored file is written for this checkout');
  const committed = git('show', '--name-only', '--format=', 'HEAD').split('\n');
  assert.ok(committed.includes('AGENTS.md') && committed.includes('CLAUDE.md'));
  assert.ok(!committed.includes('.vscode/mcp.json'));
  assert.equal(git('status', '--porcelain'), '', 'nothing is left staged or half-committed');
});
