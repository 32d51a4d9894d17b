// The readers' side of the journal: any process, in any worktree, reads records back by handle or finds a
// checkout's latest or running operations. Records are replaced atomically, so every read sees one whole
// version; a record can still be unreadable (damaged, or written by a newer discern) and each case gets its
// own reason so the caller can say what to do.
import { existsSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { readJsonFile } from '../state/atomic-write.js';
import { parseHandle } from '../state/handles.js';
import { noteSkipped } from '../state/state-record.js';
import { holderState, type ProcessState } from '../state/process-alive.js';
import { checkRecord, isRecordFileName, operationsDir, recordFileName, type OperationRecord } from './record.js';

export type ReadOperationResult =
  | { ok: true; record: OperationRecord; path: string }
  | {
      ok: false;
      reason: 'malformed_handle' | 'checksum' | 'unknown_handle' | 'unreadable' | 'newer_format' | 'empty_store';
      message: string;
    };

export type LatestOperationResult =
  | { ok: true; record: OperationRecord; path: string }
  | { ok: false; reason: 'empty_store' | 'none_for_checkout'; message: string };

export interface StoredRecord {
  record: OperationRecord;
  path: string;
}

export interface StoreListing {
  records: StoredRecord[];
  /** Record files that could not be used, with why (damaged, or a newer format). */
  unreadable: Array<{ path: string; reason: 'unreadable' | 'malformed' | 'newer_format'; detail: string }>;
}

export async function readOperation(commonDiscernDir: string, handleText: string): Promise<ReadOperationResult> {
  const parsed = parseHandle(handleText, 'R1');
  if (!parsed.ok)
    return {
      ok: false,
      reason: parsed.reason === 'checksum' ? 'checksum' : 'malformed_handle',
      message: parsed.message,
    };
  const dir = operationsDir(commonDiscernDir);
  const path = join(dir, recordFileName(parsed.handle));
  const read = await readJsonFile(path);
  if (!read.ok) {
    if (read.reason === 'missing') {
      if (await storeIsEmpty(dir)) {
        return {
          ok: false,
          reason: 'empty_store',
          message: `No operation has been recorded in this repository (or every record has expired); ${parsed.handle} cannot be read back.`,
        };
      }
      return {
        ok: false,
        reason: 'unknown_handle',
        message: `No operation ${parsed.handle} is recorded in this repository; records are kept for 7 days.`,
      };
    }
    return {
      ok: false,
      reason: 'unreadable',
      message: `The record of ${parsed.handle} could not be read: ${read.detail}`,
    };
  }
  const checked = await checkRecord(read.value, path);
  if (!checked.ok) {
    if (checked.reason === 'newer_format') {
      return {
        ok: false,
        reason: 'newer_format',
        message: `The record of ${parsed.handle} was written by a newer discern (${checked.detail}); upgrade discern to read it.`,
      };
    }
    return {
      ok: false,
      reason: 'unreadable',
      message: `The record of ${parsed.handle} is damaged: ${checked.detail}.`,
    };
  }
  return { ok: true, record: checked.record, path };
}

/** Every readable record in the store, plus the files that could not be used. */
export async function listOperations(commonDiscernDir: string): Promise<StoreListing> {
  const dir = operationsDir(commonDiscernDir);
  const listing: StoreListing = { records: [], unreadable: [] };
  let names: string[];
  try {
    names = (await readdir(dir)).filter(isRecordFileName).sort();
  } catch {
    return listing;
  }
  const reads = await Promise.all(
    names.map(async (name) => ({ path: join(dir, name), read: await readJsonFile(join(dir, name)) })),
  );
  for (const { path, read } of reads) {
    if (!read.ok) {
      // Evicted between listing and reading: not a damaged record, just gone.
      if (read.reason === 'missing') continue;
      listing.unreadable.push({ path, reason: read.reason, detail: read.detail });
      noteSkipped('operation', path, read.detail);
      continue;
    }
    const checked = await checkRecord(read.value, path);
    if (checked.ok) listing.records.push({ record: checked.record, path });
    else {
      listing.unreadable.push({ path, reason: checked.reason, detail: checked.detail });
      noteSkipped('operation', path, checked.detail);
    }
  }
  return listing;
}

/**
 * The checkout's most recently started operation. `checkout` is compared after path resolution only, so pass
 * the root the same way the writer did (as git reports it).
 */
export async function latestOperation(commonDiscernDir: string, checkout: string): Promise<LatestOperationResult> {
  const { records, unreadable } = await listOperations(commonDiscernDir);
  if (records.length === 0 && unreadable.length === 0) {
    return {
      ok: false,
      reason: 'empty_store',
      message: 'No operation has been recorded in this repository (or every record has expired).',
    };
  }
  const root = resolve(checkout);
  const mine = records.filter((r) => readableFrom(r.record, root));
  if (mine.length === 0)
    return {
      ok: false,
      reason: 'none_for_checkout',
      message: `No operation has been recorded for ${root} in the last 7 days.`,
    };
  mine.sort((a, b) => startedMs(b.record) - startedMs(a.record) || b.record.handle.localeCompare(a.record.handle));
  const latest = mine[0] as StoredRecord;
  return { ok: true, record: latest.record, path: latest.path };
}

/**
 * Unfinished operations whose process is not known to be gone, newest first — of one checkout, or of every
 * checkout when none is given. A process on another machine counts as running (we cannot tell).
 */
export async function runningOperations(commonDiscernDir: string, checkout?: string): Promise<StoredRecord[]> {
  const { records } = await listOperations(commonDiscernDir);
  const root = checkout === undefined ? undefined : resolve(checkout);
  return records
    .filter(
      (r) =>
        (root === undefined || r.record.checkout === root) &&
        r.record.finished_at === undefined &&
        executorState(r.record) !== 'gone',
    )
    .sort((a, b) => startedMs(b.record) - startedMs(a.record));
}

/**
 * Whether a checkout reads this operation back as its own: the checkout it ran in, or — once a landing removed
 * that checkout — the surviving one it named (`root`). While the checkout it ran in is still there, it alone
 * reads it: another live checkout's operation is refused by name.
 */
export function readableFrom(record: OperationRecord, checkout: string): boolean {
  const root = resolve(checkout);
  if (record.checkout === root) return true;
  return record.root === root && !existsSync(join(record.checkout, '.git'));
}

/** Whether the process that runs (or ran) the operation still exists; 'unknown' for another machine. */
export function executorState(record: OperationRecord): ProcessState {
  return holderState(record);
}

function startedMs(record: OperationRecord): number {
  const ms = Date.parse(record.started_at);
  return Number.isFinite(ms) ? ms : 0;
}

async function storeIsEmpty(dir: string): Promise<boolean> {
  try {
    return !(await readdir(dir)).some(isRecordFileName);
  } catch {
    return true;
  }
}
