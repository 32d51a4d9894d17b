// Builds the desk's snapshot from what its sources read: the status result's data (the fleet and the landing
// queue, taken as they are, so the desk never orders a row differently from `discern status`) and the journal's
// records with each one's executor state (probed by the caller, so this stays pure).
import type { DiscernStatusData } from '../../../../generated/types.js';
import type { OperationRecord } from '../../../engine/journal/index.js';
import type { DeskSnapshot, LastGate, OperationRow } from './model.js';

export interface JournalEntry {
  record: OperationRecord;
  executor: 'running' | 'gone' | 'unknown';
}

export function buildSnapshot(
  status: DiscernStatusData,
  journal: readonly JournalEntry[],
  readAt: number,
): DeskSnapshot {
  const fleet = status.fleet ?? [];
  return {
    project: status.project.name,
    root: status.root,
    trunk: status.git.trunk,
    fleet,
    fleetTotal: status.fleet_total ?? fleet.length,
    queue: status.queue ?? [],
    ...(status.unhonoured_records?.length ? { unhonoured: status.unhonoured_records } : {}),
    operations: runningOperations(journal),
    lastGates: lastGates(journal),
    readAt,
  };
}

/** Unfinished records whose process is not known to be gone, newest first (as the journal's reader lists them). */
export function runningOperations(journal: readonly JournalEntry[]): OperationRow[] {
  return journal
    .filter((e) => e.record.finished_at === undefined && e.executor !== 'gone')
    .sort((a, b) => started(b.record) - started(a.record) || b.record.handle.localeCompare(a.record.handle))
    .map(({ record, executor }) => ({
      handle: record.handle,
      verb: record.verb,
      checkout: record.checkout,
      branch: record.branch,
      started_at: record.started_at,
      phase: record.progress.phase,
      state: record.progress.state,
      reason: record.progress.reason,
      executor,
    }));
}

/** Each checkout's most recently started `done`. */
export function lastGates(journal: readonly JournalEntry[]): Record<string, LastGate> {
  const latest: Record<string, OperationRecord> = {};
  for (const { record } of journal) {
    if (record.verb !== 'done') continue;
    const seen = latest[record.checkout];
    if (seen === undefined || started(record) > started(seen)) latest[record.checkout] = record;
  }
  return Object.fromEntries(
    Object.entries(latest).map(([checkout, r]) => [
      checkout,
      {
        handle: r.handle,
        started_at: r.started_at,
        ...(r.finished_at !== undefined ? { finished_at: r.finished_at } : {}),
        ...(r.outcome !== undefined ? { outcome: r.outcome } : {}),
        reason: r.progress.reason,
      },
    ]),
  );
}

function started(record: OperationRecord): number {
  const ms = Date.parse(record.started_at);
  return Number.isFinite(ms) ? ms : 0;
}
