// SSHSIG against OpenSSH itself: signatures ssh-keygen makes (ed25519, ECDSA P-256/384/521, RSA) verify
// in-process with the fingerprint ssh-keygen prints, and the discern key's in-process signatures verify with
// `ssh-keygen -Y verify`. Altered messages, namespaces and blobs are refused with their own reason.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '../../helpers/scratch-repo.js';
import { ed25519PublicKey } from '../../../src/engine/signing/discern-key.js';
import { fingerprint, parsePublicKeyText, publicKeyText } from '../../../src/engine/signing/ssh-keys.js';
import { armorSshsig, dssePae, signEd25519, unarmorSshsig, verifySshsig } from '../../../src/engine/signing/sshsig.js';

const NS = 'discern-proof@discern.sh';
const dir = tempDir('discern-sshsig-');
const message = dssePae('application/vnd.test+json', Buffer.from('{"subject":{"commit":"abc"}}'));

function keygen(name: string, type: string, bits?: number): string {
  const path = join(dir, name);
  execFileSync('ssh-keygen', [
    '-q',
    '-t',
    type,
    ...(bits ? ['-b', String(bits)] : []),
    '-N',
    '',
    '-C',
    name,
    '-f',
    path,
  ]);
  return path;
}

function sshSign(key: string, data: Buffer, namespace = NS): Buffer {
  const out = execFileSync('ssh-keygen', ['-Y', 'sign', '-n', namespace, '-f', key], { input: data });
  const blob = unarmorSshsig(out.toString('utf8'));
  assert.ok(blob, out.toString('utf8'));
  return blob;
}

function sshFingerprint(pub: string): string {
  return execFileSync('ssh-keygen', ['-l', '-E', 'sha256', '-f', pub], { encoding: 'utf8' }).split(' ')[1] ?? '';
}

describe('SSHSIG', () => {
  for (const [type, bits] of [
    ['ed25519', undefined],
    ['ecdsa', 256],
    ['ecdsa', 384],
    ['ecdsa', 521],
    ['rsa', 3072],
  ] as const) {
    it(`verifies what ssh-keygen signs with a ${type}${bits ? ` ${bits}` : ''} key, naming its fingerprint`, () => {
      const key = keygen(`${type}${bits ?? ''}`, type, bits);
      const blob = sshSign(key, message);
      const check = verifySshsig(blob, message, NS);
      assert.ok(check.ok, JSON.stringify(check));
      assert.equal(check.keyid, sshFingerprint(`${key}.pub`));
      const pub = parsePublicKeyText(readFileSync(`${key}.pub`, 'utf8'));
      assert.ok(pub && pub.blob.equals(check.key.blob));

      const altered = Buffer.from(message);
      altered[altered.length - 2] = (altered[altered.length - 2] ?? 0) ^ 1;
      const bad = verifySshsig(blob, altered, NS);
      assert.equal(bad.ok, false);
      assert.equal(!bad.ok && bad.reason, 'bad_signature');
    });
  }

  it('refuses a signature made for another namespace, such as git commit signing', () => {
    const key = keygen('ns', 'ed25519');
    const check = verifySshsig(sshSign(key, message, 'git'), message, NS);
    assert.equal(!check.ok && check.reason, 'namespace');
  });

  it('refuses a blob that is cut short, has a flipped signature byte, or is not SSHSIG at all', () => {
    const key = keygen('cut', 'ed25519');
    const blob = sshSign(key, message);
    const cut = verifySshsig(blob.subarray(0, blob.length - 5), message, NS);
    assert.equal(!cut.ok && cut.reason, 'malformed');
    const flipped = Buffer.from(blob);
    flipped[flipped.length - 1] = (flipped[flipped.length - 1] ?? 0) ^ 0x40;
    const bad = verifySshsig(flipped, message, NS);
    assert.equal(!bad.ok && bad.reason, 'bad_signature');
    const junk = verifySshsig(Buffer.from('not a signature'), message, NS);
    assert.equal(!junk.ok && junk.reason, 'malformed');
  });

  it('the discern key signs in-process and ssh-keygen -Y verify accepts it', () => {
    const { privateKey } = generateKeyPairSync('ed25519');
    const pub = ed25519PublicKey(privateKey);
    const blob = signEd25519(privateKey, pub.blob, NS, message);
    const check = verifySshsig(blob, message, NS);
    assert.ok(check.ok);
    assert.equal(check.keyid, fingerprint(pub.blob));

    const signers = join(dir, 'allowed_signers');
    writeFileSync(signers, `owner@example.com namespaces="${NS}" ${publicKeyText(pub)}\n`);
    const sig = join(dir, 'discern.sig');
    writeFileSync(sig, armorSshsig(blob));
    const verified = spawnSync(
      'ssh-keygen',
      ['-Y', 'verify', '-f', signers, '-I', 'owner@example.com', '-n', NS, '-s', sig],
      { input: message, encoding: 'utf8' },
    );
    assert.equal(verified.status, 0, verified.stderr + verified.stdout);
    assert.match(verified.stdout, /Good "discern-proof@discern\.sh" signature for owner@example\.com/);
  });

  it('the pre-authentication encoding counts bytes, not characters', () => {
    assert.equal(dssePae('t', Buffer.from('é', 'utf8')).toString('utf8'), 'DSSEv1 1 t 2 é');
  });
});
