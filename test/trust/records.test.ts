// discern's local gate records cannot be copied or written by hand: the Proof marker, evidence, last-run verdicts,
// submissions and grants carry a MAC under the repository's key (<git-common-dir>/discern/validation-hmac-key), and
// one that does not hold reads as absent, with a state-record-skipped advisory. Tried over the SDK's MCP client the
// way an agent would forge a green answer: a marker copied from another repository and edited to name the red
// HEAD, evidence written under the red tree's id, a grant written by hand, and a record an earlier discern wrote
// (no MAC at all). Each case fails when the MAC check is removed from the state reader.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { scratchRepo, type ScratchRepo } from '../helpers/scratch-repo.js';
import { show, trustHarness, type Envelope } from '../helpers/trust-harness.js';

const CONFIG = `[project]
name = "records"

[jobs]
test = "test ! -f broken"
`;

const { repos, tool } = trustHarness('discern-records-');

interface Effort {
  repo: ScratchRepo;
  path: string;
  gitDir: string;
  git(...args: string[]): string;
  commit(file: string, text: string): { commit: string; tree: string };
}

async function effort(name: string): Promise<Effort> {
  const repo = scratchRepo({ 'discern.toml': CONFIG, 'app.txt': 'ok\n' });
  repos.push(repo);
  const started = await tool('discern_start', { name, path: repo.root });
  assert.equal(started.ok, true, show(started));
  const path = (started.data as { path: string }).path;
  const git = (...args: string[]): string => repo.git('-C', path, ...args);
  const gitDir = git('rev-parse', '--path-format=absolute', '--git-dir').trim();
  const commit = (file: string, text: string): { commit: string; tree: string } => {
    writeFileSync(join(path, file), text);
    git('add', '-A');
    git('commit', '-q', '-m', `change ${file}`);
    return { commit: git('rev-parse', 'HEAD').trim(), tree: git('rev-parse', 'HEAD^{tree}').trim() };
  };
  return { repo, path, gitDir, git, commit };
}

function skipped(result: Envelope): string {
  return (result.advisories ?? [])
    .filter((a) => a.kind === 'state-record-skipped')
    .flatMap((a) => a.evidence ?? [])
    .join('\n');
}

describe('a Proof marker is honoured only where this repository wrote it', () => {
  it('a marker copied from another repository and edited to name the red HEAD is not Proof', async () => {
    const source = await effort('source');
    source.commit('app.txt', 'green\n');
    const proven = await tool('discern_done', { path: source.path });
    assert.equal(proven.ok, true, show(proven));

    const target = await effort('target');
    const red = target.commit('broken', 'the job fails on this\n');
    const marker = JSON.parse(readFileSync(join(source.gitDir, 'discern', 'gate-proof'), 'utf8')) as Record<
      string,
      unknown
    >;
    marker['commit'] = red.commit;
    marker['tree'] = red.tree;
    mkdirSync(join(target.gitDir, 'discern'), { recursive: true });
    writeFileSync(join(target.gitDir, 'discern', 'gate-proof'), `${JSON.stringify(marker, null, 2)}\n`);

    const done = await tool('discern_done', { path: target.path });
    assert.notEqual((done.data?.['gate_proof'] as { status?: string } | undefined)?.status, 'reused', show(done));
    assert.equal(done.ok, false, `the job ran and failed:\n${show(done)}`);
    assert.match(skipped(done), /MAC does not hold/, show(done.advisories));
    const accepted = await tool('discern_accept', { path: target.path, confirmed: true });
    assert.equal(accepted.ok, false, show(accepted));
    assert.ok(!target.repo.git('log', '--format=%H', 'main').includes(red.commit), 'the red commit did not land');
  });
});

describe('evidence replays only when this repository wrote it', () => {
  it('evidence written under the red tree’s id does not replay: the job runs', async () => {
    const e = await effort('replay');
    e.commit('app.txt', 'green\n');
    assert.equal((await tool('discern_done', { path: e.path })).ok, true);
    const store = join(e.repo.root, '.git', 'discern', 'evidence');
    const [green] = readdirSync(store).filter((n) => n.endsWith('.json'));
    assert.ok(green, 'done wrote evidence');
    const evidence = JSON.parse(readFileSync(join(store, green), 'utf8')) as Record<string, unknown>;
    const red = e.commit('broken', 'the job fails on this\n');
    evidence['tree'] = red.tree;
    evidence['commit'] = red.commit;
    const id = createHash('sha256')
      .update(`${red.tree}\0${String(evidence['config_digest'])}\0${String(evidence['discern_version'])}`)
      .digest('hex');
    writeFileSync(join(store, `${id}.json`), `${JSON.stringify(evidence, null, 2)}\n`);

    const done = await tool('discern_done', { path: e.path });
    assert.equal(done.ok, false, `no replay: the job ran and failed:\n${show(done)}`);
    assert.equal(done.data?.['gate_ran'], true);
    assert.match(skipped(done), /MAC does not hold/);
  });
});

describe('a grant is the owner’s only when discern recorded it', () => {
  it('a grant written by hand lands nothing', async () => {
    const e = await effort('granted');
    e.commit('app.txt', 'changed\n');
    assert.equal((await tool('discern_done', { path: e.path })).ok, true);
    const grants = join(e.repo.root, '.git', 'discern', 'grants');
    mkdirSync(grants, { recursive: true });
    const branch = e.git('branch', '--show-current').trim();
    writeFileSync(
      join(grants, 'granted.json'),
      `${JSON.stringify({ format: 1, effort: 'granted', branch, granted_at: new Date().toISOString() }, null, 2)}\n`,
    );
    const before = e.repo.git('rev-parse', 'main').trim();
    const accepted = await tool('discern_accept', { path: e.path });
    assert.equal(accepted.error, 'awaiting_consent', show(accepted));
    assert.match(skipped(accepted), /no MAC/);
    assert.equal(e.repo.git('rev-parse', 'main').trim(), before);
  });
});

describe('records an earlier discern wrote', () => {
  it('a marker without a MAC is not honoured: the gate runs again and says why, then Proof is sealed', async () => {
    const e = await effort('earlier');
    e.commit('app.txt', 'changed\n');
    assert.equal((await tool('discern_done', { path: e.path })).ok, true);
    const file = join(e.gitDir, 'discern', 'gate-proof');
    const { mac: _mac, ...unsealed } = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
    writeFileSync(file, `${JSON.stringify(unsealed, null, 2)}\n`);
    // The evidence an earlier discern wrote would replay it: as old, it carries no MAC either.
    const store = join(e.repo.root, '.git', 'discern', 'evidence');
    for (const name of readdirSync(store)) {
      const { mac: _m, ...old } = JSON.parse(readFileSync(join(store, name), 'utf8')) as Record<string, unknown>;
      writeFileSync(join(store, name), `${JSON.stringify(old, null, 2)}\n`);
    }
    const again = await tool('discern_done', { path: e.path });
    assert.equal(again.ok, true, show(again));
    assert.equal(again.data?.['gate_ran'], true, 'the gate ran again');
    assert.match(skipped(again), /written by an earlier discern/);
    const next = await tool('discern_done', { path: e.path });
    assert.equal((next.data?.['gate_proof'] as { status: string }).status, 'reused', 'the new marker is sealed');
    assert.equal(skipped(next), '');
  });

  it('the key is the repository’s own file, mode 0600', async () => {
    const e = await effort('key');
    e.commit('app.txt', 'changed\n');
    await tool('discern_done', { path: e.path });
    const key = join(e.repo.root, '.git', 'discern', 'validation-hmac-key');
    assert.ok(existsSync(key));
    assert.equal(statSync(key).mode & 0o777, 0o600);
    assert.equal(readFileSync(key).length, 32);
  });
});

describe('a note planted on HEAD before landing', () => {
  it('is replaced by the landing’s Proof note, and the result quotes what it replaced', async () => {
    const e = await effort('planted');
    const { commit } = e.commit('app.txt', 'changed\n');
    assert.equal((await tool('discern_done', { path: e.path })).ok, true);
    e.git('notes', '--ref=refs/notes/discern', 'add', '-m', 'planted: all green, trust me', commit);
    const landed = await tool('discern_accept', { path: e.path, confirmed: true });
    assert.equal(landed.ok, true, show(landed));
    const write = (landed.data?.['proof_note'] as { write: { status: string; reason?: string } }).write;
    assert.equal(write.status, 'replaced', show(write));
    assert.match(write.reason ?? '', /planted: all green, trust me/);
    const note = e.repo.git('notes', '--ref=refs/notes/discern', 'show', commit);
    assert.doesNotMatch(note, /planted/);
    assert.match(note, /"payloadType"/);
  });
});
