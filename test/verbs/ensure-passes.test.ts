// ensure as the reference has it, on real scratch repositories: [repository] ensure, [worktree.setup] steps (once,
// when a worktree is made) and ensure (every pass), and each resource's create, ensure and destroy, run by start,
// `worktree ensure`, update, accept (in the integration worktree, and in the main checkout after a landing) and
// `worktree prune` (a vanished worktree's resources, unless gc = false).
import { describe, it, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { call } from '../helpers/drive.js';
import { effort } from '../helpers/efforts.js';
import { scratchRepo, tempDir, type ScratchRepo } from '../helpers/scratch-repo.js';

const repos: ScratchRepo[] = [];
after(() => repos.forEach((r) => r.cleanup()));

/** A repository whose every ensure-like command appends its name (and where it ran) to one log outside it. */
function logged(extra = ''): { r: ScratchRepo; log: string; read: () => string[] } {
  const log = join(tempDir('discern-ensure-log-'), 'log');
  writeFileSync(log, '');
  const say = (what: string) => `echo "${what} $(basename "$PWD")" >> ${log}`;
  const r = scratchRepo({
    'discern.toml': `[project]
name = "ensure"

[jobs]
test = "true"

[repository]
ensure = ['${say('repository-ensure')}']

[worktree.setup]
steps = ['${say('setup-step')}']
ensure = ['${say('setup-ensure')}']

[worktree.resources.db]
create = '${say('db-create')}'
ensure = '${say('db-ensure')}'
destroy = 'echo "db-destroy $DISCERN_EFFORT" >> ${log}'

[worktree.resources.cache]
create = '${say('cache-create')}'
destroy = 'echo "cache-destroy $DISCERN_EFFORT" >> ${log}'
gc = false
${extra}`,
    '.gitignore': '*.log\n',
    'shared.txt': 'one\n',
  });
  repos.push(r);
  const read = () => readFileSync(log, 'utf8').split('\n').filter(Boolean);
  return { r, log, read };
}

describe('ensure passes', () => {
  it('start: repository ensure, setup steps, setup ensure, then each resource created and ensured', async () => {
    const { r, read } = logged();
    const started = await call('start', { name: 'one' }, r.root);
    assert.ok(started.ok, JSON.stringify(started, null, 2));
    assert.deepEqual(read(), [
      'repository-ensure one',
      'setup-step one',
      'setup-ensure one',
      'db-create one',
      'db-ensure one',
      'cache-create one',
    ]);
  });

  it('worktree ensure: every pass runs the ensures, never the steps or the creates', async () => {
    const { r, log, read } = logged();
    assert.ok((await call('start', { name: 'two' }, r.root)).ok);
    writeFileSync(log, '');
    const ensured = await call('worktreeEnsure', { target: 'two' }, r.root, {}, 'cli');
    assert.ok(ensured.ok, JSON.stringify(ensured, null, 2));
    assert.deepEqual(read(), ['repository-ensure two', 'setup-ensure two', 'db-ensure two']);
  });

  it('update ensures after merging, and says the merge is done when an ensure fails', async () => {
    const { r, log, read } = logged();
    const work = await effort(r, 'three', 'three.txt', 'three\n');
    r.write('trunk.txt', 'moved\n');
    r.commit('the trunk moves');
    writeFileSync(log, '');
    const updated = await call('update', {}, work.path);
    assert.ok(updated.ok, JSON.stringify(updated, null, 2));
    assert.deepEqual(read(), ['repository-ensure three', 'setup-ensure three', 'db-ensure three']);

    r.write(
      'discern.toml',
      readFileSync(join(r.root, 'discern.toml'), 'utf8').replace(
        'ensure = [\'echo "setup-ensure',
        "ensure = ['false', 'echo \"setup-ensure",
      ),
    );
    r.commit('an ensure that fails');
    const failed = await call('update', {}, work.path);
    assert.equal(failed.error, 'apply_failed');
    assert.match(
      failed.message ?? '',
      /^The merge is done \([0-9a-f]{12}\), but \[worktree\.setup\] ensure command "false" exited with status 1/,
    );
    // The merge stands: the branch holds the trunk's tip.
    work.git('merge-base', '--is-ancestor', r.git('rev-parse', 'main').trim(), 'HEAD');
  });

  it('accept runs the ensures in the integration worktree, and repository ensure in the main checkout after landing', async () => {
    const { r, log, read } = logged();
    const a = await effort(r, 'alpha', 'alpha.txt', 'a\n');
    const b = await effort(r, 'beta', 'beta.txt', 'b\n');
    assert.ok((await call('accept', { confirmed: true }, a.path)).ok);
    writeFileSync(log, '');
    const landed = await call('accept', { confirmed: true }, b.path);
    assert.ok(landed.ok, JSON.stringify(landed, null, 2));
    const main = r.root.split('/').pop();
    assert.deepEqual(read(), [
      // The integration worktree is at .discern-integration/_compose.
      'repository-ensure _compose',
      'setup-step _compose',
      'setup-ensure _compose',
      'cache-destroy beta',
      'db-destroy beta',
      `repository-ensure ${main}`,
    ]);
  });

  it("a composition is set up by the trunk's commands, not the change's; the main checkout then runs the landed ones", async () => {
    const { r, log, read } = logged();
    const a = await effort(r, 'first', 'first.txt', 'a\n');
    const b = await effort(r, 'second', 'second.txt', 'b\n', false);
    // The change rewrites its own ensure (a policy change the owner approves below).
    const config = readFileSync(join(b.path, 'discern.toml'), 'utf8');
    b.change('discern.toml', config.replace('ensure = [\'echo "repository-ensure', 'ensure = [\'echo "changed-ensure'));
    assert.ok((await call('done', {}, b.path)).ok);
    assert.ok((await call('accept', { confirmed: true }, a.path)).ok);
    writeFileSync(log, '');
    const landed = await call('accept', { confirmed: true, approve_policy: true }, b.path);
    assert.ok(landed.ok, JSON.stringify(landed, null, 2));
    const main = r.root.split('/').pop();
    const lines = read();
    assert.ok(lines.includes('repository-ensure _compose'), lines.join('\n'));
    assert.ok(!lines.includes('changed-ensure _compose'), 'the integration worktree ran the change’s own ensure');
    assert.equal(lines.at(-1), `changed-ensure ${main}`, 'after the landing, the trunk’s ensure is the landed one');
  });

  it('prune destroys a vanished worktree’s resources unless gc = false, and names what it kept', async () => {
    const { r, log, read } = logged();
    const started = await call('start', { name: 'gone' }, r.root);
    assert.ok(started.ok && started.verb === 'start' && started.data && 'path' in started.data);
    rmSync(started.data.path, { recursive: true, force: true });
    writeFileSync(log, '');
    const preview = await call('worktreePrune', { dry_run: true }, r.root, {}, 'cli');
    assert.ok(preview.ok && preview.data && 'resources_destroyed' in preview.data, JSON.stringify(preview));
    assert.deepEqual(preview.data.resources_destroyed, ['gone/db']);
    assert.deepEqual(read(), [], 'a dry run destroys nothing');
    const pruned = await call('worktreePrune', {}, r.root, {}, 'cli');
    assert.ok(pruned.ok && pruned.data && 'resources_kept' in pruned.data, JSON.stringify(pruned));
    assert.deepEqual(pruned.data.resources_destroyed, ['gone/db']);
    assert.deepEqual(pruned.data.resources_kept, ['gone/cache']);
    assert.deepEqual(read(), ['db-destroy gone']);
  });
});
