// Setup at its edges. A setup finished outside discern: its branch merged by hand and deleted, so the trunk commits a discern.toml
// and no setup is in progress. The repository is set up: the work loop runs, status reports no setup, and
// setup accept says there is nothing left to land instead of pointing back at setup begin. And each setup verb,
// in process, refusing what it cannot do yet and going on once the cause is fixed.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
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
  const git = (...args: string[]): string =>
    execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], { cwd: repo.root, encoding: 'utf8' });
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
  const repo = scratchRepo({
    'package.json': JSON.stringify({ name: 'ignores-vscode', scripts: { test: 'true' } }),
    '.gitignore': '.vscode/\n',
  });
  const begun = await call('setupBegin', {}, repo.root, {}, 'cli');
  assert.equal(begun.ok, true, JSON.stringify(begun));
  const file = join(repo.root, 'discern.toml');
  writeFileSync(
    file,
    readFileSync(file, 'utf8').replace('agents = ["claude_code", "codex"]', 'agents = ["claude_code", "copilot"]'),
  );
  const git = (...args: string[]): string =>
    execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], { cwd: repo.root, encoding: 'utf8' });
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

test('in process, each setup verb refuses what it cannot do yet and goes on once the cause is fixed', async () => {
  const repo = scratchRepo({ 'package.json': JSON.stringify({ name: 'step-by-step', scripts: { test: 'true' } }) });
  const git = (...args: string[]): string =>
    execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], { cwd: repo.root, encoding: 'utf8' });
  const file = join(repo.root, 'discern.toml');
  const setJob = (command: string, message: string): void => {
    writeFileSync(file, readFileSync(file, 'utf8').replace(/^test = .*$/m, `test = ${JSON.stringify(command)}`));
    git('commit', '-q', '-am', message);
  };
  writeFileSync(join(repo.root, 'stray.txt'), 'x\n');
  const dirty = await call('setupBegin', {}, repo.root, {}, 'cli');
  assert.equal(dirty.error, 'dirty_worktree', JSON.stringify(dirty));
  assert.equal(git('branch', '--list').trim(), '* main', 'a refused begin creates no branch');
  rmSync(join(repo.root, 'stray.txt'));
  const begun = await call('setupBegin', {}, repo.root, {}, 'cli');
  assert.equal(begun.ok, true, JSON.stringify(begun));

  const beyond = await call('setupStep', { step: 99 }, repo.root, {}, 'cli');
  assert.equal(beyond.error, 'unknown_step', JSON.stringify(beyond));
  const page = await call('setupStep', { step: 1 }, repo.root, {}, 'cli');
  assert.equal(page.ok, true, JSON.stringify(page));

  setJob('definitely-not-a-program-7f3 --all', 'Use the new runner');
  const unresolved = await call('setupVerify', {}, repo.root, {}, 'cli');
  assert.equal(unresolved.error, 'precondition_failed', JSON.stringify(unresolved));
  setJob('node -e "process.exit(3)"', 'Run the check directly');
  const sound = await call('setupVerify', {}, repo.root, {}, 'cli');
  assert.equal(sound.ok, true, JSON.stringify(sound));

  const red = await call('setupDone', {}, repo.root, {}, 'cli');
  assert.equal(red.error, 'gate_failed', JSON.stringify(red));
  setJob('true', 'The check passes');
  const proven = await call('setupDone', {}, repo.root, {}, 'cli');
  assert.equal(proven.ok, true, JSON.stringify(proven));
  const landed = await call('setupAccept', {}, repo.root, {}, 'cli');
  assert.equal(landed.ok, true, JSON.stringify(landed));
  assert.equal(git('rev-parse', 'main').trim(), git('rev-parse', 'HEAD').trim());
});
