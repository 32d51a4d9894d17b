// Sealed state records (spec/state: x-discern-sealed): a `mac` field, HMAC-SHA-256 keyed by the repository's key
// over the record's kind and its canonical JSON without the field. The kind is part of the MAC, so an evidence
// record cannot stand in for a Proof marker, and canonical JSON makes the MAC independent of key order and
// spacing. Written by writeSealed, read back through the state reader (readSealedRecord in state-record.ts).
import type { SealedKind } from '../../../generated/state-validators.js';
import { canonicalJson } from '../gate/canonical-json.js';
import { writeFileAtomic } from './atomic-write.js';
import { repositoryKey } from './repository-key.js';

// node:crypto loads where a MAC is computed, not with every call that might read a record.
const crypto = (): typeof import('node:crypto') => process.getBuiltinModule('node:crypto');

export function macOf(kind: SealedKind, record: object, key: Buffer): string {
  const { mac: _mac, ...rest } = record as { mac?: unknown };
  return crypto()
    .createHmac('sha256', key)
    .update(`discern-state:${kind}\n${canonicalJson(rest)}`)
    .digest('hex');
}

/** Whether the record carries the MAC its content and kind have under this key. */
export function sealHolds(kind: SealedKind, record: object, key: Buffer): boolean {
  const mac = (record as { mac?: unknown }).mac;
  if (typeof mac !== 'string' || !/^[0-9a-f]{64}$/.test(mac)) return false;
  return crypto().timingSafeEqual(Buffer.from(mac, 'hex'), Buffer.from(macOf(kind, record, key), 'hex'));
}

/** The record with its MAC, under the repository's key (created on first use). */
export async function sealed<T extends object>(
  kind: SealedKind,
  record: T,
  commonDir: string,
): Promise<T & { mac: string }> {
  const key = await repositoryKey(commonDir);
  if (!key.ok) throw new Error(`the repository key ${key.path} cannot be used: ${key.reason}`);
  const { mac: _mac, ...rest } = record as T & { mac?: string };
  return { ...(rest as T), mac: macOf(kind, rest, key.key) };
}

/** Writes a sealed record atomically, as pretty JSON. */
export async function writeSealed(kind: SealedKind, path: string, record: object, commonDir: string): Promise<void> {
  await writeFileAtomic(path, `${JSON.stringify(await sealed(kind, record, commonDir), null, 2)}\n`);
}
