// What every detector shares: the shape it reports in, and small number helpers. A detector sees each event of
// the analysis window once, in file order, keeps only the counts it needs, and reports findings only above its
// minimum sample (docs/decisions/0026).
import type {
  DiscernPatternDetector,
  DiscernPatternsFinding,
  DiscernPatternsNumber,
} from '../../../../generated/types.js';
import type { ReadEvent } from '../read.js';

export interface RankedFinding {
  finding: DiscernPatternsFinding;
  /** Within a detector, larger ranks first. */
  magnitude: number;
}

export interface Detector {
  readonly name: DiscernPatternDetector;
  /** The minimum evidence before it reports anything, in words. */
  readonly requirement: string;
  /** Events of the window it looked at. */
  considered: number;
  consider(read: ReadEvent): void;
  findings(): RankedFinding[];
}

export function number(name: string, value: number, unit: string, meaning: string, of?: number): DiscernPatternsNumber {
  return { name, value, ...(of !== undefined ? { of } : {}), unit, meaning };
}

export function median(values: readonly number[]): number {
  if (values.length === 0) return 0;
  // A typed array sorts numerically without a comparator call per pair: several times faster on the
  // hundreds of thousands of durations a large logbook holds.
  const sorted = Float64Array.from(values).sort();
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[mid] ?? 0) : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
}

export function iso(t: number): string {
  return new Date(t).toISOString();
}

export function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

/** Percent with at most one decimal. */
export function percent(part: number, whole: number): number {
  return whole === 0 ? 0 : Math.round((part / whole) * 1000) / 10;
}

/** The first and last time a finding's evidence was seen. */
export class Span {
  first?: number;
  last?: number;
  see(t: number): void {
    if (this.first === undefined || t < this.first) this.first = t;
    if (this.last === undefined || t > this.last) this.last = t;
  }
  fields(): { first_at?: string; last_at?: string } {
    return {
      ...(this.first !== undefined ? { first_at: iso(this.first) } : {}),
      ...(this.last !== undefined ? { last_at: iso(this.last) } : {}),
    };
  }
}
