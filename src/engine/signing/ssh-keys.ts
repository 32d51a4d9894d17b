// OpenSSH public keys: the wire blob, its one-line text form (`ssh-ed25519 AAAA… comment`), its SHA256
// fingerprint, and the Node KeyObject that checks signatures made with it. ed25519, ECDSA over P-256/384/521 and
// RSA; security-key (sk-) types are not read: their signatures carry flags this version does not check.
import { createHash, createPublicKey, type KeyObject } from 'node:crypto';
import { SshReader, SshWireError } from './ssh-wire.js';

export interface SshPublicKey {
  /** The key type as OpenSSH names it, e.g. `ssh-ed25519`. */
  type: string;
  /** The wire blob, what the fingerprint and SSHSIG's publickey field are taken over. */
  blob: Buffer;
  key: KeyObject;
}

const CURVES: Record<string, { jwk: string; field: number; hash: string }> = {
  nistp256: { jwk: 'P-256', field: 32, hash: 'sha256' },
  nistp384: { jwk: 'P-384', field: 48, hash: 'sha384' },
  nistp521: { jwk: 'P-521', field: 66, hash: 'sha512' },
};

const b64url = (bytes: Buffer): string => bytes.toString('base64url');

/** The curve facts for an `ecdsa-sha2-<curve>` type, or undefined. */
export function ecdsaCurve(type: string): { jwk: string; field: number; hash: string } | undefined {
  return type.startsWith('ecdsa-sha2-') ? CURVES[type.slice('ecdsa-sha2-'.length)] : undefined;
}

/** Reads a public key blob; throws SshWireError on a malformed or unsupported one. */
export function parsePublicKeyBlob(blob: Buffer): SshPublicKey {
  const reader = new SshReader(blob);
  const type = reader.text();
  let key: KeyObject;
  if (type === 'ssh-ed25519') {
    const raw = reader.string();
    if (raw.length !== 32) throw new SshWireError('an ed25519 key is 32 bytes');
    key = createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: b64url(raw) }, format: 'jwk' });
  } else if (ecdsaCurve(type) !== undefined) {
    const curve = ecdsaCurve(type)!;
    if (reader.text() !== type.slice('ecdsa-sha2-'.length)) throw new SshWireError('the curve does not match the type');
    const point = reader.string();
    if (point.length !== 1 + 2 * curve.field || point[0] !== 0x04) throw new SshWireError('not an uncompressed point');
    const x = point.subarray(1, 1 + curve.field);
    const y = point.subarray(1 + curve.field);
    key = createPublicKey({ key: { kty: 'EC', crv: curve.jwk, x: b64url(x), y: b64url(y) }, format: 'jwk' });
  } else if (type === 'ssh-rsa') {
    const e = reader.mpint();
    const n = reader.mpint();
    key = createPublicKey({ key: { kty: 'RSA', n: b64url(n), e: b64url(e) }, format: 'jwk' });
  } else {
    throw new SshWireError(`key type ${type} is not supported`);
  }
  if (!reader.done()) throw new SshWireError('trailing bytes after the key');
  return { type, blob, key };
}

/** A key from its text form, `<type> <base64> [comment]`; undefined when it is not one. */
export function parsePublicKeyText(text: string): SshPublicKey | undefined {
  const [type, base64] = text.trim().split(/\s+/);
  if (type === undefined || base64 === undefined || !/^[A-Za-z0-9+/]+={0,2}$/.test(base64)) return undefined;
  try {
    const key = parsePublicKeyBlob(Buffer.from(base64, 'base64'));
    return key.type === type ? key : undefined;
  } catch (error) {
    if (error instanceof SshWireError || error instanceof TypeError || isCryptoError(error)) return undefined;
    throw error;
  }
}

/** OpenSSH's fingerprint: `SHA256:` and the unpadded base64 of the blob's SHA-256. */
export function fingerprint(blob: Buffer): string {
  return `SHA256:${createHash('sha256').update(blob).digest('base64').replace(/=+$/, '')}`;
}

/** The key's one-line text form, as an allowed-signers line or authorized_keys takes it. */
export function publicKeyText(key: Pick<SshPublicKey, 'type' | 'blob'>): string {
  return `${key.type} ${key.blob.toString('base64')}`;
}

/** Node's crypto errors (a point off the curve, a bad JWK) carry an ERR_ code. */
export function isCryptoError(error: unknown): boolean {
  return error instanceof Error && typeof (error as { code?: unknown }).code === 'string';
}
