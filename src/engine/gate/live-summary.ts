// Turns gate events into live updates for a person or an agent watching. Each update has a short message (which
// producers run, how many finished of how many, the counts a producer reported, a wait for a test slot) and the
// same news as structured events for a view that draws one row per producer. Messages for progress-only events
// are throttled; starts, ends, failures and waits go out at once. Changes that bring no message of their own
// (a throttled count, output lines, a skipped producer) ride on the next update, or on a quiet update shortly
// after, so a row never stays stale (docs/decisions/0033-live-region-on-stderr.md).
import type { LiveCounts, LiveEvent, LiveProducerState } from '../live/live-events.js';
import type { GateEvent, GateListener } from './events.js';

export interface LiveSummaryUpdate {
  message: string;
  completed: number;
  total?: number;
  durable?: boolean;
  events?: LiveEvent[];
  quiet?: boolean;
}

const PROGRESS_INTERVAL_MS = 250;

interface Row {
  state: LiveProducerState;
  counts: LiveCounts;
  startedAt?: number;
  elapsedMs?: number;
  detail?: string;
}

/** `producers`: the run's producer labels in plan order; `now` is a seam for tests. */
export function liveSummary(
  producers: readonly string[],
  sink: (update: LiveSummaryUpdate) => void,
  now: () => number = Date.now,
): GateListener {
  const total = producers.length;
  const rows = new Map<string, Row>();
  const running = new Set<string>();
  const counts = new Map<string, string>();
  const dirty = new Set<string>();
  let planSent = false;
  let completed = 0;
  let failed = 0;
  let lastProgressAt = 0;
  let flushTimer: NodeJS.Timeout | undefined;

  const rowOf = (label: string): Row => {
    let row = rows.get(label);
    if (row === undefined) {
      row = { state: 'pending', counts: {} };
      rows.set(label, row);
    }
    return row;
  };
  const producerEvent = (label: string): LiveEvent => {
    const row = rowOf(label);
    const elapsedMs = row.state === 'running' && row.startedAt !== undefined ? now() - row.startedAt : row.elapsedMs;
    const hasCounts =
      row.counts.units !== undefined || row.counts.results !== undefined || row.counts.outputLines !== undefined;
    return {
      kind: 'producer',
      label,
      state: row.state,
      ...(hasCounts ? { counts: { ...row.counts } } : {}),
      ...(elapsedMs !== undefined ? { elapsedMs } : {}),
      ...(row.detail !== undefined ? { detail: row.detail } : {}),
    };
  };
  /** The plan (first update only) and every row changed since the last update, then this update's own events. */
  const pendingEvents = (own: readonly LiveEvent[]): LiveEvent[] => {
    const events: LiveEvent[] = [];
    if (!planSent) {
      events.push({ kind: 'plan', producers: [...producers] });
      planSent = true;
    }
    for (const e of own) if (e.kind === 'producer') dirty.delete(e.label);
    for (const label of dirty) events.push(producerEvent(label));
    dirty.clear();
    if (flushTimer !== undefined) clearTimeout(flushTimer);
    flushTimer = undefined;
    events.push(...own);
    return events;
  };
  const emit = (message: string, durable = false, own: readonly LiveEvent[] = []): void =>
    sink({
      message,
      completed,
      ...(total > 0 ? { total } : {}),
      ...(durable ? { durable } : {}),
      events: pendingEvents(own),
    });
  const markDirty = (label: string): void => {
    dirty.add(label);
    if (flushTimer !== undefined) return;
    flushTimer = setTimeout(() => {
      flushTimer = undefined;
      if (dirty.size > 0)
        sink({ message: status(), completed, ...(total > 0 ? { total } : {}), events: pendingEvents([]), quiet: true });
    }, PROGRESS_INTERVAL_MS);
    flushTimer.unref();
  };
  const runningText = (): string => {
    const labels = [...running].map((l) => (counts.has(l) ? `${l} (${counts.get(l) ?? ''})` : l));
    return labels.length > 0 ? `running ${labels.join(', ')}` : 'between stages';
  };
  const status = (): string => `${runningText()} · ${completed}/${total} finished`;

  return (event: GateEvent) => {
    switch (event.type) {
      case 'phase':
        emit(event.message, event.phase === 'announce', [
          { kind: 'phase', phase: event.phase, message: event.message },
        ]);
        if (event.phase === 'finished' && flushTimer !== undefined) clearTimeout(flushTimer);
        return;
      case 'group-start':
        emit(`${event.group}: ${event.producers.join(', ')}`);
        return;
      case 'producer-start': {
        running.add(event.label);
        const row = rowOf(event.label);
        row.state = 'running';
        row.startedAt = now();
        emit(status(), false, [producerEvent(event.label)]);
        return;
      }
      case 'producer-progress': {
        const f = event.fact;
        const row = rowOf(event.label);
        const parts: string[] = [];
        if (f.units) {
          parts.push(`${f.units.kind} ${f.units.completed}/${f.units.total ?? '?'}`);
          row.counts.units = {
            kind: f.units.kind,
            completed: f.units.completed,
            ...(typeof f.units.total === 'number' ? { total: f.units.total } : {}),
          };
        }
        if (f.results) {
          parts.push(
            Object.entries(f.results)
              .map(([k, v]) => `${v} ${k}`)
              .join(', '),
          );
          row.counts.results = Object.fromEntries(
            Object.entries(f.results).filter((e): e is [string, number] => typeof e[1] === 'number'),
          );
        }
        if (parts.length > 0) counts.set(event.label, parts.join('; '));
        const at = now();
        if (f.failure) {
          const where =
            f.failure.file !== undefined
              ? ` (${f.failure.file}${f.failure.line !== undefined ? `:${f.failure.line}` : ''})`
              : '';
          const failure: LiveEvent = {
            kind: 'failure',
            label: event.label,
            name: f.failure.name,
            message: f.failure.message,
            ...(f.failure.file !== undefined ? { file: f.failure.file } : {}),
            ...(f.failure.line !== undefined ? { line: f.failure.line } : {}),
          };
          emit(`${event.label}: ${f.failure.name} failed — ${f.failure.message}${where}`, true, [
            producerEvent(event.label),
            failure,
          ]);
        } else if (at - lastProgressAt >= PROGRESS_INTERVAL_MS) emit(status(), false, [producerEvent(event.label)]);
        else {
          markDirty(event.label);
          return;
        }
        lastProgressAt = at;
        return;
      }
      case 'producer-output':
        rowOf(event.label).counts.outputLines = event.lines;
        markDirty(event.label);
        return;
      case 'producer-end': {
        running.delete(event.label);
        counts.delete(event.label);
        const row = rowOf(event.label);
        row.state = event.outcome;
        row.elapsedMs = event.durationMs;
        if (event.detail !== undefined) row.detail = event.detail;
        if (event.outcome === 'skipped') {
          markDirty(event.label);
          return;
        }
        completed++;
        if (event.outcome === 'failed') failed++;
        emit(
          `${event.label} ${event.outcome}${event.detail ? ` (${event.detail})` : ''} · ${completed}/${total} finished${failed > 0 ? `, ${failed} failed` : ''}`,
          event.outcome !== 'ok',
          [producerEvent(event.label)],
        );
        return;
      }
      case 'wait-start':
        emit(
          `waiting for a test slot: ${event.inUse} of ${event.capacity} in use across the repository's worktrees`,
          false,
          [{ kind: 'wait-start', reason: event.reason, capacity: event.capacity, inUse: event.inUse }],
        );
        return;
      case 'wait-end':
        emit(`test slot taken after ${Math.round(event.waitedMs / 100) / 10} s`, false, [
          { kind: 'wait-end', waitedMs: event.waitedMs },
        ]);
        return;
      default:
        return;
    }
  };
}
