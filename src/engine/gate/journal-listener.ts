// Records a running gate in the progress journal: the phase, each producer's state and counts, failures the
// producers report, timing intervals, waits and the process groups of running jobs. The journal is advisory:
// it observes the gate and never changes it.
import type { OperationWriter } from '../journal/index.js';
import type { GateListener } from './events.js';

export function journalListener(writer: OperationWriter, readBack: string): GateListener {
  const timings = new Map<string, string>();
  const waits = new Map<string, string>();
  let stageTiming: string | undefined;
  return (event) => {
    switch (event.type) {
      case 'phase':
        // A gate inside a longer run (accept's composition) ends before the run does: its last stage ends with it.
        if (event.phase === 'gate-finished' && stageTiming) {
          writer.finishTiming(stageTiming);
          stageTiming = undefined;
        }
        if (event.phase === 'finished') {
          // The last stage's interval ends with the run.
          if (stageTiming) writer.finishTiming(stageTiming);
          stageTiming = undefined;
          writer.setProgress({
            phase: 'finished',
            state: event.state ?? 'finished',
            reason: event.message,
            next: 'nothing: the run has finished',
            owner_must_act: false,
          });
          return;
        }
        writer.setProgress({
          phase: event.phase,
          state: 'running',
          reason: event.message,
          next: `read it back with ${readBack}`,
          owner_must_act: false,
        });
        return;
      case 'group-start':
        if (stageTiming) writer.finishTiming(stageTiming);
        stageTiming = writer.startTiming(`stage:${event.group}`);
        writer.setProgress({
          phase: event.group,
          state: 'running',
          reason: `running ${event.producers.join(', ')}`,
          next: 'the next stage starts when these finish',
          owner_must_act: false,
        });
        for (const label of event.producers) writer.producer(label, { state: 'pending' });
        return;
      case 'producer-start':
        writer.producer(event.label, { state: 'running' });
        timings.set(event.label, writer.startTiming(`producer:${event.label}`));
        return;
      case 'producer-progress': {
        const f = event.fact;
        writer.producer(event.label, {
          ...(f.units
            ? { units: { kind: f.units.kind, completed: f.units.completed, total: f.units.total ?? null } }
            : {}),
          ...(f.results ? { results: definedCounts(f.results) } : {}),
          ...(f.active ? { active: f.active } : {}),
          ...(f.elapsed_ms !== undefined ? { elapsed_ms: f.elapsed_ms } : {}),
          ...(f.partial ? { partial: true } : {}),
        });
        if (f.failure) {
          writer.addFailure({
            producer: event.label,
            name: f.failure.name,
            message: f.failure.message,
            ...(f.failure.file !== undefined ? { file: f.failure.file } : {}),
            ...(f.failure.line !== undefined ? { line: f.failure.line } : {}),
            ...(f.failure.reproduce !== undefined ? { reproduce_cmd: f.failure.reproduce } : {}),
            ...(f.partial ? { partial: true } : {}),
          });
        }
        return;
      }
      case 'producer-output':
        return; // counts arrive several times a second; the final ones land in the result
      case 'producer-pgid':
        if (event.event === 'start') writer.addPgid(event.pgid);
        else writer.removePgid(event.pgid);
        return;
      case 'producer-end': {
        writer.producer(event.label, {
          state: event.outcome,
          ...(event.outputPath ? { output_path: event.outputPath } : {}),
        });
        const id = timings.get(event.label);
        if (id) writer.finishTiming(id);
        return;
      }
      case 'wait-start':
        waits.set(
          event.id,
          writer.startWait({
            reason: event.reason,
            next: 'the run starts as soon as a slot frees',
            capacity: event.capacity,
            in_use: event.inUse,
          }),
        );
        // The wait is also a timing interval of its own, apart from the producers' time.
        timings.set(`wait:${event.id}`, writer.startTiming('capacity-wait'));
        return;
      case 'wait-end': {
        const id = waits.get(event.id);
        if (id) writer.finishWait(id);
        const timing = timings.get(`wait:${event.id}`);
        if (timing) writer.finishTiming(timing);
        return;
      }
    }
  };
}

function definedCounts(results: Record<string, number | undefined>): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [k, v] of Object.entries(results)) if (v !== undefined) out[k] = v;
  return out;
}
