// From counts to the partner rows a caller sees: pairs with at least min_cochanges shared commits, partners
// that are not ignored and still exist in the working tree (a deleted file cannot be changed along),
// [generated] partners counted and left out, strongest first.
import type { DiscernCouplingPartner } from '../../../generated/types.js';
import { confidenceOf, liftOf, type Counts } from './count.js';
import type { History } from './history.js';
import type { CouplingSettings } from './settings.js';

export interface PartnerOptions {
  settings: CouplingSettings;
  /** Paths never reported as partners (the change itself, in diff mode). */
  exclude?: ReadonlySet<string>;
  /** Each partner path once, through its strongest pair (diff mode: several changed files may share one). */
  oncePerPath?: boolean;
  exists: (path: string) => boolean;
}

export interface PartnerSelection {
  rows: DiscernCouplingPartner[];
  excludedGenerated: number;
}

export function partnerRows(history: History, counts: Counts, options: PartnerOptions): PartnerSelection {
  const rows: DiscernCouplingPartner[] = [];
  const generated = new Set<string>();
  const existing = new Map<string, boolean>();
  for (const [target, row] of counts.pairs) {
    const of = counts.revisions(target);
    const from = history.paths[target] as string;
    for (const [partner, cochanges] of row) {
      if (cochanges < options.settings.minCochanges) continue;
      const path = history.paths[partner] as string;
      if (options.exclude?.has(path)) continue;
      let present = existing.get(path);
      if (present === undefined) {
        present = options.settings.ignoredBy(path) === undefined && options.exists(path);
        existing.set(path, present);
      }
      if (!present) continue;
      if (options.settings.generated(path)) {
        generated.add(path);
        continue;
      }
      rows.push({
        path,
        from,
        cochanges,
        of,
        confidence: confidenceOf(cochanges, of),
        lift: liftOf(cochanges, of, counts.revisions(partner), counts.commits),
      });
    }
  }
  rows.sort(strongestFirst);
  if (!options.oncePerPath) return { rows, excludedGenerated: generated.size };
  const seen = new Set<string>();
  return {
    rows: rows.filter((r) => (seen.has(r.path) ? false : (seen.add(r.path), true))),
    excludedGenerated: generated.size,
  };
}

export function strongestFirst(a: DiscernCouplingPartner, b: DiscernCouplingPartner): number {
  return b.confidence - a.confidence || b.cochanges - a.cochanges || compare(a.path, b.path) || compare(a.from, b.from);
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
