// The live view's model, pure: live updates in, the state to draw (one row per producer, the overall count, a
// wait, a watch) and the facts worth a line of their own out. The terminal region and the plain line writer
// both read it, so they agree on what happened; neither parses a message (docs/decisions/0033-live-region-on-stderr.md).
import type { LiveCounts, LiveProducerState } from '../../engine/live/live-events.js';
import type { LiveUpdate } from '../../verbs/context.js';

export interface RowModel {
  label: string;
  state: LiveProducerState;
  counts?: LiveCounts;
  detail?: string;
  /** Running: when it started, on the view's clock, so its time keeps ticking between updates. */
  startedAt?: number;
  /** Ended: how long it ran. */
  durationMs?: number;
}

export interface LiveModel {
  /** When the view started: the run's total time is measured from here. */
  startedAt: number;
  rows: readonly RowModel[];
  completed: number;
  total?: number;
  wait?: { reason: string; capacity: number; inUse: number; since: number };
  watch?: { what: string; since: number };
  /** The latest message that is not about a producer (a phase, a verb without structure). */
  status?: string;
}

export type Ended = Exclude<LiveProducerState, 'pending' | 'running'>;

export type LiveFact =
  /** A message: `durable` when it is worth keeping (the progress handle), otherwise only the latest status. */
  | { kind: 'note'; text: string; durable: boolean }
  | { kind: 'started'; label: string }
  | {
      kind: 'ended';
      label: string;
      state: Ended;
      durationMs?: number;
      counts?: LiveCounts;
      detail?: string;
      completed: number;
      total?: number;
    }
  | { kind: 'failure'; label: string; name: string; message: string; file?: string; line?: number }
  | { kind: 'wait-start'; capacity: number; inUse: number }
  | { kind: 'wait-end'; waitedMs: number }
  | { kind: 'watch'; text: string };

export function emptyModel(now: number): LiveModel {
  return { startedAt: now, rows: [], completed: 0 };
}

const ENDED: ReadonlySet<LiveProducerState> = new Set(['ok', 'failed', 'cancelled', 'skipped']);

/** Applies one update at time `now`: the next model and the facts it brought, in the order they happened. */
export function applyUpdate(
  model: LiveModel,
  update: LiveUpdate,
  now: number,
): { model: LiveModel; facts: LiveFact[] } {
  const facts: LiveFact[] = [];
  let rows = model.rows;
  let { wait, watch, status } = model;
  let planned = rows.length > 0;
  if (update.events === undefined) {
    // A verb that reports only sentences: the sentence is the status, kept as a line when durable. An update
    // with structure, even none (a stage starting), is told by its events: its sentence is for other channels.
    if (update.durable === true) facts.push({ kind: 'note', text: update.message, durable: true });
    else status = update.message;
    return { model: withOptional({ ...model, status }), facts };
  }
  for (const event of update.events) {
    switch (event.kind) {
      case 'plan':
        rows = event.producers.map((label) => ({ label, state: 'pending' as const }));
        planned = true;
        wait = undefined;
        break;
      case 'phase':
        if (event.phase === 'announce') facts.push({ kind: 'note', text: event.message, durable: true });
        else status = event.phase === 'finished' ? undefined : event.message;
        break;
      case 'producer': {
        const index = rows.findIndex((r) => r.label === event.label);
        const before = index >= 0 ? rows[index] : undefined;
        const row: RowModel = {
          label: event.label,
          state: event.state,
          ...(event.counts ? { counts: event.counts } : before?.counts ? { counts: before.counts } : {}),
          ...(event.detail !== undefined ? { detail: event.detail } : {}),
          ...(event.state === 'running'
            ? {
                startedAt:
                  before?.state === 'running' && before.startedAt !== undefined
                    ? before.startedAt
                    : now - (event.elapsedMs ?? 0),
              }
            : {}),
          ...(ENDED.has(event.state) && event.elapsedMs !== undefined ? { durationMs: event.elapsedMs } : {}),
        };
        rows = index >= 0 ? rows.map((r, i) => (i === index ? row : r)) : [...rows, row];
        if (event.state === 'running' && before?.state !== 'running')
          facts.push({ kind: 'started', label: event.label });
        // A phase's sentence ("checking preconditions") is over once the jobs run; it must not come back after them.
        if (event.state === 'running') status = undefined;
        if (ENDED.has(event.state) && (before === undefined || !ENDED.has(before.state))) {
          facts.push({
            kind: 'ended',
            label: event.label,
            state: event.state as Ended,
            ...(row.durationMs !== undefined ? { durationMs: row.durationMs } : {}),
            ...(row.counts ? { counts: row.counts } : {}),
            ...(row.detail !== undefined ? { detail: row.detail } : {}),
            completed: update.completed,
            ...(update.total !== undefined ? { total: update.total } : {}),
          });
        }
        break;
      }
      case 'failure':
        facts.push({
          kind: 'failure',
          label: event.label,
          name: event.name,
          message: event.message,
          ...(event.file !== undefined ? { file: event.file } : {}),
          ...(event.line !== undefined ? { line: event.line } : {}),
        });
        break;
      case 'wait-start':
        wait = { reason: event.reason, capacity: event.capacity, inUse: event.inUse, since: now };
        facts.push({ kind: 'wait-start', capacity: event.capacity, inUse: event.inUse });
        break;
      case 'wait-end':
        wait = undefined;
        facts.push({ kind: 'wait-end', waitedMs: event.waitedMs });
        break;
      case 'watch':
        watch = { what: event.what, since: watch?.what === event.what ? watch.since : now - event.elapsedMs };
        facts.push({ kind: 'watch', text: update.message });
        break;
    }
  }
  // The overall count belongs to the run's producers; an update without them (a watch's heartbeats) has none.
  const counted = planned
    ? { completed: update.completed, ...(update.total !== undefined ? { total: update.total } : {}) }
    : { completed: model.completed };
  return { model: withOptional({ startedAt: model.startedAt, rows, ...counted, wait, watch, status }), facts };
}

/** Drops the optional keys that are undefined (exactOptionalPropertyTypes). */
function withOptional(m: { [K in keyof LiveModel]: LiveModel[K] | undefined }): LiveModel {
  const out: LiveModel = { startedAt: m.startedAt ?? 0, rows: m.rows ?? [], completed: m.completed ?? 0 };
  if (m.total !== undefined) out.total = m.total;
  if (m.wait !== undefined) out.wait = m.wait;
  if (m.watch !== undefined) out.watch = m.watch;
  if (m.status !== undefined) out.status = m.status;
  return out;
}
