// Which key signs discern's notes on this machine (docs/decisions/0050): the owner's git SSH signing key when git
// is configured for one (gpg.format = ssh and user.signingkey), else the discern key. Signing never prompts; when
// the owner's key cannot sign (an encrypted key with no agent holding it, a missing program), the discern key
// signs instead and the reason is kept, so the result can say why the note does not carry the owner's signature.
import { git } from '../git/git.js';
import { discernKey } from './discern-key.js';
import { ownerPublicKey, signWithOwnerKey, type OwnerKeyConfig } from './owner-key.js';
import { fingerprint, publicKeyText, type SshPublicKey } from './ssh-keys.js';
import { parseSshsig, signEd25519, verifySshsig } from './sshsig.js';

type Env = Readonly<Record<string, string | undefined>>;

import type { KeySource } from './key-source.js';

export type { KeySource };

export interface SigningKey {
  source: KeySource;
  publicKey: SshPublicKey;
  /** OpenSSH's SHA256 fingerprint: the DSSE signature's keyid. */
  keyid: string;
  /** The key's one-line text form (`ssh-ed25519 AAAA…`). */
  line: string;
  /** Why the owner's configured key is not the one used, when git names one. */
  ownerKeyUnused?: string;
  sign(namespace: string, message: Buffer): Promise<{ ok: true; blob: Buffer } | { ok: false; reason: string }>;
}

export type SigningKeyResult = { ok: true; key: SigningKey } | { ok: false; reason: string };

/** The owner's ssh signing configuration as git resolves it in `cwd` (one process); undefined when there is none. */
export async function ownerKeyConfig(cwd: string, env: Env): Promise<OwnerKeyConfig | undefined> {
  const listed = await git(['config', '--get-regexp', '^(gpg\\.format|user\\.signingkey|gpg\\.ssh\\.program)$'], {
    cwd,
    env,
  });
  const values = new Map<string, string>();
  for (const line of listed.stdout.split('\n')) {
    const space = line.indexOf(' ');
    if (space > 0) values.set(line.slice(0, space).toLowerCase(), line.slice(space + 1).trim());
  }
  const signingKey = values.get('user.signingkey');
  if (values.get('gpg.format') !== 'ssh' || signingKey === undefined || signingKey === '') return undefined;
  return { signingKey, program: values.get('gpg.ssh.program') || 'ssh-keygen' };
}

function keyOf(source: KeySource, publicKey: SshPublicKey, sign: SigningKey['sign'], unused?: string): SigningKey {
  return {
    source,
    publicKey,
    keyid: fingerprint(publicKey.blob),
    line: publicKeyText(publicKey),
    ...(unused !== undefined ? { ownerKeyUnused: unused } : {}),
    sign,
  };
}

/** The discern key as a signing key; `unused` says why the owner's key is not the one. */
export async function discernSigningKey(env: Env, create: boolean, unused?: string): Promise<SigningKeyResult> {
  const made = await discernKey(env, { create });
  if (!made.ok)
    return {
      ok: false,
      reason: `the discern key${made.path ? ` (${made.path})` : ''} cannot be used: ${made.reason}${unused ? `; and the owner's key: ${unused}` : ''}`,
    };
  const { privateKey, publicKey } = made.key;
  const sign: SigningKey['sign'] = (namespace, message) =>
    Promise.resolve({ ok: true, blob: signEd25519(privateKey, publicKey.blob, namespace, message) });
  return { ok: true, key: keyOf('discern', publicKey, sign, unused) };
}

/**
 * The key this machine signs with in `cwd`. `create` makes the discern key when it is the one and there is none
 * (signing, `verify --signer-line`); without it a missing discern key is a reason.
 */
export async function signingKey(cwd: string, env: Env, options: { create: boolean }): Promise<SigningKeyResult> {
  const config = await ownerKeyConfig(cwd, env);
  if (config === undefined) return discernSigningKey(env, options.create);
  const owner = await ownerPublicKey(config, env);
  if (!owner.ok) return discernSigningKey(env, options.create, owner.reason);
  const sign: SigningKey['sign'] = async (namespace, message) => {
    const signed = await signWithOwnerKey(config, namespace, message, env);
    if (!signed.ok) return signed;
    // What the program printed must be this key's signature over this message: a wrapper that signs with
    // another key, or signs something else, is caught here rather than by a later verify.
    const check = verifySshsig(signed.blob, message, namespace);
    if (!check.ok || !parseSshsig(signed.blob).publicKey.equals(owner.key.blob))
      return {
        ok: false,
        reason: `${config.program} returned a signature that is not user.signingkey's over the note`,
      };
    return signed;
  };
  return { ok: true, key: keyOf('owner', owner.key, sign) };
}
