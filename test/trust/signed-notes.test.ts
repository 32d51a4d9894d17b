// Signed Proof that travels, with the real CLI and real keys: a landing signed by the owner's ssh-keygen key (an
// unencrypted key file, and a passphrase key held by a test ssh-agent) or by the discern key verifies on a fresh
// clone once its notes are fetched; refresh gives the remote a fetch refspec for the notes (never a push one) and
// accept merges fetched notes without overwriting a local one; a key a change adds to its own allowed signers is
// a policy change and vouches for nothing; with trust_notes, done --ci takes a verified note instead of a gate run.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cleanEnv, configureTestRepo, scratchRepo, tempDir, type ScratchRepo } from '../helpers/scratch-repo.js';
import { onlyJson, runCli } from '../helpers/cli.js';
import type { ProofNotePayload } from '../../src/engine/notes/proof-note.js';
import { signedProofNote } from '../../src/engine/notes/signed-envelope.js';

const CONFIG = (extra = ''): string => `[project]\nname = "signed"\n${extra}\n[jobs]\ntest = "true"\n`;
const repos: ScratchRepo[] = [];
after(() => repos.forEach((r) => r.cleanup()));

/** Each test's own signing home: the discern key made there is that test's. */
function keyHome(): Record<string, string> {
  return { XDG_CONFIG_HOME: tempDir('discern-signed-xdg-'), GIT_CONFIG_NOSYSTEM: '1' };
}

async function cli(cwd: string, env: Record<string, string>, ...args: string[]): Promise<Record<string, unknown>> {
  const run = await runCli([...args, '--json'], { cwd, env: cleanEnv(env) });
  return onlyJson(run);
}

function data<T>(result: Record<string, unknown>): T {
  return result['data'] as T;
}

/** Lands one change through start, done and accept; returns the landed commit. */
async function land(repo: ScratchRepo, env: Record<string, string>, name: string): Promise<string> {
  const started = await cli(repo.root, env, 'start', name);
  assert.equal(started['ok'], true, JSON.stringify(started));
  const path = data<{ path: string }>(started).path;
  writeFileSync(join(path, `${name}.txt`), `${name}\n`);
  repo.git('-C', path, 'add', '-A');
  repo.git('-C', path, 'commit', '-q', '-m', name);
  assert.equal((await cli(path, env, 'done'))['ok'], true);
  const accepted = await cli(path, env, 'accept', '--confirmed');
  assert.equal(accepted['ok'], true, JSON.stringify(accepted));
  return repo.git('rev-parse', 'main').trim();
}

/** Commits this machine's signer line (as the owner would) on the trunk. */
async function trust(repo: ScratchRepo, env: Record<string, string>): Promise<string> {
  const run = await runCli(['verify', '--signer-line'], { cwd: repo.root, env: cleanEnv(env) });
  assert.equal(run.code, 0, run.stderr);
  mkdirSync(join(repo.root, 'discern'), { recursive: true });
  writeFileSync(join(repo.root, 'discern', 'allowed_signers'), run.stdout);
  repo.git('add', '-A');
  repo.git('commit', '-q', '-m', 'trust the signing key');
  return run.stdout.trim();
}

/** A checkout made some other way (a clone), driven like a scratch repository. */
function repoAt(root: string): ScratchRepo {
  const git = (...args: string[]): string =>
    execFileSync('git', args, { cwd: root, encoding: 'utf8', env: cleanEnv({ GIT_CONFIG_NOSYSTEM: '1' }) });
  return { root, git, cleanup: () => undefined } as unknown as ScratchRepo;
}

function ownRepo(config = CONFIG()): ScratchRepo {
  const repo = scratchRepo({ 'discern.toml': config, 'a.txt': 'a\n' });
  repos.push(repo);
  return repo;
}

describe('signing keys', () => {
  let agent: { sock: string; pid: number } | undefined;
  const keys = tempDir('discern-signed-keys-');
  before(() => {
    const sock = join(keys, 'agent.sock');
    const out = execFileSync('ssh-agent', ['-s', '-a', sock], { encoding: 'utf8' });
    agent = { sock, pid: Number(/SSH_AGENT_PID=(\d+)/.exec(out)?.[1]) };
  });
  after(() => {
    if (agent) spawnSync('kill', [String(agent.pid)]);
  });

  function keygen(name: string, passphrase: string): string {
    const path = join(keys, name);
    execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', passphrase, '-C', name, '-f', path]);
    return path;
  }

  it("the owner's unencrypted key file signs (user.signingkey), and verify trusts it once it is committed", async () => {
    const env = keyHome();
    const repo = ownRepo();
    const key = keygen('owner-plain', '');
    repo.git('config', 'gpg.format', 'ssh');
    repo.git('config', 'user.signingkey', key);
    const line = await trust(repo, env);
    assert.ok(line.endsWith(readFileSync(`${key}.pub`, 'utf8').trim().split(' ').slice(0, 2).join(' ')), line);
    const landed = await land(repo, env, 'owned');
    const verified = await cli(repo.root, env, 'verify', landed);
    assert.equal(verified['ok'], true, JSON.stringify(verified));
    assert.equal(data<{ signature: { key_source: string } }>(verified).signature.key_source, 'owner');
  });

  it('a passphrase key held by ssh-agent signs through the agent; without the agent the discern key signs and says why', async () => {
    const env = keyHome();
    const repo = ownRepo();
    const key = keygen('owner-agent', 'battery staple');
    const askpass = join(keys, 'askpass.sh');
    writeFileSync(askpass, '#!/bin/sh\necho "battery staple"\n');
    chmodSync(askpass, 0o700);
    const added = spawnSync('ssh-add', [key], {
      env: {
        ...cleanEnv(),
        SSH_AUTH_SOCK: agent!.sock,
        SSH_ASKPASS: askpass,
        SSH_ASKPASS_REQUIRE: 'force',
        DISPLAY: ':0',
      },
      encoding: 'utf8',
    });
    assert.equal(added.status, 0, added.stderr);
    repo.git('config', 'gpg.format', 'ssh');
    repo.git('config', 'user.signingkey', key);
    const withAgent = { ...env, SSH_AUTH_SOCK: agent!.sock };
    await trust(repo, withAgent);
    const landed = await land(repo, withAgent, 'agent-signed');
    const verified = await cli(repo.root, withAgent, 'verify', landed);
    assert.equal(verified['ok'], true, JSON.stringify(verified));
    assert.equal(data<{ signature: { key_source: string } }>(verified).signature.key_source, 'owner');

    // No agent: the encrypted key cannot sign without a prompt, so the discern key signs, and the result says why.
    const started = await cli(repo.root, env, 'start', 'no-agent');
    const path = data<{ path: string }>(started).path;
    writeFileSync(join(path, 'c.txt'), 'c\n');
    repo.git('-C', path, 'add', '-A');
    repo.git('-C', path, 'commit', '-q', '-m', 'c');
    await cli(path, env, 'done');
    const accepted = await cli(path, env, 'accept', '--confirmed');
    const write = (
      accepted['data'] as { proof_note: { write: { signature: { key_source: string; owner_key_unused?: string } } } }
    ).proof_note.write;
    assert.equal(write.signature.key_source, 'discern', JSON.stringify(write));
    assert.match(write.signature.owner_key_unused ?? '', /ssh-keygen/);
    // The discern key is not the one the trunk trusts: that note does not verify.
    assert.equal((await cli(repo.root, env, 'verify', 'main'))['error'], 'untrusted_signer');
  });

  it('the discern key signs when no owner key is configured; a note written before signing is unsigned', async () => {
    const env = keyHome();
    const repo = ownRepo();
    await trust(repo, env);
    const landed = await land(repo, env, 'plain');
    const verified = await cli(repo.root, env, 'verify', landed);
    assert.equal(data<{ signature: { key_source: string } }>(verified).signature.key_source, 'discern');
    // The note as an earlier discern wrote it: the same payload, no signature.
    const envelope = JSON.parse(repo.git('notes', '--ref=refs/notes/discern', 'show', landed)) as Record<
      string,
      unknown
    >;
    writeFileSync(join(repo.root, '..', 'old-note.json'), `${JSON.stringify({ ...envelope, signatures: [] })}\n`);
    repo.git('notes', '--ref=refs/notes/discern', 'add', '-f', '-F', join(repo.root, '..', 'old-note.json'), landed);
    const old = await cli(repo.root, env, 'verify', landed);
    assert.equal(old['error'], 'unsigned');
    const status = await cli(repo.root, env, 'status');
    assert.equal((status['data'] as { landed_proof: { signed: boolean } }).landed_proof.signed, false);
    const shown = await runCli(['status'], { cwd: repo.root, env: cleanEnv(env) });
    assert.match(shown.stdout, /unsigned \(landed before signing/);
  });
});

describe('notes that reach a clone', () => {
  it('refresh fetches the notes (never pushes them); a fresh clone verifies after git fetch; accept merges them', async () => {
    const env = keyHome();
    const repo = ownRepo(CONFIG('\n[repository]\nproof_notes = "fetch"\n'));
    await trust(repo, env);
    const remote = join(tempDir('discern-signed-remote-'), 'origin.git');
    execFileSync('git', ['init', '-q', '--bare', remote]);
    repo.git('remote', 'add', 'origin', remote);
    const refreshed = await cli(repo.root, env, 'refresh');
    const notesFetch = data<{ notes_fetch: { mode: string; changes: { refspec: string; action: string }[] } }>(
      refreshed,
    ).notes_fetch;
    assert.deepEqual(
      notesFetch.changes.map((c) => `${c.action} ${c.refspec}`),
      ['add +refs/notes/discern*:refs/notes/remotes/origin/discern*'],
    );
    const push = spawnSync('git', ['config', '--get-all', 'remote.origin.push'], { cwd: repo.root, encoding: 'utf8' });
    assert.equal(push.stdout, '', 'no push refspec');
    assert.equal(
      data<{ notes_fetch: { changes: unknown[] } }>(await cli(repo.root, env, 'refresh')).notes_fetch.changes.length,
      0,
    );
    repo.git('add', '-A');
    repo.git('commit', '-q', '-m', 'refresh', '--allow-empty');
    const landed = await land(repo, env, 'travels');
    // A fetch while the remote has no notes yet still works (the refspec is a pattern).
    repo.git('push', '-q', 'origin', 'main');
    repo.git('fetch', '-q', 'origin');
    repo.git('push', '-q', 'origin', 'main', 'refs/notes/discern');

    // A teammate's fresh clone: the refspec comes from the owner's refresh there, then an ordinary fetch.
    const clone = join(tempDir('discern-signed-clone-'), 'clone');
    execFileSync('git', ['clone', '-q', '-b', 'main', remote, clone], { env: cleanEnv({ GIT_CONFIG_NOSYSTEM: '1' }) });
    configureTestRepo(join(clone, '.git'));
    const before = await cli(clone, env, 'verify', landed);
    assert.equal(before['error'], 'note_missing', 'a plain clone has no notes');
    await cli(clone, env, 'refresh');
    execFileSync('git', ['fetch', '-q', 'origin'], { cwd: clone, env: cleanEnv({ GIT_CONFIG_NOSYSTEM: '1' }) });
    const verified = await cli(clone, env, 'verify', landed);
    assert.equal(verified['ok'], true, JSON.stringify(verified));
    assert.equal(data<{ note: { ref: string } }>(verified).note.ref, 'refs/notes/remotes/origin/discern');

    // The teammate lands too: accept merges the fetched notes into the local ones, keeping its own.
    const second = await land(repoAt(clone), env, 'second');
    const local = execFileSync('git', ['notes', '--ref=refs/notes/discern', 'list'], { cwd: clone, encoding: 'utf8' });
    assert.ok(local.includes(landed), 'the fetched note is in the local notes now');
    assert.ok(local.includes(second), 'and the landing wrote its own');
  });
});

describe('trusted keys come from the trunk', () => {
  it('a key a change adds to its own allowed signers is a policy change, and vouches for nothing it signs', async () => {
    const owner = keyHome();
    const agentHome = keyHome();
    const repo = ownRepo();
    await trust(repo, owner);
    const first = await land(repo, owner, 'first');
    // The agent's own key, added on its branch.
    const started = await cli(repo.root, agentHome, 'start', 'self-trust');
    const path = data<{ path: string }>(started).path;
    const agentLine = (await runCli(['verify', '--signer-line'], { cwd: path, env: cleanEnv(agentHome) })).stdout;
    writeFileSync(
      join(path, 'discern', 'allowed_signers'),
      `${readFileSync(join(path, 'discern', 'allowed_signers'), 'utf8')}${agentLine}`,
    );
    writeFileSync(join(path, 'x.txt'), 'x\n');
    repo.git('-C', path, 'add', '-A');
    repo.git('-C', path, 'commit', '-q', '-m', 'trust me too');
    const done = await cli(path, agentHome, 'done');
    const changes = data<{ policy_changes?: { section: string; approval: string }[] }>(done).policy_changes ?? [];
    assert.ok(
      changes.some((c) => c.section === 'discern/allowed_signers' && c.approval === 'approve_policy'),
      JSON.stringify(done),
    );
    const refused = await cli(path, agentHome, 'accept', '--confirmed');
    assert.equal(refused['error'], 'awaiting_policy_approval', JSON.stringify(refused));
    // A note the agent signs for its own commit with its own key: the trunk's signers do not include it.
    const head = repo.git('-C', path, 'rev-parse', 'HEAD').trim();
    const landedNote = JSON.parse(repo.git('notes', '--ref=refs/notes/discern', 'show', first)) as {
      payload: string;
    };
    const { issuer: _issuer, ...payload } = JSON.parse(
      Buffer.from(landedNote.payload, 'base64').toString('utf8'),
    ) as ProofNotePayload;
    payload.subject.commit = head;
    payload.proof.head = head;
    const signed = await signedProofNote(payload, { cwd: path, env: { ...process.env, ...agentHome } });
    assert.equal(signed.signature?.key_source, 'discern');
    writeFileSync(join(path, '..', 'forged.json'), signed.body);
    repo.git('notes', '--ref=refs/notes/discern', 'add', '-f', '-F', join(path, '..', 'forged.json'), head);
    const forged = await cli(path, agentHome, 'verify', head);
    assert.equal(forged['error'], 'untrusted_signer', JSON.stringify(forged));
    assert.equal(
      data<{ allowed_signers: { ref: string } }>(forged).allowed_signers.ref,
      'refs/heads/main:discern/allowed_signers',
      "read from the trunk, not the effort's branch",
    );
  });
});

describe('trust_notes', () => {
  it("done --ci takes a verified note on the trunk only when the trunk's policy says so", async () => {
    const env = keyHome();
    const trusting = ownRepo(CONFIG('\n[repository]\ntrust_notes = true\n'));
    await trust(trusting, env);
    const landed = await land(trusting, env, 'trusted');
    const ci = await cli(trusting.root, env, 'done', '--ci');
    assert.equal(ci['ok'], true, JSON.stringify(ci));
    const trusted = data<{ gate_ran: boolean; trusted_note?: { commit: string; keyid: string } }>(ci);
    assert.equal(trusted.gate_ran, false);
    assert.equal(trusted.trusted_note?.commit, landed);
    assert.equal((await cli(trusting.root, env, 'done', '--ci', '--rerun'))['data'] !== undefined, true);
    const rerun = data<{ gate_ran: boolean }>(await cli(trusting.root, env, 'done', '--ci', '--rerun'));
    assert.equal(rerun.gate_ran, true, '--rerun measures it here');

    // The same landing where the trunk does not set trust_notes: the gate runs.
    const plain = ownRepo();
    await trust(plain, env);
    await land(plain, env, 'plain');
    const ran = data<{ gate_ran: boolean; trusted_note?: unknown }>(await cli(plain.root, env, 'done', '--ci'));
    assert.equal(ran.gate_ran, true);
    assert.equal(ran.trusted_note, undefined);

    // trust_notes, but a note the trunk's keys do not vouch for: the gate runs, and the result says why.
    const untrusted = ownRepo(CONFIG('\n[repository]\ntrust_notes = true\n'));
    await land(untrusted, env, 'unvouched');
    const fallback = await cli(untrusted.root, env, 'done', '--ci');
    assert.equal(data<{ gate_ran: boolean }>(fallback).gate_ran, true);
    assert.ok(
      (fallback['hints'] as string[]).some((h) => h.includes('did not verify (no_trusted_signers)')),
      JSON.stringify(fallback['hints']),
    );
  });
});
