// Keeps the shared operations store small without a daemon: every openOperation does a little eviction first.
// Records untouched for 7 days go (a record is rewritten while its operation runs, so its mtime is its last
// sign of life). Above the capacity the store gives up records in the order a reader misses least: unreadable
// ones, finished awaits (their own result lives on in the await they continued), other finished operations,
// operations whose process died unfinished, and running ones last — oldest first within each class.
//
// The work per call is bounded (a fixed number of removals, and only the oldest few records are parsed to
// classify them), so a large or damaged store costs every opener a little rather than one opener a lot; the
// store converges over successive opens. Concurrent evictors may both remove a file: a missing file is fine.
import { statSync } from 'node:fs';
import { readdir, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { isTempName, readJsonFile } from '../state/atomic-write.js';
import { holderState } from '../state/process-alive.js';
import { checkRecord, isRecordFileName, isResultFileName, resultFileName } from './record.js';

export const DEFAULT_MAX_RECORDS = 256;
export const DEFAULT_MAX_AGE_MS = 7 * 24 * 60 * 60 * 1000;
/** A temp file this old was left by a writer that died mid-write (writes take milliseconds). */
const TEMP_MAX_AGE_MS = 60 * 60 * 1000;
/** A result file with no record this old was orphaned by an eviction or a crash between two unlinks. */
const ORPHAN_GRACE_MS = 60 * 1000;

export interface RetentionOptions {
  /** The most records kept, counting the one about to be created (default 256). */
  maxRecords?: number;
  /** Records whose file was last written longer ago than this are removed (default 7 days). */
  maxAgeMs?: number;
  /** Most files removed by one call (default 32). */
  maxRemovals?: number;
  /** Most records parsed by one call to classify them for capacity eviction (default 32). */
  maxParsed?: number;
  /** Room to leave for records about to be created (default 1: the opener's own). */
  reserve?: number;
  now?: number;
}

export interface EvictionReport {
  /** Handles of the records removed, in removal order. */
  removed: string[];
  /** Temp and orphaned result files removed. */
  swept: number;
}

/** Eviction classes, in the order records are given up. */
const Rank = { Unreadable: 0, FinishedAwait: 1, Finished: 2, DeadUnfinished: 3, Running: 4 } as const;
type Rank = (typeof Rank)[keyof typeof Rank];

interface Entry {
  name: string;
  handle: string;
  mtimeMs: number;
}

export async function evictOperations(opsDir: string, options: RetentionOptions = {}): Promise<EvictionReport> {
  const now = options.now ?? Date.now();
  const maxRecords = Math.max(1, options.maxRecords ?? DEFAULT_MAX_RECORDS);
  const maxAgeMs = options.maxAgeMs ?? DEFAULT_MAX_AGE_MS;
  let budget = options.maxRemovals ?? 32;
  const report: EvictionReport = { removed: [], swept: 0 };

  let names: string[];
  try {
    names = await readdir(opsDir);
  } catch {
    return report; // No store yet (or unreadable: nothing we could evict anyway).
  }
  const records = (await statAll(opsDir, names.filter(isRecordFileName))).sort((a, b) => a.mtimeMs - b.mtimeMs);
  const recordHandles = new Set(records.map((r) => r.handle));

  // Age first: everything untouched for maxAgeMs, oldest first.
  const young: Entry[] = [];
  for (const entry of records) {
    if (now - entry.mtimeMs > maxAgeMs && budget > 0) {
      await removeRecord(opsDir, entry.handle);
      report.removed.push(entry.handle);
      recordHandles.delete(entry.handle);
      budget -= 1;
    } else {
      young.push(entry);
    }
  }

  // Litter: temp files of writers that died mid-write, and result files whose record is gone.
  const litter = await statAll(
    opsDir,
    names.filter((n) => isTempName(n) || isResultFileName(n)),
  );
  for (const entry of litter) {
    if (budget <= 0) break;
    const age = now - entry.mtimeMs;
    const orphan =
      isResultFileName(entry.name) &&
      !recordHandles.has(entry.name.slice(0, -'.result.json'.length)) &&
      age > ORPHAN_GRACE_MS;
    if ((isTempName(entry.name) && age > TEMP_MAX_AGE_MS) || orphan) {
      await unlinkQuietly(join(opsDir, entry.name));
      report.swept += 1;
      budget -= 1;
    }
  }

  // Capacity: classify the oldest few and give up the least useful first.
  const excess = young.length + (options.reserve ?? 1) - maxRecords;
  if (excess <= 0 || budget <= 0) return report;
  const parseCount = Math.min(young.length, Math.max(options.maxParsed ?? 32, Math.min(excess, budget)));
  const ranked: Array<Entry & { rank: Rank; startedMs: number }> = [];
  for (const entry of young.slice(0, parseCount)) ranked.push({ ...entry, ...(await classify(opsDir, entry)) });
  ranked.sort((a, b) => a.rank - b.rank || a.startedMs - b.startedMs || a.mtimeMs - b.mtimeMs);
  for (const entry of ranked.slice(0, Math.min(excess, budget))) {
    await removeRecord(opsDir, entry.handle);
    report.removed.push(entry.handle);
  }
  return report;
}

async function classify(opsDir: string, entry: Entry): Promise<{ rank: Rank; startedMs: number }> {
  const read = await readJsonFile(join(opsDir, entry.name));
  if (!read.ok) return { rank: Rank.Unreadable, startedMs: entry.mtimeMs };
  const checked = await checkRecord(read.value);
  if (!checked.ok) {
    // A newer discern's record is readable to that discern: give it up with the finished ones, not first.
    return { rank: checked.reason === 'newer_format' ? Rank.Finished : Rank.Unreadable, startedMs: entry.mtimeMs };
  }
  const record = checked.record;
  const started = Date.parse(record.started_at);
  const startedMs = Number.isFinite(started) ? started : entry.mtimeMs;
  if (record.finished_at !== undefined)
    return { rank: record.verb === 'await' ? Rank.FinishedAwait : Rank.Finished, startedMs };
  return { rank: holderState(record) === 'gone' ? Rank.DeadUnfinished : Rank.Running, startedMs };
}

async function statAll(dir: string, names: string[]): Promise<Entry[]> {
  // One synchronous stat per name: a few microseconds each on a directory just listed, where a promise per
  // file costs a thread-pool round trip each and, over a full store, milliseconds before the run can start.
  const entries: Entry[] = [];
  for (const name of names) {
    try {
      const info = statSync(join(dir, name));
      entries.push({ name, handle: name.replace(/(\.result)?\.json$/, ''), mtimeMs: info.mtimeMs });
    } catch {
      // Removed meanwhile by another evictor.
    }
  }
  return entries;
}

/** The record first: a reader that finds the record must not find its result_path already gone. */
async function removeRecord(opsDir: string, handle: string): Promise<void> {
  await unlinkQuietly(join(opsDir, `${handle}.json`));
  await unlinkQuietly(join(opsDir, resultFileName(handle)));
}

async function unlinkQuietly(path: string): Promise<void> {
  await unlink(path).catch(() => undefined);
}
