// start on real scratch repositories: the branch and linked worktree, the task record, env files, ensure and
// resources in order, names made unique (also under concurrent starts), undo on failure leaving nothing
// behind, dry runs that create nothing, refusals, and MCP re-aiming at the new worktree.
import { describe, it, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { DiscernStartData } from '../../generated/types.js';
import { assertDriven, call } from '../helpers/drive.js';
import { connectStdio } from '../helpers/mcp-client.js';
import { scratchRepo, tempDir, type ScratchRepo } from '../helpers/scratch-repo.js';

const repos: ScratchRepo[] = [];
after(() => repos.forEach((r) => r.cleanup()));

function repo(extra = '', files: Record<string, string> = {}): ScratchRepo {
  const r = scratchRepo({
    'discern.toml': `[project]\nname = "start"\n\n[jobs]\ntest = "true"\n${extra}`,
    '.gitignore': '.env\n.env.local\n*.log\n',
    ...files,
  });
  repos.push(r);
  return r;
}

function startData(result: Awaited<ReturnType<typeof call>>): DiscernStartData {
  assert.ok(result.ok, JSON.stringify(result, null, 2));
  assert.ok(result.verb === 'start' && result.data && 'id' in result.data);
  return result.data;
}

function branches(r: ScratchRepo): string[] {
  return r.git('for-each-ref', '--format=%(refname:short)', 'refs/heads/').trim().split('\n');
}

describe('start', () => {
  it('creates the branch and a sibling worktree from the trunk, records the task, copies env files and runs ensure there', async () => {
    const r = repo('\n[repository]\nensure = ["pwd > ensured.log", "echo second >> ensured.log"]\n');
    r.write('.env', 'SECRET=1\n');
    const result = await call(
      'start',
      { name: 'fix-login', title: 'Fix the login redirect', brief: 'Users land on /home after login; send them back.' },
      r.root,
    );
    const d = startData(result);
    assert.equal(d.id, 'fix-login');
    assert.equal(d.branch, 'agent/fix-login');
    assert.equal(d.path, `${r.root}.worktrees/fix-login`);
    assert.equal(d.from.ref, 'main');
    assert.equal(d.from.commit, r.git('rev-parse', 'main').trim());
    assert.equal(d.behind_trunk, 0);
    assert.equal(d.landing_authority?.kind, 'conversation-required');
    assert.ok(branches(r).includes('agent/fix-login'));
    assert.equal(r.git('-C', d.path, 'rev-parse', '--abbrev-ref', 'HEAD').trim(), 'agent/fix-login');
    assert.equal(readFileSync(join(d.path, '.env'), 'utf8'), 'SECRET=1\n');
    assert.equal(readFileSync(join(d.path, 'ensured.log'), 'utf8'), `${d.path}\nsecond\n`);
    const record = JSON.parse(readFileSync(d.task.record_path, 'utf8')) as Record<string, unknown>;
    assert.equal(record['title'], 'Fix the login redirect');
    assert.equal(record['brief'], 'Users land on /home after login; send them back.');
    assert.ok(!d.task.record_path.startsWith(d.path), 'the record lives in the git dir, not the tree');
    assert.deepEqual(
      (result.steps ?? []).map((s) => [s.kind, s.outcome]),
      [
        ['git', 'ok'],
        ['task-metadata', 'ok'],
        ['env', 'ok'],
        ['repository-ensure', 'ok'],
        ['repository-ensure', 'ok'],
      ],
    );
    // The new worktree is clean: nothing discern wrote shows up in it.
    assert.equal(r.git('-C', d.path, 'status', '--porcelain').trim(), '');
  });

  it('a dry run returns the plan and creates nothing', async () => {
    const r = repo('\n[repository]\nensure = ["touch made"]\n');
    const result = await call('start', { name: 'plan-only', dry_run: true }, r.root);
    const d = startData(result);
    assert.equal(result.dry_run, true);
    assert.equal(result.steps, undefined);
    assert.deepEqual(
      result.plan?.steps.map((s) => s.kind),
      ['git', 'task-metadata', 'repository-ensure'],
    );
    assert.ok(!existsSync(d.path));
    assert.ok(!branches(r).includes('agent/plan-only'));
    assert.ok(!existsSync(`${r.root}.worktrees`));
  });

  it('a taken name gets a numeric suffix and says what took it; names come from the title, else "effort"', async () => {
    const r = repo();
    r.git('branch', 'agent/busy');
    const d = startData(await call('start', { name: 'busy' }, r.root));
    assert.equal(d.id, 'busy-2');
    assert.match(d.name_note ?? '', /the branch agent\/busy exists/);
    const titled = startData(await call('start', { title: 'Make the Café menu faster!' }, r.root));
    assert.equal(titled.id, 'make-the-cafe-menu-faster');
    const plain = startData(await call('start', {}, r.root));
    const again = startData(await call('start', {}, r.root));
    assert.deepEqual([plain.id, again.id], ['effort', 'effort-2']);
  });

  it('two starts at once with the same name get two efforts', async () => {
    const r = repo();
    const [a, b] = await Promise.all([
      call('start', { name: 'race' }, r.root),
      call('start', { name: 'race' }, r.root),
    ]);
    assert.deepEqual([startData(a).id, startData(b).id].sort(), ['race', 'race-2']);
  });

  it('starts from another commit and counts how far behind the trunk it is', async () => {
    const r = repo();
    const old = r.git('rev-parse', 'HEAD').trim();
    r.git('tag', 'v1');
    r.write('later.txt', 'later\n');
    r.commit('later');
    const d = startData(await call('start', { name: 'from-tag', from: 'v1' }, r.root));
    assert.deepEqual(d.from, { ref: 'v1', commit: old });
    assert.equal(d.behind_trunk, 1);
    const refused = await call('start', { name: 'nowhere', from: 'no-such-ref' }, r.root);
    assert.equal(refused.error, 'invalid_value');
    assert.match(refused.message ?? '', /no-such-ref/);
  });

  it('refuses names git cannot use, over both surfaces', async () => {
    const r = repo();
    const schema = await call('start', { name: '../escape' }, r.root);
    assert.equal(schema.error, 'invalid_arguments');
    const lock = await call('start', { name: 'x.lock' }, r.root);
    assert.equal(lock.error, 'invalid_value');
    assert.ok(!existsSync(`${r.root}.worktrees`));
  });

  it('a failing step undoes everything in reverse: resources destroyed, worktree and branch removed', async () => {
    const log = join(tempDir(), 'events.log');
    const r = repo(`
[worktree.resources.db]
create = "echo create-db >> ${log}"
destroy = "echo destroy-db >> ${log}"

[worktree.resources.queue]
create = "echo create-queue >> ${log}"
destroy = "echo destroy-queue >> ${log}"

[worktree.resources.cache]
create = "echo 'src/cache.c:3:1: error: no cache server'; exit 3"
destroy = "echo destroy-cache >> ${log}"
`);
    const result = await call('start', { name: 'doomed' }, r.root);
    assert.equal(result.error, 'apply_failed');
    assert.match(result.message ?? '', /\[worktree\.resources\.cache\] create exited with status 3/);
    assert.equal(result.diagnostics?.[0]?.file, 'src/cache.c');
    assert.equal(readFileSync(log, 'utf8'), 'create-db\ncreate-queue\ndestroy-queue\ndestroy-db\n');
    assert.ok(!existsSync(`${r.root}.worktrees/doomed`));
    assert.ok(!branches(r).includes('agent/doomed'));
    assert.equal(
      r
        .git('worktree', 'list', '--porcelain')
        .split('\n')
        .filter((l) => l.startsWith('worktree ')).length,
      1,
    );
    const kinds = (result.steps ?? []).map((s) => `${s.kind}:${s.outcome}`);
    assert.deepEqual(kinds.slice(-4), [
      'resource-create:failed',
      'resource-destroy:ok',
      'resource-destroy:ok',
      'git:ok',
    ]);
    // The failed command's output is still readable after the undo.
    const failed = (result.steps ?? []).find((s) => s.outcome === 'failed');
    assert.ok(failed?.output_path && existsSync(failed.output_path));
  });

  it('an optional resource that fails is an advisory; start succeeds without it', async () => {
    const r = repo('\n[worktree.resources.gpu]\ncreate = "exit 1"\nrequired = false\nretries = 1\n');
    const result = await call('start', { name: 'no-gpu' }, r.root);
    const d = startData(result);
    assert.equal(d.resources, undefined);
    assert.equal(result.advisories?.[0]?.kind, 'optional-resource-unavailable');
    assert.ok(existsSync(d.path));
  });

  it('a root inside the checkout must be ignored by git', async () => {
    const r = repo('\n[worktree]\nroot = ".worktrees"\n');
    const refused = await call('start', { name: 'inside' }, r.root);
    assert.equal(refused.error, 'precondition_failed');
    assert.match(refused.message ?? '', /\.gitignore/);
    r.write('.gitignore', '.env\n.env.local\n*.log\n.worktrees/\n');
    r.commit('ignore worktrees');
    const d = startData(await call('start', { name: 'inside' }, r.root));
    assert.equal(d.path, join(r.root, '.worktrees', 'inside'));
    assert.equal(r.git('status', '--porcelain').trim(), '');
  });

  for (const [name, under] of [
    ['is a file', ''],
    ['lies under a file', '/trees'],
  ] as const) {
    it(`a root that ${name} is invalid_config at worktree.root, with nothing created`, async () => {
      const file = join(tempDir('discern-root-file-'), 'plain-file');
      writeFileSync(file, 'not a folder\n');
      const r = repo(`\n[worktree]\nroot = "${file}${under}"\n`);
      const refused = await call('start', { name: 'blocked' }, r.root);
      assert.equal(refused.error, 'invalid_config', JSON.stringify(refused));
      assert.ok((refused.message ?? '').includes(`${file} is not a folder`), refused.message);
      assert.deepEqual(branches(r), ['main']);
      assert.equal(readFileSync(file, 'utf8'), 'not a folder\n');
    });
  }

  it('a refusal to retry names the command to run again, once', async () => {
    const r = repo('\n[worktree]\nroot = ".worktrees"\n');
    const refused = await call('start', { name: 'inside' }, r.root, {}, 'cli');
    assert.equal(refused.error, 'precondition_failed');
    assert.match(refused.hints.at(-1) ?? '', /then run `discern start` again\.$/);
  });

  it('from a linked worktree, the new effort is still a sibling of the main checkout', async () => {
    const r = repo();
    const first = startData(await call('start', { name: 'first' }, r.root));
    const second = startData(await call('start', { name: 'second' }, first.path));
    assert.equal(second.path, `${r.root}.worktrees/second`);
  });

  it('pre_authorized scopes are the prospective boundary; an unknown one is a warning', async () => {
    const r = repo(
      '\n[scopes.docs]\npaths = ["docs/**"]\nneutral = true\n\n[acceptance]\npre_authorized = ["docs", "nope"]\n',
    );
    const d = startData(await call('start', { name: 'docs-fix', dry_run: true }, r.root));
    assert.deepEqual(d.landing_authority?.standing_scopes, ['docs']);
    assert.match(d.landing_authority?.warnings?.[0] ?? '', /"nope"/);
  });

  it('drove start through success and failure', () => assertDriven(['start']));
});

describe('start over MCP', () => {
  it('later calls without path aim at the new worktree; a dry run does not move them', async () => {
    const r = repo();
    const mcp = await connectStdio(r.root);
    try {
      const preview = await mcp.client.callTool({
        name: 'discern_start',
        arguments: { name: 'preview', dry_run: true },
      });
      assert.equal((preview.structuredContent as { ok: boolean }).ok, true);
      const before = await mcp.client.callTool({ name: 'discern_status', arguments: {} });
      assert.equal((before.structuredContent as { data: { root: string } }).data.root, r.root);
      const started = await mcp.client.callTool({ name: 'discern_start', arguments: { name: 'reaim' } });
      const path = (started.structuredContent as { data: { path: string } }).data.path;
      const after = await mcp.client.callTool({ name: 'discern_status', arguments: {} });
      assert.equal((after.structuredContent as { data: { root: string } }).data.root, path);
      // An explicit path still wins.
      const main = await mcp.client.callTool({ name: 'discern_status', arguments: { path: r.root } });
      assert.equal((main.structuredContent as { data: { root: string } }).data.root, r.root);
    } finally {
      await mcp.client.close();
    }
  });
});
