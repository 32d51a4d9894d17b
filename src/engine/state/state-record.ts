// The one reader of discern's private state records (spec/state/*.schema.json): read, parse, validate against
// the generated validator. A record that is damaged, hand-edited into another shape or written by another
// discern is skipped — the caller sees it as absent — and noted for the call's result as a
// `state-record-skipped` advisory, never trusted and never a crash.
import { AsyncLocalStorage } from 'node:async_hooks';
import type { StateRecords } from '../../../generated/state-types.js';
import { STATE_FORMATS, STATE_VALIDATORS } from '../../../generated/state-validators.js';
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

export async function readStateRecord<K extends StateKind>(kind: K, path: string): Promise<StateRead<K>> {
  const read = await readJsonFile(path);
  if (!read.ok) {
    if (read.reason === 'missing') return { ok: false, reason: 'missing' };
    return skip(kind, path, read.reason, read.detail);
  }
  const checked = checkStateValue(kind, read.value, path);
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
export function checkStateValue<K extends StateKind>(kind: K, value: unknown, path: string): StateCheck<K> {
  const validate = STATE_VALIDATORS[kind];
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

/** The record when it reads and validates; undefined (and noted) otherwise. */
export async function stateRecordOrUndefined<K extends StateKind>(
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
