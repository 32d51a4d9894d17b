// What `discern standards` measures, decided before anything runs: the selected standards (every one, on-demand
// ones included, or the names asked for) as one parallel group, holding a test slot when test runs are capped —
// as they do inside done. Nothing is replayed: this verb exists to measure now. fail_fast does not apply: a
// red standard must not hide the values of the others (docs/decisions/0027-standards-verbs.md).
import type { GateSettings } from '../config/gate-settings.js';
import type { GatePlan } from './plan.js';
import type { Producer } from './producers.js';

export type StandardsSelection =
  { ok: true; producers: Producer[] } | { ok: false; unknown: string[]; known: string[] };

/** The standards `names` selects (all when omitted), in config order; unknown names are refused, not skipped. */
export function selectStandards(
  standards: readonly Producer[],
  names: readonly string[] | undefined,
): StandardsSelection {
  const known = standards.map((p) => p.standard?.name ?? '').filter((n) => n.length > 0);
  if (names === undefined) return { ok: true, producers: [...standards] };
  const unknown = names.filter((n) => !known.includes(n));
  if (unknown.length > 0) return { ok: false, unknown, known };
  return { ok: true, producers: standards.filter((p) => names.includes(p.standard?.name ?? '')) };
}

export function planStandards(producers: readonly Producer[], settings: GateSettings): GatePlan {
  return {
    // done's drift rule: a measurement that writes a clean file is tree drift.
    mode: 'done',
    groups:
      producers.length === 0
        ? []
        : [
            {
              stage: 'check/test',
              name: 'standards',
              parallel: true,
              producers: [...producers],
              holdsTestSlot: settings.concurrentTestRuns > 0,
              writes: 'nothing',
            },
          ],
    standards: producers.map((producer) => ({ producer, disposition: 'measured' })),
    scopeGates: [],
  };
}

/** The settings a measurement runs under: the gate's, without fail_fast. */
export function measureSettings(settings: GateSettings): GateSettings {
  return { ...settings, failFast: false };
}
