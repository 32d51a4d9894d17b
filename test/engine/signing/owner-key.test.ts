// The owner's git SSH signing key through ssh-keygen -Y sign: an unencrypted key file signs, a passphrase key
// loaded into a real ssh-agent signs through the agent (user.signingkey as a `key::` literal, as git allows),
// and a passphrase key with no agent fails at once with a reason instead of prompting.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '../../helpers/scratch-repo.js';
import { signWithOwnerKey } from '../../../src/engine/signing/owner-key.js';
import { dssePae, verifySshsig } from '../../../src/engine/signing/sshsig.js';

const NS = 'discern-proof@discern.sh';
const dir = tempDir('discern-owner-key-');
const message = dssePae('application/vnd.test+json', Buffer.from('{"n":1}'));
const env = { PATH: process.env['PATH'] ?? '/usr/bin:/bin', HOME: dir };

function keygen(name: string, passphrase: string): string {
  const path = join(dir, name);
  execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', passphrase, '-C', name, '-f', path]);
  return path;
}

describe('signing with the owner key', () => {
  let agent: { sock: string; pid: number } | undefined;
  before(() => {
    const sock = join(dir, 'agent.sock');
    const out = execFileSync('ssh-agent', ['-s', '-a', sock], { encoding: 'utf8' });
    const pid = Number(/SSH_AGENT_PID=(\d+)/.exec(out)?.[1]);
    agent = { sock, pid };
  });
  after(() => {
    if (agent) spawnSync('kill', [String(agent.pid)]);
  });

  it('signs with an unencrypted key file named by user.signingkey (with ~)', async () => {
    keygen('plain', '');
    const signed = await signWithOwnerKey({ signingKey: '~/plain', program: 'ssh-keygen' }, NS, message, env);
    assert.ok(signed.ok, JSON.stringify(signed));
    assert.ok(verifySshsig(signed.blob, message, NS).ok);
  });

  it('a passphrase key with no agent fails with a reason and never prompts', async () => {
    const key = keygen('locked', 'correct horse');
    const started = Date.now();
    const signed = await signWithOwnerKey({ signingKey: key, program: 'ssh-keygen' }, NS, message, env);
    assert.equal(signed.ok, false);
    assert.match(!signed.ok ? signed.reason : '', /ssh-keygen -Y sign failed/);
    assert.ok(Date.now() - started < 8000, 'it did not wait for a passphrase');
  });

  it('a passphrase key loaded into ssh-agent signs through the agent, named as a key:: literal', async () => {
    const key = keygen('agent-key', 'battery staple');
    const askpass = join(dir, 'askpass.sh');
    writeFileSync(askpass, '#!/bin/sh\necho "battery staple"\n');
    chmodSync(askpass, 0o700);
    const added = spawnSync('ssh-add', [key], {
      env: { ...env, SSH_AUTH_SOCK: agent!.sock, SSH_ASKPASS: askpass, SSH_ASKPASS_REQUIRE: 'force', DISPLAY: ':0' },
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    assert.equal(added.status, 0, added.stderr);
    const literal = `key::${readFileSync(`${key}.pub`, 'utf8').trim()}`;
    const signed = await signWithOwnerKey({ signingKey: literal, program: 'ssh-keygen' }, NS, message, {
      ...env,
      SSH_AUTH_SOCK: agent!.sock,
    });
    assert.ok(signed.ok, JSON.stringify(signed));
    const check = verifySshsig(signed.blob, message, NS);
    assert.ok(check.ok);
    const withoutAgent = await signWithOwnerKey({ signingKey: literal, program: 'ssh-keygen' }, NS, message, env);
    assert.equal(withoutAgent.ok, false, 'without the agent the literal key cannot sign');
  });

  it('a missing program is a reason, not a throw', async () => {
    const signed = await signWithOwnerKey(
      { signingKey: '~/plain', program: join(dir, 'no-such-keygen') },
      NS,
      message,
      env,
    );
    assert.equal(signed.ok, false);
  });
});
