// Turns gate events into short live updates for a person or an agent watching: which producers run, how many
// finished of how many, the counts a producer reported, a wait for a test slot. Progress-only events are
// throttled; starts, ends and waits go out at once.
import type { GateEvent, GateListener } from './events.js';

export interface LiveSummaryUpdate {
  message: string;
  completed: number;
  total?: number;
  durable?: boolean;
}

const PROGRESS_INTERVAL_MS = 250;

export function liveSummary(total: number, sink: (update: LiveSummaryUpdate) => void): GateListener {
  const running = new Set<string>();
  const counts = new Map<string, string>();
  let completed = 0;
  let failed = 0;
  let lastProgressAt = 0;
  const emit = (message: string, durable = false): void => sink({ message, completed, ...(total > 0 ? { total } : {}), ...(durable ? { durable } : {}) });
  const runningText = (): string => {
    const labels = [...running].map((l) => (counts.has(l) ? `${l} (${counts.get(l) ?? ''})` : l));
    return labels.length > 0 ? `running ${labels.join(', ')}` : 'between stages';
  };
  return (event: GateEvent) => {
    switch (event.type) {
      case 'phase':
        emit(event.message, event.phase === 'announce');
        return;
      case 'group-start':
        emit(`${event.group}: ${event.producers.join(', ')}`);
        return;
      case 'producer-start':
        running.add(event.label);
        emit(`${runningText()} · ${completed}/${total} finished`);
        return;
      case 'producer-progress': {
        const f = event.fact;
        const parts: string[] = [];
        if (f.units) parts.push(`${f.units.kind} ${f.units.completed}/${f.units.total ?? '?'}`);
        if (f.results) parts.push(Object.entries(f.results).map(([k, v]) => `${v} ${k}`).join(', '));
        if (parts.length > 0) counts.set(event.label, parts.join('; '));
        const now = Date.now();
        if (f.failure) emit(`${event.label}: ${f.failure.name} failed — ${f.failure.message}`, true);
        else if (now - lastProgressAt >= PROGRESS_INTERVAL_MS) emit(`${runningText()} · ${completed}/${total} finished`);
        else return;
        lastProgressAt = now;
        return;
      }
      case 'producer-end':
        running.delete(event.label);
        counts.delete(event.label);
        if (event.outcome === 'skipped') return;
        completed++;
        if (event.outcome === 'failed') failed++;
        emit(`${event.label} ${event.outcome}${event.detail ? ` (${event.detail})` : ''} · ${completed}/${total} finished${failed > 0 ? `, ${failed} failed` : ''}`, event.outcome !== 'ok');
        return;
      case 'wait-start':
        emit(`waiting for a test slot: ${event.inUse} of ${event.capacity} in use across the repository's worktrees`);
        return;
      case 'wait-end':
        emit(`test slot taken after ${Math.round(event.waitedMs / 100) / 10} s`);
        return;
      default:
        return;
    }
  };
}
