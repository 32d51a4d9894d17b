// The progress journal's record: one JSON file per operation, `<git-common-dir>/discern/operations/<handle>.json`,
// shared by every worktree of the repository so that a run can be read back from anywhere after a lost or
// timed-out call. Only the process executing the operation writes its record; everyone else reads. This
// module holds the shape (format 1), the paths, and the check a reader applies before trusting a file that
// another process — possibly another discern version — wrote.
import type { DiscernProgressFailure, DiscernProgressUnits } from '../../../generated/types.js';
import type { StateOperation } from '../../../generated/state-types.js';
import { join } from 'node:path';
import { checkStateValue } from '../state/state-record.js';

export const JOURNAL_FORMAT = 1;

export type OperationOutcome = 'completed' | 'failed' | 'cancelled';
export type ProducerState = 'pending' | 'running' | 'ok' | 'failed' | 'cancelled' | 'skipped';

/** The latest fact about the operation: what it is doing, and whether its owner has to do something. */
export interface ProgressFact {
  phase: string;
  state: string;
  reason: string;
  next: string;
  owner_must_act: boolean;
}

/** The journal keeps units and failures in the shapes `progress` publishes them in. */
export type ProducerUnits = DiscernProgressUnits;

export interface ProducerEntry {
  producer: string;
  state: ProducerState;
  units?: ProducerUnits;
  results?: Record<string, number>;
  active?: string[];
  elapsed_ms?: number;
  partial?: boolean;
  output_path?: string;
}

export type FailureEntry = DiscernProgressFailure;

export interface TimingEntry {
  interval_id: string;
  category: string;
  started_at: string;
  finished_at?: string;
}

export interface WaitEntry {
  id: string;
  state: 'waiting' | 'done';
  reason: string;
  started_at: string;
  finished_at?: string;
  next: string;
  capacity?: number;
  in_use?: number;
}

/** One plan-step event as the verb reports it (kind, label, outcome, and whatever else the step carries). */
export interface StepEvent {
  kind: string;
  label: string;
  outcome?: string;
  [key: string]: unknown;
}

/** How many entries of each bounded list were not kept (present only when something was dropped). */
export interface DroppedCounts {
  failures?: number;
  timings?: number;
  waits?: number;
  steps?: number;
}

export interface OperationRecord {
  format: typeof JOURNAL_FORMAT;
  handle: string;
  verb: string;
  /** Absolute path of the checkout root the operation runs in. */
  checkout: string;
  /** The checkout that reads this operation back once a landing removed `checkout` (the main checkout). */
  root?: string;
  branch: string | null;
  pid: number;
  hostname: string;
  /** Linux pid namespace of the writer: a reader in another namespace cannot probe `pid`. */
  pid_ns?: string;
  /** The writer's start time, so a pid reused by another process is not mistaken for the writer. */
  pid_start?: number;
  started_at: string;
  finished_at?: string;
  outcome?: OperationOutcome;
  last_activity_at: string;
  progress: ProgressFact;
  producers: Record<string, ProducerEntry>;
  failures: FailureEntry[];
  timings: TimingEntry[];
  waits: WaitEntry[];
  steps: StepEvent[];
  /** Process groups of jobs still running, so a later run can reap what a killed discern left behind. */
  pgids: number[];
  result?: unknown;
  result_truncated?: boolean;
  result_path?: string;
  account: string[];
  dropped?: DroppedCounts;
  /** An await's watch, kept current so a stopped call can be continued with the same watch. */
  watch?: WatchEntry;
}

/** What an await watches, what it last saw, and the continuation that keeps the same watch. */
export type WatchEntry = NonNullable<StateOperation['watch']>;

/** Bounds that keep a record small enough to rewrite several times a second. */
export const LIMITS = { failures: 200, timings: 500, waits: 100, steps: 1000 } as const;

export function operationsDir(commonDiscernDir: string): string {
  return join(commonDiscernDir, 'operations');
}

export function recordFileName(handle: string): string {
  return `${handle}.json`;
}

export function resultFileName(handle: string): string {
  return `${handle}.result.json`;
}

/** Record files are `R1-….json`; result files (`R1-….result.json`) and temp files are not records. */
export function isRecordFileName(name: string): boolean {
  return /^R1-[0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{2}\.json$/.test(name);
}

export function isResultFileName(name: string): boolean {
  return /^R1-[0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{2}\.result\.json$/.test(name);
}

export type RecordCheck =
  { ok: true; record: OperationRecord } | { ok: false; reason: 'newer_format' | 'malformed'; detail: string };

/**
 * The journal's use of the one state check (spec/state/operation.schema.json). A newer format is reported as
 * such (the reader should say "upgrade discern"), not as damage; unknown extra fields are allowed (additive
 * changes keep format 1).
 */
export async function checkRecord(value: unknown, path = 'the record'): Promise<RecordCheck> {
  const checked = await checkStateValue('operation', value, path);
  if (checked.ok) return { ok: true, record: checked.value as OperationRecord };
  return {
    ok: false,
    reason: checked.reason === 'newer_format' ? 'newer_format' : 'malformed',
    detail: checked.detail,
  };
}

/** What the writer builds is what the schema accepts: a compile-time check, no code. */
export type WriterMatchesSchema = Pick<OperationRecord, keyof OperationRecord> extends StateOperation ? true : never;
const _writerMatchesSchema: WriterMatchesSchema = true;
void _writerMatchesSchema;
