// SSHSIG (OpenSSH's PROTOCOL.sshsig) over DSSE's pre-authentication encoding: the signature a signed note
// carries (docs/decisions/0050). Signing here is for the discern key (ed25519, in-process); the owner's own key
// signs through ssh-keygen (owner-key.ts) and yields the same blob. Verification is in-process for every
// supported key type.
import { createHash, sign, verify, type KeyObject } from 'node:crypto';
import { ecdsaCurve, fingerprint, isCryptoError, parsePublicKeyBlob, type SshPublicKey } from './ssh-keys.js';
import { SshReader, SshWireError, sshString, sshUint32 } from './ssh-wire.js';

const MAGIC = Buffer.from('SSHSIG', 'ascii');
const VERSION = 1;
const HASHES = new Set(['sha256', 'sha512']);

/** DSSE's PAE: `DSSEv1 <len(type)> <type> <len(body)> <body>`, lengths in bytes as ASCII decimal. */
export function dssePae(payloadType: string, payload: Buffer): Buffer {
  const type = Buffer.from(payloadType, 'utf8');
  return Buffer.concat([
    Buffer.from(`DSSEv1 ${type.length} `, 'ascii'),
    type,
    Buffer.from(` ${payload.length} `, 'ascii'),
    payload,
  ]);
}

/** What the key signs: SSHSIG's signed-data structure over the message's hash. */
function signedData(namespace: string, hash: string, message: Buffer): Buffer {
  return Buffer.concat([
    MAGIC,
    sshString(namespace),
    sshString(''),
    sshString(hash),
    sshString(createHash(hash).update(message).digest()),
  ]);
}

export interface ParsedSshsig {
  publicKey: Buffer;
  namespace: string;
  hash: string;
  algorithm: string;
  signature: Buffer;
}

/** Reads an SSHSIG blob; throws SshWireError when it is not one. */
export function parseSshsig(blob: Buffer): ParsedSshsig {
  const reader = new SshReader(blob);
  if (!reader.raw(MAGIC.length).equals(MAGIC)) throw new SshWireError('not an SSHSIG blob');
  if (reader.uint32() !== VERSION) throw new SshWireError('an SSHSIG version this discern does not read');
  const publicKey = reader.string();
  const namespace = reader.text();
  reader.string(); // reserved
  const hash = reader.text();
  const inner = new SshReader(reader.string());
  if (!reader.done()) throw new SshWireError('trailing bytes after the signature');
  const algorithm = inner.text();
  const signature = inner.string();
  if (!inner.done()) throw new SshWireError('trailing bytes in the signature');
  return { publicKey, namespace, hash, algorithm, signature };
}

export type SshsigCheck =
  | { ok: true; key: SshPublicKey; keyid: string }
  | { ok: false; reason: 'malformed' | 'namespace' | 'unsupported_key' | 'bad_signature'; detail: string };

/** Checks an SSHSIG blob over `message` in `namespace`. Whether the key is trusted is the caller's question. */
export function verifySshsig(blob: Buffer, message: Buffer, namespace: string): SshsigCheck {
  let parsed: ParsedSshsig;
  try {
    parsed = parseSshsig(blob);
  } catch (error) {
    if (error instanceof SshWireError) return { ok: false, reason: 'malformed', detail: error.message };
    throw error;
  }
  if (parsed.namespace !== namespace)
    return { ok: false, reason: 'namespace', detail: `signed for "${parsed.namespace}", not "${namespace}"` };
  if (!HASHES.has(parsed.hash))
    return { ok: false, reason: 'malformed', detail: `hash algorithm "${parsed.hash}" is not sha256 or sha512` };
  let key: SshPublicKey;
  try {
    key = parsePublicKeyBlob(parsed.publicKey);
  } catch (error) {
    if (error instanceof SshWireError || isCryptoError(error))
      return { ok: false, reason: 'unsupported_key', detail: error instanceof Error ? error.message : String(error) };
    throw error;
  }
  const data = signedData(namespace, parsed.hash, message);
  const good = checkSignature(key, parsed.algorithm, parsed.signature, data);
  if (good !== true)
    return {
      ok: false,
      reason: good === undefined ? 'unsupported_key' : 'bad_signature',
      detail:
        good === undefined
          ? `signature algorithm ${parsed.algorithm} does not fit a ${key.type} key`
          : 'the signature does not match the note',
    };
  return { ok: true, key, keyid: fingerprint(key.blob) };
}

/** true when the signature holds, false when it does not, undefined when the algorithm does not fit the key. */
function checkSignature(key: SshPublicKey, algorithm: string, signature: Buffer, data: Buffer): boolean | undefined {
  try {
    if (key.type === 'ssh-ed25519')
      return algorithm === 'ssh-ed25519' ? verify(null, data, key.key, signature) : undefined;
    const curve = ecdsaCurve(key.type);
    if (curve !== undefined) {
      if (algorithm !== key.type) return undefined;
      const inner = new SshReader(signature);
      const r = inner.mpint();
      const s = inner.mpint();
      if (!inner.done() || r.length > curve.field || s.length > curve.field) return false;
      const fixed = Buffer.concat([pad(r, curve.field), pad(s, curve.field)]);
      return verify(curve.hash, data, { key: key.key, dsaEncoding: 'ieee-p1363' }, fixed);
    }
    if (key.type === 'ssh-rsa') {
      // SSHSIG refuses SHA-1 RSA signatures (`ssh-rsa`), as OpenSSH does.
      const hash = algorithm === 'rsa-sha2-512' ? 'sha512' : algorithm === 'rsa-sha2-256' ? 'sha256' : undefined;
      return hash === undefined ? undefined : verify(hash, data, key.key, signature);
    }
    return undefined;
  } catch (error) {
    if (error instanceof SshWireError || isCryptoError(error)) return false;
    throw error;
  }
}

function pad(magnitude: Buffer, length: number): Buffer {
  return magnitude.length >= length ? magnitude : Buffer.concat([Buffer.alloc(length - magnitude.length), magnitude]);
}

/** Signs `message` with an ed25519 private key into an SSHSIG blob (the discern key's path). */
export function signEd25519(privateKey: KeyObject, publicBlob: Buffer, namespace: string, message: Buffer): Buffer {
  const hash = 'sha512';
  const signature = sign(null, signedData(namespace, hash, message), privateKey);
  return Buffer.concat([
    MAGIC,
    sshUint32(VERSION),
    sshString(publicBlob),
    sshString(namespace),
    sshString(''),
    sshString(hash),
    sshString(Buffer.concat([sshString('ssh-ed25519'), sshString(signature)])),
  ]);
}

const ARMOR_BEGIN = '-----BEGIN SSH SIGNATURE-----';
const ARMOR_END = '-----END SSH SIGNATURE-----';

/** The armoured text ssh-keygen writes and reads. */
export function armorSshsig(blob: Buffer): string {
  const base64 = blob.toString('base64');
  const lines = base64.match(/.{1,70}/g) ?? [];
  return `${ARMOR_BEGIN}\n${lines.join('\n')}\n${ARMOR_END}\n`;
}

/** The blob inside ssh-keygen's armour; undefined when the text is not one armoured signature. */
export function unarmorSshsig(text: string): Buffer | undefined {
  const begin = text.indexOf(ARMOR_BEGIN);
  const end = text.indexOf(ARMOR_END);
  if (begin < 0 || end < begin) return undefined;
  const body = text.slice(begin + ARMOR_BEGIN.length, end).replace(/\s+/g, '');
  return /^[A-Za-z0-9+/]+={0,2}$/.test(body) ? Buffer.from(body, 'base64') : undefined;
}
