// The discern key: an ed25519 key discern makes on first use when git has no SSH signing key configured, kept
// outside every repository at $XDG_CONFIG_HOME/discern/signing/ed25519 (else ~/.config/…), one PKCS#8 PEM file,
// mode 0600 in a 0700 directory. It proves the machine, not the owner: any process of this user can read it
// (docs/decisions/0050, the trust page).
import { createPrivateKey, createPublicKey, generateKeyPairSync, type KeyObject } from 'node:crypto';
import { chmod, mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createFileExclusive } from '../state/atomic-write.js';
import { parsePublicKeyBlob, type SshPublicKey } from './ssh-keys.js';
import { sshString } from './ssh-wire.js';

export interface DiscernKey {
  path: string;
  privateKey: KeyObject;
  publicKey: SshPublicKey;
}

export type DiscernKeyResult = { ok: true; key: DiscernKey } | { ok: false; path?: string; reason: string };

/** Where the discern key lives for this environment, or undefined when neither XDG_CONFIG_HOME nor HOME is set. */
export function discernKeyPath(env: Readonly<Record<string, string | undefined>>): string | undefined {
  const base = env['XDG_CONFIG_HOME'] || (env['HOME'] ? join(env['HOME'], '.config') : '');
  return base === '' ? undefined : join(base, 'discern', 'signing', 'ed25519');
}

/** The OpenSSH public key of an ed25519 KeyObject. */
export function ed25519PublicKey(key: KeyObject): SshPublicKey {
  const x = createPublicKey(key).export({ format: 'jwk' }).x;
  if (typeof x !== 'string') throw new Error('not an ed25519 key');
  return parsePublicKeyBlob(Buffer.concat([sshString('ssh-ed25519'), sshString(Buffer.from(x, 'base64url'))]));
}

function fromPem(path: string, pem: string): DiscernKeyResult {
  try {
    const privateKey = createPrivateKey(pem);
    if (privateKey.asymmetricKeyType !== 'ed25519') return { ok: false, path, reason: 'it is not an ed25519 key' };
    return { ok: true, key: { path, privateKey, publicKey: ed25519PublicKey(privateKey) } };
  } catch (error) {
    return { ok: false, path, reason: `it is not a readable key (${(error as Error).message})` };
  }
}

/**
 * The discern key; with `create`, made when there is none. Two first users race to one key (exclusive create).
 * A damaged file is reported, never replaced: notes it signed would stop verifying.
 */
export async function discernKey(
  env: Readonly<Record<string, string | undefined>>,
  options: { create: boolean },
): Promise<DiscernKeyResult> {
  const path = discernKeyPath(env);
  if (path === undefined) return { ok: false, reason: 'neither XDG_CONFIG_HOME nor HOME is set' };
  try {
    for (let attempt = 0; attempt < 2; attempt++) {
      const existing = await readFile(path, 'utf8').catch((error: NodeJS.ErrnoException) =>
        error.code === 'ENOENT' ? undefined : Promise.reject(error),
      );
      if (existing !== undefined) return fromPem(path, existing);
      if (!options.create) return { ok: false, path, reason: 'there is no discern key yet' };
      const { privateKey } = generateKeyPairSync('ed25519');
      const pem = privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();
      const dir = join(path, '..');
      await mkdir(dir, { recursive: true, mode: 0o700 });
      await chmod(dir, 0o700);
      if (await createFileExclusive(path, pem, { mode: 0o600 })) return fromPem(path, pem);
      // Another process made it first: read theirs.
    }
    return { ok: false, path, reason: 'it kept changing while it was read' };
  } catch (error) {
    return { ok: false, path, reason: (error as Error).message };
  }
}
