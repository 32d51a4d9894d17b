// The three answers over a loaded history: partners of the change's files (diff), of named files (query), or
// the evidence for one pair. Pure: the history, the settings and a file-existence probe in, data out.
import type { DiscernCouplingCommit, DiscernCouplingHistory, DiscernCouplingReport } from '../../../generated/types.js';
import { confidenceOf, countCochanges, liftOf, type Counts } from './count.js';
import type { History } from './history.js';
import type { CacheUse } from './load-history.js';
import { partnerRows } from './partners.js';
import type { CouplingSettings } from './settings.js';

export const PARTNERS_SHOWN = 10;
export const CHANGED_SHOWN = 20;
export const COMMITS_SHOWN = 20;

export interface Sample {
  history: History;
  cache: CacheUse;
  shallow: boolean;
}

export interface ReportInput {
  settings: CouplingSettings;
  exists: (path: string) => boolean;
}

/** Path → id, built only when there are enough lookups to repay it. */
export function idFinder(history: History, lookups: number): (path: string) => number | undefined {
  if (lookups <= 4) {
    return (path) => {
      const id = history.paths.indexOf(path);
      return id < 0 ? undefined : id;
    };
  }
  const ids = new Map(history.paths.map((p, i) => [p, i]));
  return (path) => ids.get(path);
}

export function queryReport(
  sample: Sample,
  targets: readonly string[],
  input: ReportInput,
): { data: DiscernCouplingReport; counts: Counts; unseen: string[] } {
  const find = idFinder(sample.history, targets.length);
  const ids = new Set<number>();
  const unseen: string[] = [];
  for (const path of targets) {
    const id = find(path);
    if (id === undefined) unseen.push(path);
    else ids.add(id);
  }
  const counts = countCochanges(sample.history, input.settings, ids);
  for (const id of ids) if (counts.revisions(id) === 0) unseen.push(sample.history.paths[id] as string);
  const { rows, excludedGenerated } = partnerRows(sample.history, counts, {
    settings: input.settings,
    exists: input.exists,
  });
  return {
    data: {
      mode: 'query',
      target: [...targets],
      partners: rows.slice(0, PARTNERS_SHOWN),
      partners_total: rows.length,
      ...(excludedGenerated > 0 ? { excluded_generated: excludedGenerated } : {}),
      history: historyFacts(sample, counts),
    },
    counts,
    unseen,
  };
}

export function diffReport(
  sample: Sample,
  changed: readonly string[],
  input: ReportInput,
): { data: DiscernCouplingReport; counts: Counts } {
  const find = idFinder(sample.history, changed.length);
  const ids = new Set<number>();
  for (const path of changed) {
    const id = find(path);
    if (id !== undefined) ids.add(id);
  }
  const counts = countCochanges(sample.history, input.settings, ids);
  const { rows, excludedGenerated } = partnerRows(sample.history, counts, {
    settings: input.settings,
    exists: input.exists,
    exclude: new Set(changed),
    oncePerPath: true,
  });
  return {
    data: {
      mode: 'diff',
      changed: changed.slice(0, CHANGED_SHOWN),
      changed_total: changed.length,
      partners: rows.slice(0, PARTNERS_SHOWN),
      partners_total: rows.length,
      ...(excludedGenerated > 0 ? { excluded_generated: excludedGenerated } : {}),
      history: historyFacts(sample, counts),
    },
    counts,
  };
}

export function evidenceReport(
  sample: Sample,
  a: string,
  b: string,
  input: ReportInput,
  meta: readonly string[],
): DiscernCouplingReport {
  const find = idFinder(sample.history, 2);
  const idA = find(a);
  const idB = find(b);
  const targets = new Set(idA === undefined ? [] : [idA]);
  const counts = countCochanges(
    sample.history,
    input.settings,
    targets,
    idA !== undefined && idB !== undefined ? [idA, idB] : undefined,
  );
  const ofA = idA === undefined ? 0 : counts.revisions(idA);
  const ofB = idB === undefined ? 0 : counts.revisions(idB);
  const together = counts.together.length;
  const commits: DiscernCouplingCommit[] = counts.together
    .slice(0, COMMITS_SHOWN)
    .map((index) => commitOf(meta[index] ?? ''));
  const partners =
    together > 0
      ? [
          {
            path: b,
            from: a,
            cochanges: together,
            of: ofA,
            confidence: confidenceOf(together, ofA),
            lift: liftOf(together, ofA, ofB, counts.commits),
          },
        ]
      : [];
  return {
    mode: 'evidence',
    a,
    b,
    together,
    of_a: ofA,
    of_b: ofB,
    commits,
    partners,
    partners_total: partners.length,
    history: historyFacts(sample, counts),
  };
}

function historyFacts(sample: Sample, counts: Counts): DiscernCouplingHistory {
  return {
    head: sample.history.head,
    commits: counts.commits,
    bulk_commits: counts.bulk,
    cache: sample.cache,
    ...(sample.shallow ? { shallow: true } : {}),
  };
}

function commitOf(line: string): DiscernCouplingCommit {
  const [sha = '', date = '', ...subject] = line.split('\t');
  return { sha, date, subject: subject.join('\t') };
}
