// Folds a job's DISCERN_PROGRESS facts into one picture. Pure and dependency-free, so the runner (live, line by
// line) and the journal (replaying recorded facts after a restart) merge the same way and cannot drift apart.
import type { DiscernProgressLine } from '../../../generated/types.js';

export interface MergedProgressUnits {
  kind: string;
  completed: number;
  /** null: the producer has not said how many there are. */
  total: number | null;
}

export interface MergedProgressFailure {
  name: string;
  message: string;
  file?: string;
  line?: number;
  reproduce?: string;
}

export interface MergedProgress {
  units?: MergedProgressUnits;
  results?: Record<string, number>;
  active?: string[];
  elapsed_ms?: number;
  /** Once a producer says its counts are partial they stay partial: later facts cannot make them whole. */
  partial: boolean;
  failures: MergedProgressFailure[];
}

/**
 * A chatty test runner may report thousands of failures; the merged picture keeps the first ones (the earliest
 * failure is usually the cause, the rest its fallout) so memory and journal lines stay bounded.
 */
export const MAX_MERGED_FAILURES = 100;

export function emptyMergedProgress(): MergedProgress {
  return { partial: false, failures: [] };
}

/**
 * Returns `merged` with `fact` applied; never mutates either. Units, active and elapsed_ms replace (they
 * describe "now"); results merge per key with the latest value winning (producers may report one counter at a
 * time); partial is sticky; failures accumulate up to MAX_MERGED_FAILURES. `fact` is expected to have passed
 * the generated validator already; unknown keys are ignored.
 */
export function mergeProgress(merged: MergedProgress, fact: DiscernProgressLine): MergedProgress {
  const next: MergedProgress = { ...merged, failures: merged.failures };
  if (fact.units !== undefined) {
    next.units = { kind: fact.units.kind, completed: fact.units.completed, total: fact.units.total ?? null };
  }
  if (fact.results !== undefined) {
    // Object spread and fromEntries define own properties, so a key such as "__proto__" stays a plain count.
    const incoming = Object.entries(fact.results).filter(
      (entry): entry is [string, number] => typeof entry[1] === 'number',
    );
    if (incoming.length > 0) next.results = { ...(merged.results ?? {}), ...Object.fromEntries(incoming) };
  }
  if (fact.active !== undefined) next.active = [...fact.active];
  if (fact.elapsed_ms !== undefined) next.elapsed_ms = fact.elapsed_ms;
  if (fact.partial === true) next.partial = true;
  if (fact.failure !== undefined && merged.failures.length < MAX_MERGED_FAILURES) {
    const { name, message, file, line, reproduce } = fact.failure;
    const failure: MergedProgressFailure = { name, message };
    if (file !== undefined) failure.file = file;
    if (line !== undefined) failure.line = line;
    if (reproduce !== undefined) failure.reproduce = reproduce;
    next.failures = [...merged.failures, failure];
  }
  return next;
}
