// Counting over the indexed history with the settings applied. A query reads only the commits of the files it
// asks about (their posting lists) and the revision counts of the partners it finds: its cost follows the
// files' histories, not the repository's, which keeps a warm call flat however long the history is.
//
// Analysed commits are the non-merge commits that are not bulk (at most max_commit_files files); ignored paths
// are never targets or partners, and the commits that change them still count (docs/decisions/0025).
import type { History } from './history.js';
import type { CouplingSettings } from './settings.js';

export interface Counts {
  /** Analysed commits: not bulk. */
  commits: number;
  /** Commits left out for changing more than max_commit_files files. */
  bulk: number;
  /** Analysed commits that changed the path id. */
  revisions(id: number): number;
  /** target id → partner id → analysed commits that changed both. */
  pairs: Map<number, Map<number, number>>;
  /** With `pair`: the indexes (newest first) of the analysed commits that changed both of its files. */
  together: number[];
}

export function countCochanges(
  history: History,
  settings: Pick<CouplingSettings, 'maxCommitFiles'>,
  targets: ReadonlySet<number>,
  pair?: readonly [number, number],
): Counts {
  const { ints, offsets, postings, postingStarts, sizes } = history;
  const max = settings.maxCommitFiles;
  let analysed = 0;
  for (let n = 0; n <= max && n < sizes.length; n++) analysed += sizes[n] as number;
  // A posting list is ordered by commit size: its analysed commits are the entries before the first one over max.
  const analysedEnd = (id: number): number => {
    let lo = postingStarts[id] as number;
    let hi = postingStarts[id + 1] as number;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if ((ints[offsets[postings[mid] as number] as number] as number) <= max) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
  const revisions = (id: number): number => analysedEnd(id) - (postingStarts[id] as number);

  const pairs = new Map<number, Map<number, number>>();
  for (const t of targets) {
    const row = new Map<number, number>();
    const end = analysedEnd(t);
    for (let i = postingStarts[t] as number; i < end; i++) {
      const from = (offsets[postings[i] as number] as number) + 2;
      const to = from + (ints[from - 1] as number);
      for (let j = from; j < to; j++) {
        const other = ints[j] as number;
        if (other !== t) row.set(other, (row.get(other) ?? 0) + 1);
      }
    }
    pairs.set(t, row);
  }

  const together: number[] = [];
  if (pair !== undefined) {
    const [a, b] = pair;
    const end = analysedEnd(a);
    for (let i = postingStarts[a] as number; i < end; i++) {
      const c = postings[i] as number;
      const from = (offsets[c] as number) + 2;
      const to = from + (ints[from - 1] as number);
      for (let j = from; j < to; j++) {
        if (ints[j] === b) {
          together.push(c);
          break;
        }
      }
    }
    // Newest first, as git log lists them.
    together.sort((x, y) => x - y);
  }
  return { commits: analysed, bulk: history.commits - analysed, revisions, pairs, together };
}

/** cochanges / of, to three decimals. */
export function confidenceOf(cochanges: number, of: number): number {
  return of === 0 ? 0 : Math.round((cochanges / of) * 1000) / 1000;
}

/** P(a∧b) / (P(a)·P(b)) over `commits` analysed commits, to two decimals. */
export function liftOf(together: number, ofA: number, ofB: number, commits: number): number {
  return ofA === 0 || ofB === 0 ? 0 : Math.round(((together * commits) / (ofA * ofB)) * 100) / 100;
}
