// patterns' analysis: one streaming pass over a logbook feeds every detector, the population and the stats;
// then findings are ranked, cut to the top ones (unless all), and related by investigations. The window is the
// WINDOW_DAYS that end at the latest event (read from the file's tail first), so an archive reads the same
// today as the day it was sealed (docs/decisions/0026).
import type {
  DiscernPatternsData,
  DiscernPatternsFinding,
  DiscernPatternsInvestigation,
  DiscernPatternsStats,
} from '../../../generated/types.js';
import { ActorOutcomes } from './detectors/actor-outcomes.js';
import { iso, median, type Detector, type RankedFinding } from './detectors/common.js';
import { FlakyJobs } from './detectors/flaky-jobs.js';
import { RecurringFailures } from './detectors/recurring-failures.js';
import { RefusedLandings } from './detectors/refused-landings.js';
import { SlowJobs } from './detectors/slow-jobs.js';
import { TestSlotWaits } from './detectors/test-slot-waits.js';
import { investigate } from './investigations.js';
import { lastEventTime, readLogbook, type ReadEvent, type ReadSummary } from './read.js';

export const WINDOW_DAYS = 30;
export const TOP_FINDINGS = 10;
export const TOP_INVESTIGATIONS = 5;
const DAY_MS = 86_400_000;
const MAX_IDENTITIES = 20;

/** Detectors in rank order: a finding of an earlier one outranks any of a later one. */
const RANK = ['flaky-jobs', 'refused-landings', 'recurring-failures', 'test-slot-waits', 'slow-jobs', 'actor-outcomes'];

export interface AnalyseOptions {
  path: string;
  all: boolean;
  stats: boolean;
}

export interface Analysis {
  summary: ReadSummary & { exists: boolean };
  window: DiscernPatternsData['logbook']['window'];
  population: DiscernPatternsData['population'];
  findings: DiscernPatternsFinding[];
  findingsTotal: number;
  investigations: DiscernPatternsData['investigations'];
  /** How many investigations there were before the cut (all of them with all). */
  investigationsTotal: number;
  detectors: DiscernPatternsData['detectors'];
  stats?: DiscernPatternsStats;
}

export async function analyse(options: AnalyseOptions): Promise<Analysis> {
  const end = options.all ? undefined : await lastEventTime(options.path);
  const from = end === undefined ? undefined : end - WINDOW_DAYS * DAY_MS;
  const flaky = new FlakyJobs();
  const slow = new SlowJobs();
  const recurring = new RecurringFailures();
  const refused = new RefusedLandings();
  const waits = new TestSlotWaits();
  const actors = new ActorOutcomes();
  const detectors: Detector[] = [flaky, refused, recurring, waits, slow, actors];
  const population = { analyzed: 0, agent: 0, human: 0, unknown: 0 };
  const identities = new Map<string, { actor: 'agent' | 'human' | 'unknown'; name?: string; events: number }>();
  const stats = options.stats ? new StatsCounter() : undefined;

  const summary = await readLogbook(options.path, (read: ReadEvent) => {
    if (from !== undefined && read.t < from) return;
    population.analyzed++;
    const actor = read.event.actor === 'agent' || read.event.actor === 'human' ? read.event.actor : 'unknown';
    population[actor]++;
    const name = typeof read.event.agent === 'string' ? read.event.agent : undefined;
    const key = `${actor}\u0000${name ?? ''}`;
    const identity = identities.get(key);
    if (identity) identity.events++;
    else identities.set(key, { actor, ...(name !== undefined ? { name } : {}), events: 1 });
    stats?.see(read);
    for (const detector of detectors) detector.consider(read);
  });

  const ranked: RankedFinding[] = detectors.flatMap((d) => d.findings());
  ranked.sort(
    (a, b) =>
      RANK.indexOf(a.finding.detector) - RANK.indexOf(b.finding.detector) ||
      b.magnitude - a.magnitude ||
      a.finding.id.localeCompare(b.finding.id),
  );
  const every = ranked.map((r) => r.finding);
  // Investigations rank by their highest-ranked source, then by the count that links them.
  const position = new Map(every.map((f, i) => [f.id, i]));
  const first = (i: DiscernPatternsInvestigation): number =>
    Math.min(...i.sources.map((id) => position.get(id) ?? Infinity));
  const allInvestigations = investigate(every, { flaky, recurring, refused, slow }).sort(
    (a, b) => first(a) - first(b) || (b.link?.[0]?.value ?? 0) - (a.link?.[0]?.value ?? 0) || a.id.localeCompare(b.id),
  );
  const investigations = options.all ? allInvestigations : allInvestigations.slice(0, TOP_INVESTIGATIONS);
  // The top findings, plus any finding a returned investigation cites, so every cited id is present.
  const kept = options.all
    ? every
    : keepTop(
        every,
        investigations.flatMap((i) => i.sources),
      );

  return {
    summary,
    window:
      options.all || end === undefined
        ? { days: options.all ? null : WINDOW_DAYS }
        : { days: WINDOW_DAYS, from: iso(from ?? end), to: iso(end) },
    population: {
      ...population,
      identities: [...identities.values()]
        .sort(
          (a, b) => b.events - a.events || a.actor.localeCompare(b.actor) || (a.name ?? '').localeCompare(b.name ?? ''),
        )
        .slice(0, MAX_IDENTITIES),
    },
    findings: kept,
    findingsTotal: every.length,
    investigations,
    investigationsTotal: allInvestigations.length,
    detectors: detectors.map((d) => ({
      name: d.name,
      considered: d.considered,
      findings: ranked.filter((r) => r.finding.detector === d.name).length,
      requirement: d.requirement,
    })),
    ...(stats ? { stats: stats.result() } : {}),
  };
}

function keepTop(ranked: readonly DiscernPatternsFinding[], cited: readonly string[]): DiscernPatternsFinding[] {
  const wanted = new Set(cited);
  return ranked.filter((f, i) => i < TOP_FINDINGS || wanted.has(f.id));
}

/** The stats summary: counts by verb (with the median duration), by outcome and by surface. */
class StatsCounter {
  private events = 0;
  private first?: number;
  private last?: number;
  private readonly verbs = new Map<string, { events: number; ok: number; ms: number[] }>();
  private readonly outcomes = new Map<string, number>();
  private readonly surfaces = new Map<string, number>();

  see({ event, t }: ReadEvent): void {
    this.events++;
    if (this.first === undefined || t < this.first) this.first = t;
    if (this.last === undefined || t > this.last) this.last = t;
    let verb = this.verbs.get(event.verb);
    if (!verb) {
      verb = { events: 0, ok: 0, ms: [] };
      this.verbs.set(event.verb, verb);
    }
    verb.events++;
    if (event.outcome === 'ok') verb.ok++;
    if (typeof event.ms === 'number' && Number.isFinite(event.ms) && event.ms >= 0) verb.ms.push(event.ms);
    this.outcomes.set(event.outcome, (this.outcomes.get(event.outcome) ?? 0) + 1);
    const surface = typeof event.surface === 'string' ? event.surface : 'unknown';
    this.surfaces.set(surface, (this.surfaces.get(surface) ?? 0) + 1);
  }

  result(): DiscernPatternsStats {
    const byCount = <T extends { events: number }>(a: T & { key: string }, b: T & { key: string }): number =>
      b.events - a.events || a.key.localeCompare(b.key);
    return {
      events: this.events,
      ...(this.first !== undefined ? { first_at: iso(this.first) } : {}),
      ...(this.last !== undefined ? { last_at: iso(this.last) } : {}),
      span_s: this.first !== undefined && this.last !== undefined ? Math.round((this.last - this.first) / 1000) : 0,
      by_verb: [...this.verbs]
        .map(([key, v]) => ({ key, events: v.events, ok: v.ok, median_ms: Math.round(median(v.ms)) }))
        .sort(byCount)
        .map(({ key, ...v }) => ({ verb: key, ...v })),
      by_outcome: [...this.outcomes]
        .map(([key, events]) => ({ key, events }))
        .sort(byCount)
        .map(({ key, events }) => ({ outcome: key, events })),
      by_surface: [...this.surfaces]
        .map(([key, events]) => ({ key, events }))
        .sort(byCount)
        .map(({ key, events }) => ({ surface: key, events })),
    };
  }
}
