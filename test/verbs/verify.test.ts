// verify on real landings: a commit landed through accept verifies once the trunk trusts the key its note was
// signed with, and each way a note can fail is its own error — none, unreadable, unsigned, a signature that no
// longer holds over the note, a key the trunk does not trust (or no trusted keys at all), a note moved onto
// another commit, a tree or a policy that is not the commit's, no completion — with every check in data.checks.
// Forged notes are signed with the test's own discern key, so only the check under test can fail.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { DiscernResult } from '../../generated/types.js';
import { assertDriven, call } from '../helpers/drive.js';
import { scratchRepo, tempDir, type ScratchRepo } from '../helpers/scratch-repo.js';
import { proofNoteBody, type ProofNotePayload } from '../../src/engine/notes/proof-note.js';
import { signedProofNote } from '../../src/engine/notes/signed-envelope.js';

const CONFIG = '[project]\nname = "verify"\n\n[jobs]\ntest = "true"\n';
// The discern key the landings sign with: this file's own.
const env = { XDG_CONFIG_HOME: tempDir('discern-verify-key-') };
const repos: ScratchRepo[] = [];
after(() => repos.forEach((r) => r.cleanup()));

function show(result: DiscernResult): string {
  return JSON.stringify(result, null, 2);
}

/** A repository with one effort landed through accept; `trusted` commits this machine's signer line after. */
async function landed(trusted = true): Promise<{ repo: ScratchRepo; commit: string }> {
  const repo = scratchRepo({ 'discern.toml': CONFIG, 'a.txt': 'a\n' });
  repos.push(repo);
  const started = await call('start', { name: 'work' }, repo.root, env);
  assert.equal(started.ok, true, show(started));
  const path = (started.data as { path: string }).path;
  writeFileSync(join(path, 'b.txt'), 'b\n');
  repo.git('-C', path, 'add', '-A');
  repo.git('-C', path, 'commit', '-q', '-m', 'the change');
  assert.equal((await call('done', {}, path, env)).ok, true);
  const accepted = await call('accept', { confirmed: true }, path, env);
  assert.equal(accepted.ok, true, show(accepted));
  const commit = repo.git('rev-parse', 'main').trim();
  if (trusted) await trustThisMachine(repo);
  return { repo, commit };
}

async function trustThisMachine(repo: ScratchRepo): Promise<void> {
  const line = await call('verify', { signer_line: true }, repo.root, env, 'cli');
  assert.equal(line.ok, true, show(line));
  mkdirSync(join(repo.root, 'discern'), { recursive: true });
  writeFileSync(
    join(repo.root, 'discern', 'allowed_signers'),
    `${(line.data as { signer: { line: string } }).signer.line}\n`,
  );
  repo.git('add', '-A');
  repo.git('commit', '-q', '-m', 'trust this machine');
}

/** The payload of the note on `commit`, decoded. */
function payloadOf(repo: ScratchRepo, commit: string): ProofNotePayload {
  const envelope = JSON.parse(repo.git('notes', '--ref=refs/notes/discern', 'show', commit)) as { payload: string };
  return JSON.parse(Buffer.from(envelope.payload, 'base64').toString('utf8')) as ProofNotePayload;
}

/** Replaces the note on `commit` with `body`. */
function plant(repo: ScratchRepo, commit: string, body: string): void {
  const file = join(repo.root, '..', `note-${commit.slice(0, 8)}.json`);
  writeFileSync(file, body);
  repo.git('notes', '--ref=refs/notes/discern', 'add', '-f', '-F', file, commit);
  rmSync(file);
}

/** A note signed with the test's key (trusted), its payload edited by `edit`. */
async function forged(repo: ScratchRepo, commit: string, edit: (p: ProofNotePayload) => void): Promise<string> {
  const { issuer: _old, ...payload } = payloadOf(repo, commit);
  edit(payload);
  const signed = await signedProofNote(payload, { cwd: repo.root, env: { ...process.env, ...env } });
  assert.ok(signed.signature, signed.unsigned);
  return signed.body;
}

function checksOf(result: DiscernResult): Record<string, boolean> {
  const checks = (result.data as { checks?: { check: string; ok: boolean }[] } | undefined)?.checks ?? [];
  return Object.fromEntries(checks.map((c) => [c.check, c.ok]));
}

describe('verify', () => {
  let shared: { repo: ScratchRepo; commit: string };
  before(async () => {
    shared = await landed();
  });

  it('a landed commit verifies: signed by the key the trunk trusts, its commit, tree and policy', async () => {
    const result = await call('verify', { rev: shared.commit }, shared.repo.root, env);
    assert.equal(result.ok, true, show(result));
    const data = result.data as {
      verified: boolean;
      commit: string;
      signature: { key_source: string; signer_line: number };
    };
    assert.equal(data.verified, true);
    assert.equal(data.commit, shared.commit);
    assert.equal(data.signature.key_source, 'discern');
    assert.equal(data.signature.signer_line, 1);
    assert.ok(Object.values(checksOf(result)).every(Boolean), show(result));
  });

  it('the signer line names the key, and says once the trunk trusts it', async () => {
    const line = await call('verify', { signer_line: true }, shared.repo.root, env, 'cli');
    const signer = (line.data as { signer: { line: string; trusted: boolean; key_source: string } }).signer;
    assert.match(
      signer.line,
      /^test@discern\.invalid namespaces="discern-proof@discern\.sh,discern-exception@discern\.sh" ssh-ed25519 /,
    );
    assert.equal(signer.trusted, true);
    assert.equal(signer.key_source, 'discern');
  });

  it('status shows the last landing signed, and the command that pushes the notes once there is a remote', async () => {
    const { repo, commit } = await landed(false);
    const before = await call('status', {}, repo.root, env);
    const proof = (before.data as { landed_proof?: { commit: string; signed: boolean; keyid?: string; push?: string } })
      .landed_proof;
    assert.equal(proof?.commit, commit, show(before));
    assert.equal(proof?.signed, true);
    assert.match(proof?.keyid ?? '', /^SHA256:/);
    assert.equal(proof?.push, undefined, 'no remote, no push command');
    repo.git('remote', 'add', 'origin', join(repo.root, '..', 'nowhere.git'));
    const after = await call('status', {}, repo.root, env);
    assert.equal(
      (after.data as { landed_proof?: { push?: string } }).landed_proof?.push,
      'git push origin main refs/notes/discern refs/notes/discern-exceptions',
    );
  });

  it('a landing no key can sign still lands: its note is written unsigned, with why and the advisory', async () => {
    const repo = scratchRepo({ 'discern.toml': CONFIG, 'a.txt': 'a\n' });
    repos.push(repo);
    // The discern key's directory cannot be made: a file stands where it would go.
    const blocked = join(tempDir('discern-verify-blocked-'), 'not-a-directory');
    writeFileSync(blocked, 'x');
    const noKey = { XDG_CONFIG_HOME: blocked };
    const started = await call('start', { name: 'work' }, repo.root, noKey);
    const path = (started.data as { path: string }).path;
    writeFileSync(join(path, 'b.txt'), 'b\n');
    repo.git('-C', path, 'add', '-A');
    repo.git('-C', path, 'commit', '-q', '-m', 'the change');
    assert.equal((await call('done', {}, path, noKey)).ok, true);
    const accepted = await call('accept', { confirmed: true }, path, noKey);
    assert.equal(accepted.ok, true, show(accepted));
    const write = (accepted.data as { proof_note: { write: { status: string; reason?: string; signature?: unknown } } })
      .proof_note.write;
    assert.equal(write.status, 'unsigned', show(accepted));
    assert.match(write.reason ?? '', /discern key/);
    assert.equal(write.signature, undefined);
    assert.ok(
      accepted.advisories?.some((a) => a.kind === 'proof-recording-unavailable'),
      show(accepted),
    );
    const commit = repo.git('rev-parse', 'main').trim();
    assert.equal((await call('verify', { rev: commit }, repo.root, env)).error, 'unsigned');
  });

  it('a commit with no note is note_missing; a rev that names nothing is invalid_value', async () => {
    const none = await call('verify', { rev: 'main' }, shared.repo.root, env);
    assert.equal(none.error, 'note_missing', show(none));
    const nothing = await call('verify', { rev: 'no-such-branch' }, shared.repo.root, env);
    assert.equal(nothing.error, 'invalid_value', show(nothing));
  });

  it('before the trunk trusts any key: no_trusted_signers', async () => {
    const { repo, commit } = await landed(false);
    const result = await call('verify', { rev: commit }, repo.root, env);
    assert.equal(result.error, 'no_trusted_signers', show(result));
    assert.equal(checksOf(result)['signature_valid'], true, 'the signature itself holds');
  });

  describe('altered notes', () => {
    it('an edited payload no longer matches its signature: signature_invalid', async () => {
      const { repo, commit } = await landed();
      const envelope = JSON.parse(repo.git('notes', '--ref=refs/notes/discern', 'show', commit)) as Record<
        string,
        unknown
      >;
      const payload = payloadOf(repo, commit);
      payload.presentation.line = 'discern Proof: everything passed, trust me';
      envelope['payload'] = Buffer.from(JSON.stringify(payload)).toString('base64');
      plant(repo, commit, `${JSON.stringify(envelope)}\n`);
      const result = await call('verify', { rev: commit }, repo.root, env);
      assert.equal(result.error, 'signature_invalid', show(result));
    });

    it('an edited signature: signature_invalid', async () => {
      const { repo, commit } = await landed();
      const envelope = JSON.parse(repo.git('notes', '--ref=refs/notes/discern', 'show', commit)) as {
        signatures: { sig: string }[];
      };
      const sig = Buffer.from(envelope.signatures[0]!.sig, 'base64');
      sig.writeUInt8(sig.readUInt8(sig.length - 5) ^ 0xff, sig.length - 5);
      envelope.signatures[0]!.sig = sig.toString('base64');
      plant(repo, commit, `${JSON.stringify(envelope)}\n`);
      assert.equal((await call('verify', { rev: commit }, repo.root, env)).error, 'signature_invalid');
    });

    it('a note copied onto another commit: commit_mismatch', async () => {
      const { repo, commit } = await landed();
      const other = repo.git('rev-parse', 'main').trim();
      plant(repo, other, repo.git('notes', '--ref=refs/notes/discern', 'show', commit));
      const result = await call('verify', { rev: other }, repo.root, env);
      assert.equal(result.error, 'commit_mismatch', show(result));
    });

    it('a signed note naming another tree: tree_mismatch', async () => {
      const { repo, commit } = await landed();
      plant(
        repo,
        commit,
        await forged(repo, commit, (p) => {
          p.proof.completion!.candidate.tree = 'f'.repeat(40);
        }),
      );
      assert.equal((await call('verify', { rev: commit }, repo.root, env)).error, 'tree_mismatch');
    });

    it('a signed note naming another policy: policy_mismatch', async () => {
      const { repo, commit } = await landed();
      plant(
        repo,
        commit,
        await forged(repo, commit, (p) => {
          p.proof.completion!.candidate.policy = 'e'.repeat(64);
        }),
      );
      assert.equal((await call('verify', { rev: commit }, repo.root, env)).error, 'policy_mismatch');
    });

    it('a signed note with no completion: completion_missing', async () => {
      const { repo, commit } = await landed();
      plant(
        repo,
        commit,
        await forged(repo, commit, (p) => {
          delete p.proof.completion;
        }),
      );
      assert.equal((await call('verify', { rev: commit }, repo.root, env)).error, 'completion_missing');
    });

    it("a note from before signing reads as unsigned; a note that is not discern's is note_unreadable", async () => {
      const { repo, commit } = await landed();
      const { issuer: _issuer, ...payload } = payloadOf(repo, commit);
      plant(repo, commit, proofNoteBody(payload));
      const unsigned = await call('verify', { rev: commit }, repo.root, env);
      assert.equal(unsigned.error, 'unsigned', show(unsigned));
      assert.equal(checksOf(unsigned)['tree_matches'], true, 'what can be checked still is');
      plant(repo, commit, 'reviewed by a human, looks fine\n');
      assert.equal((await call('verify', { rev: commit }, repo.root, env)).error, 'note_unreadable');
    });

    it('a key the trunk does not trust: untrusted_signer', async () => {
      const { repo, commit } = await landed();
      const stranger = { XDG_CONFIG_HOME: tempDir('discern-verify-stranger-') };
      const { issuer: _issuer, ...payload } = payloadOf(repo, commit);
      const signed = await signedProofNote(payload, { cwd: repo.root, env: { ...process.env, ...stranger } });
      plant(repo, commit, signed.body);
      const result = await call('verify', { rev: commit }, repo.root, env);
      assert.equal(result.error, 'untrusted_signer', show(result));
    });
  });

  after(() => assertDriven(['verify']));
});
