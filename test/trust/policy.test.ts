// The owner's policy governs a change, tried the way an agent under pressure to "make it green" would: over the
// SDK's own MCP client, against a real repository, each bypass edits only the effort's own discern.toml (and the
// files it judges) and then asks discern_accept to land. The trunk's [acceptance] and [scopes] decide authority,
// a change to the trunk's rules lands only with approve_policy and confirmed, and an effort's trunk is the one
// recorded when it started. Each case fails when its guard is removed: the authority read from the effort
// (landing_authority would be authorized), the policy check (the call would land), the recorded trunk.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync, mkdirSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { scratchRepo, type ScratchRepo } from '../helpers/scratch-repo.js';
import { show, trustHarness, type Envelope } from '../helpers/trust-harness.js';
import { connectStdio } from '../helpers/mcp-client.js';

const TRUNK_CONFIG = `[project]
name = "trust"

[jobs]
test = "test ! -f src/broken"

[scopes.docs]
paths = ["docs/**"]

[acceptance]
pre_authorized = ["docs"]

[standards.size]
direction = "down"
limit = 10
run = "echo DISCERN_METRIC size 5"
`;

const { repos, tool, elsewhere } = trustHarness('discern-trust-');

interface Effort {
  repo: ScratchRepo;
  path: string;
  branch: string;
  trunkBefore: string;
}

/** A repository governed by TRUNK_CONFIG and an effort in it whose commit applies `files` (null deletes). */
async function effortWith(files: Record<string, string | null>): Promise<Effort> {
  const repo = scratchRepo({ 'discern.toml': TRUNK_CONFIG, 'src/app.txt': 'ok\n', 'docs/index.md': '# Docs\n' });
  repos.push(repo);
  const started = await tool('discern_start', { name: 'work', path: repo.root });
  assert.equal(started.ok, true, show(started));
  const data = started.data as { path: string; branch: string };
  for (const [file, text] of Object.entries(files)) {
    const at = join(data.path, file);
    if (text === null) rmSync(at);
    else {
      mkdirSync(dirname(at), { recursive: true });
      writeFileSync(at, text);
    }
  }
  repo.git('-C', data.path, 'add', '-A');
  repo.git('-C', data.path, 'commit', '-q', '-m', 'the change');
  return { repo, path: data.path, branch: data.branch, trunkBefore: trunkTip(repo) };
}

function trunkTip(repo: ScratchRepo): string {
  return repo.git('rev-parse', 'refs/heads/main').trim();
}

/** The effort's discern.toml: the trunk's with `from` replaced by `to`. */
function edited(from: string, to: string): string {
  assert.ok(TRUNK_CONFIG.includes(from), `the trunk config has ${from}`);
  return TRUNK_CONFIG.replace(from, to);
}

/**
 * done answers (green, or whatever the change's form gives); accept without consent and with confirmed alone
 * both refuse awaiting_policy_approval naming `key`, and the trunk does not move.
 */
async function refusedAsPolicy(e: Effort, key: string): Promise<Envelope> {
  const done = await tool('discern_done', { path: e.path });
  const changes = (done.data?.['policy_changes'] ?? []) as { key: string; approval: string }[];
  assert.ok(
    changes.some((c) => c.key.startsWith(key) && c.approval === 'approve_policy'),
    `done reports the policy change ${key}:\n${show(done)}`,
  );
  for (const args of [{}, { confirmed: true }]) {
    const accepted = await tool('discern_accept', { path: e.path, ...args });
    assert.equal(accepted.error, 'awaiting_policy_approval', show(accepted));
    const listed = (accepted.data?.['policy_changes'] ?? []) as { key: string }[];
    assert.ok(
      listed.some((c) => c.key.startsWith(key)),
      `the refusal lists ${key}: ${show(listed)}`,
    );
    assert.equal(trunkTip(e.repo), e.trunkBefore, 'the trunk has not moved');
  }
  return done;
}

describe("the trunk's [acceptance] and [scopes] decide authority", () => {
  it('widening a pre-authorized scope grants nothing: the trunk finds the code change uncovered', async () => {
    const e = await effortWith({
      'discern.toml': edited('paths = ["docs/**"]', 'paths = ["**"]'),
      'src/app.txt': 'changed\n',
    });
    await refusedAsPolicy(e, 'scopes.docs.paths');
    const dry = await tool('discern_accept', { path: e.path, dry_run: true });
    assert.equal(
      (dry.data?.['landing_authority'] as { kind: string }).kind,
      'conversation-required',
      `the trunk's docs scope does not cover src/app.txt:\n${show(dry)}`,
    );
  });

  it('adding a scope and pre-authorizing it grants nothing', async () => {
    const e = await effortWith({
      'discern.toml': edited(
        'pre_authorized = ["docs"]',
        'pre_authorized = ["docs", "all"]\n\n[scopes.all]\npaths = ["**"]',
      ),
      'src/app.txt': 'changed\n',
    });
    await refusedAsPolicy(e, 'acceptance.pre_authorized');
    const dry = await tool('discern_accept', { path: e.path, dry_run: true });
    assert.equal((dry.data?.['landing_authority'] as { kind: string }).kind, 'conversation-required', show(dry));
  });

  it('renaming a pre-authorized scope is a policy change', async () => {
    const e = await effortWith({
      'discern.toml': edited('[scopes.docs]', '[scopes.documents]').replace('["docs"]', '["documents"]'),
      'docs/index.md': '# Docs, renamed scope\n',
    });
    await refusedAsPolicy(e, 'scopes.documents');
  });

  // Neutrality will spare a change the gate (judged with the trunk's [scopes]): a scope that makes code neutral is
  // a change of the rules, whatever the jobs say.
  it('neutral = true over code is a policy change', async () => {
    const e = await effortWith({
      'discern.toml': `${TRUNK_CONFIG}\n[scopes.code]\npaths = ["src/**", "discern.toml"]\nneutral = true\n`,
      'src/app.txt': 'changed\n',
    });
    await refusedAsPolicy(e, 'scopes.code');
  });

  it('[generated] over source files is a policy change', async () => {
    const e = await effortWith({
      'discern.toml': `${TRUNK_CONFIG}\n[generated.all]\npaths = ["src/**"]\nrun = "true"\n`,
      'src/app.txt': 'changed\n',
    });
    await refusedAsPolicy(e, 'generated.all');
  });
});

describe('dropping or weakening a trunk job is a policy change', () => {
  it('setting the failing job to `true` gives green Proof, and accept refuses to land it', async () => {
    const e = await effortWith({
      'discern.toml': edited('test = "test ! -f src/broken"', 'test = "true"'),
      'src/broken': 'the trunk job fails on this\n',
    });
    const done = await refusedAsPolicy(e, 'jobs.test.run');
    assert.equal(done.ok, true, 'the change runs its own form of the jobs');
  });

  it('removing the failing job', async () => {
    const e = await effortWith({
      'discern.toml': edited('test = "test ! -f src/broken"\n', ''),
      'src/broken': 'the trunk job fails on this\n',
    });
    await refusedAsPolicy(e, 'jobs.test');
  });

  it('weakening [gate] timeout and fail_fast', async () => {
    const e = await effortWith({
      'discern.toml': `${TRUNK_CONFIG}\n[gate]\ntimeout = 0\nfail_fast = false\n`,
      'src/app.txt': 'changed\n',
    });
    await refusedAsPolicy(e, 'gate.timeout');
  });

  it('adding a job needs no approval: it lands with the consent a landing always needs', async () => {
    const e = await effortWith({
      'discern.toml': `${TRUNK_CONFIG.replace('[jobs]\n', '[jobs]\nlint = "true"\n')}`,
      'src/app.txt': 'changed\n',
    });
    const done = await tool('discern_done', { path: e.path });
    assert.equal(done.ok, true, show(done));
    const changes = done.data?.['policy_changes'] as { key: string; kind: string; approval: string }[];
    assert.deepEqual(
      changes.map((c) => [c.key, c.kind, c.approval]),
      [['jobs.lint', 'addition', 'none']],
    );
    const landed = await tool('discern_accept', { path: e.path, confirmed: true });
    assert.equal(landed.ok, true, show(landed));
    assert.equal(landed.data?.['policy_approved'], undefined);
  });

  it("the owner's approval lands a policy change, and the result says so", async () => {
    const e = await effortWith({
      'discern.toml': edited('test = "test ! -f src/broken"', 'test = "true"'),
      'src/app.txt': 'changed\n',
    });
    await refusedAsPolicy(e, 'jobs.test.run');
    const without = await tool('discern_accept', { path: e.path, approve_policy: true });
    assert.equal(without.error, 'invalid_value', 'approve_policy needs confirmed');
    const landed = await tool('discern_accept', { path: e.path, approve_policy: true, confirmed: true });
    assert.equal(landed.ok, true, show(landed));
    assert.equal(landed.data?.['policy_approved'], true);
    assert.notEqual(trunkTip(e.repo), e.trunkBefore);
  });
});

describe("an effort's trunk is the one recorded when it started", () => {
  it("[repository] trunk pointed at the effort's own branch redirects nothing: the standards check holds against main", async () => {
    const repo = scratchRepo({ 'discern.toml': TRUNK_CONFIG, 'src/app.txt': 'ok\n' });
    repos.push(repo);
    const started = await tool('discern_start', { name: 'redirect', path: repo.root });
    const { path, branch } = started.data as { path: string; branch: string };
    writeFileSync(
      join(path, 'discern.toml'),
      TRUNK_CONFIG.replace('[project]', `[repository]\ntrunk = "${branch}"\n\n[project]`).replace(
        'limit = 10',
        'limit = 1',
      ),
    );
    repo.git('-C', path, 'commit', '-qam', 'loosen the standard and point the trunk at this branch');
    const status = await tool('discern_status', { path });
    assert.match(show(status), /"main"/, 'status names main as the trunk');
    const done = await tool('discern_done', { path });
    assert.equal(done.ok, false, `the loosened standard is caught against main:\n${show(done)}`);
    assert.match(done.message ?? '', /standard|size/i, show(done));
  });

  it('when the owner renames the trunk, an older effort refuses as no_trunk and does not follow it', async () => {
    const e = await effortWith({ 'src/app.txt': 'changed\n' });
    e.repo.git('branch', '-m', 'main', 'develop');
    writeFileSync(join(e.repo.root, 'discern.toml'), `[repository]\ntrunk = "develop"\n\n${TRUNK_CONFIG}`);
    e.repo.git('commit', '-q', '-am', 'the trunk is develop now');
    const develop = e.repo.git('rev-parse', 'refs/heads/develop').trim();
    for (const [name, args] of [
      ['discern_done', {}],
      ['discern_accept', { confirmed: true }],
    ] as const) {
      const answer = await tool(name, { path: e.path, ...args });
      assert.equal(answer.error, 'no_trunk', show(answer));
      assert.match(answer.message ?? '', /"main"/);
      assert.match(answer.message ?? '', /renamed the trunk/);
    }
    assert.equal(e.repo.git('rev-parse', 'refs/heads/develop').trim(), develop, 'develop has not moved');
  });

  it('a trunk with no discern.toml takes no first configuration from an effort: only setup accept lands one', async () => {
    const repo = scratchRepo({ 'src/app.txt': 'ok\n' });
    repos.push(repo);
    const before = trunkTip(repo);
    const path = join(repo.root, '..', `${repo.root.split('/').pop() ?? 'repo'}-effort`);
    repo.git('worktree', 'add', '-q', '-b', 'agent/self-configured', path);
    // The effort writes a policy that grants itself everything and has nothing to fail.
    const own = `[project]\nname = "mine"\n\n[jobs]\ntest = "true"\n\n[scopes.all]\npaths = ["**"]\n\n[acceptance]\npre_authorized = ["all"]\n`;
    writeFileSync(join(path, 'discern.toml'), own);
    repo.git('-C', path, 'add', '-A');
    repo.git('-C', path, 'commit', '-q', '-m', 'my own policy');
    try {
      const accepted = await tool('discern_accept', { path, confirmed: true });
      assert.equal(accepted.ok, false, show(accepted));
      assert.equal(accepted.error, 'precondition_failed', show(accepted));
      assert.match(accepted.message ?? '', /setup accept/);
      assert.equal(trunkTip(repo), before, 'the trunk has not moved');
    } finally {
      rmSync(path, { recursive: true, force: true });
    }
  });

  it('DISCERN_TRUNK disagreeing with the recorded trunk is refused, naming both', async () => {
    const e = await effortWith({ 'src/app.txt': 'changed\n' });
    e.repo.git('branch', 'elsewhere', 'main');
    const other = await connectStdio(elsewhere(), { DISCERN_TRUNK: 'elsewhere' });
    try {
      const inWorktree = await tool('discern_accept', { path: e.path, confirmed: true }, other);
      assert.equal(inWorktree.error, 'no_trunk', show(inWorktree));
      assert.match(inWorktree.message ?? '', /elsewhere/);
      assert.match(inWorktree.message ?? '', /"main"/);
      const fromMain = await tool('discern_accept', { path: e.repo.root, target: 'work', confirmed: true }, other);
      assert.equal(fromMain.error, 'precondition_failed', show(fromMain));
      assert.match(fromMain.message ?? '', /lands on main/);
    } finally {
      await other.client.close();
    }
    assert.equal(trunkTip(e.repo), e.trunkBefore);
  });
});
