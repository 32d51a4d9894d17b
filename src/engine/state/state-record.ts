// The one reader of discern's private state records (spec/state/*.schema.json): read, parse, validate against
// the generated validator. A record that is damaged, hand-edited into another shape or written by another
// discern is skipped — the caller sees it as absent — and noted for the call's result as a
// `state-record-skipped` advisory, never trusted and never a crash.
import { AsyncLocalStorage } from 'node:async_hooks';
import type { StateRecords } from '../../../generated/state-types.js';
import { STATE_FORMATS, STATE_VALIDATORS, type SealedKind } from '../../../generated/state-validators.js';
import { existingRepositoryKey } from './repository-key.js';
import { sealHolds } from './seal.js';
import { readJsonFile } from './atomic-write.js';

export type StateKind = keyof StateRecords;

export interface SkippedRecord {
  kind: StateKind;
  path: string;
  why: string;
}

export type StateRead<K extends StateKind> =
  | { ok: true; value: StateRecords[K] }
  | { ok: false; reason: 'missing' }
  | { ok: false; reason: 'unreadable' | 'malformed' | 'invalid'; detail: string };

const skips = new AsyncLocalStorage<SkippedRecord[]>();

/** Runs a call with its own list of skipped records (concurrent MCP calls each keep their own). */
export async function collectingSkips<T>(body: () => Promise<T>): Promise<{ value: T; skipped: SkippedRecord[] }> {
  const skipped: SkippedRecord[] = [];
  const value = await skips.run(skipped, body);
  return { value, skipped };
}

/** Kinds read without a MAC; a sealed kind is read through readSealedRecord. */
export type UnsealedKind = Exclude<StateKind, SealedKind>;

export function readStateRecord<K extends UnsealedKind>(kind: K, path: string): Promise<StateRead<K>> {
  return readCheckedRecord(kind, path);
}

async function readCheckedRecord<K extends StateKind>(kind: K, path: string): Promise<StateRead<K>> {
  const read = await readJsonFile(path);
  if (!read.ok) {
    if (read.reason === 'missing') return { ok: false, reason: 'missing' };
    return skip(kind, path, read.reason, read.detail);
  }
  const checked = await checkStateValue(kind, read.value, path);
  if (checked.ok) return checked;
  return skip(kind, path, 'invalid', checked.detail);
}

export type StateCheck<K extends StateKind> =
  { ok: true; value: StateRecords[K] } | { ok: false; reason: 'newer_format' | 'invalid'; detail: string };

/**
 * The check every state record passes before it is used, for readers that parse the file themselves (the
 * journal tells a newer discern's record from a damaged one). A format number above this discern's is
 * `newer_format`; any other mismatch is `invalid`.
 */
export async function checkStateValue<K extends StateKind>(
  kind: K,
  value: unknown,
  path: string,
): Promise<StateCheck<K>> {
  const validate = await STATE_VALIDATORS[kind]();
  if (validate(value)) return { ok: true, value };
  const format = (value as { format?: unknown } | null)?.format;
  if (typeof format === 'number' && format > STATE_FORMATS[kind])
    return {
      ok: false,
      reason: 'newer_format',
      detail: `${path} has format ${format}; this discern reads format ${STATE_FORMATS[kind]}`,
    };
  const first = validate.errors?.[0];
  const where = first ? `${first.instancePath === '' ? 'the record' : first.instancePath} ${first.message ?? ''}` : '';
  const article = /^[aeiou]/.test(kind) ? 'an' : 'a';
  return {
    ok: false,
    reason: 'invalid',
    detail: `${path} is not ${article} ${kind} record this discern writes (${where.trim()})`,
  };
}

/** Notes a record a reader skipped after its own check, for the call's `state-record-skipped` advisory. */
export function noteSkipped(kind: StateKind, path: string, why: string): void {
  const list = skips.getStore();
  if (list !== undefined && !list.some((s) => s.path === path)) list.push({ kind, path, why });
}

/**
 * A sealed kind's record, honoured only when its MAC holds under the repository's key (seal.ts): one copied from
 * another repository, written by hand, edited, or written before records were sealed reads as absent, and the
 * call's result says so. `unsealed: 'honour'` is for a reader whose every use is checked against git anyway (an
 * acceptance transaction's recovery): such a record is still read, and noted.
 */
export async function readSealedRecord<K extends SealedKind>(
  kind: K,
  path: string,
  commonDir: string,
  options: { unsealed?: 'skip' | 'honour' } = {},
): Promise<StateRead<K>> {
  const read = await readCheckedRecord(kind, path);
  if (!read.ok) return read;
  const key = await existingRepositoryKey(commonDir);
  if (key !== undefined && sealHolds(kind, read.value, key)) return read;
  const why =
    (read.value as { mac?: unknown }).mac === undefined
      ? `${path} carries no MAC: it was written by an earlier discern (or by hand), so it is not honoured`
      : `${path}'s MAC does not hold under this repository's key: it was copied from elsewhere or edited, so it is not honoured`;
  noteSkipped(kind, path, why);
  if (options.unsealed === 'honour') return read;
  return { ok: false, reason: 'invalid', detail: why };
}

/** readSealedRecord's value, or undefined. */
export async function sealedRecordOrUndefined<K extends SealedKind>(
  kind: K,
  path: string,
  commonDir: string,
  options: { unsealed?: 'skip' | 'honour' } = {},
): Promise<StateRecords[K] | undefined> {
  const read = await readSealedRecord(kind, path, commonDir, options);
  return read.ok ? read.value : undefined;
}

/** The record when it reads and validates; undefined (and noted) otherwise. */
export async function stateRecordOrUndefined<K extends UnsealedKind>(
  kind: K,
  path: string,
): Promise<StateRecords[K] | undefined> {
  const read = await readStateRecord(kind, path);
  return read.ok ? read.value : undefined;
}

function skip<K extends StateKind>(
  kind: K,
  path: string,
  reason: 'unreadable' | 'malformed' | 'invalid',
  detail: string,
): StateRead<K> {
  noteSkipped(kind, path, detail);
  return { ok: false, reason, detail };
}
