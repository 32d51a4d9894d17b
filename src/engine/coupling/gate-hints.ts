// The coupling hints a green done and a passing prepare add when [coupling] in_gate is true: the strongest few
// partners of the change's files that the change leaves out. Advisory only — a hint never changes a verdict,
// so anything that goes wrong here (no trunk, unreadable history) yields no hint rather than a failure.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { ChangeSet } from '../git/change-set.js';
import type { Project } from '../project/resolve.js';
import { loadHistory } from './load-history.js';
import { diffReport } from './report.js';
import { couplingSettings } from './settings.js';

/** At most this many hints, so they inform without burying the result. */
export const HINTS_SHOWN = 3;

export async function couplingHints(
  project: Project,
  run: { env: Readonly<Record<string, string | undefined>>; signal?: AbortSignal; change?: ChangeSet },
): Promise<string[]> {
  try {
    const read = couplingSettings(project.config);
    if (!read.ok || !read.settings.inGate) return [];
    const settings = read.settings;
    // A caller that has just read the change (done, before its jobs) passes it in.
    const change =
      run.change ??
      (await (
        await import('../git/change-set.js')
      ).readChangeSet(
        { cwd: project.root, env: run.env, ...(run.signal ? { signal: run.signal } : {}) },
        project.trunk.name,
      ));
    const changed = [...new Set(change.changes.flatMap((c) => (c.from !== undefined ? [c.path, c.from] : [c.path])))]
      .filter((p) => settings.ignoredBy(p) === undefined)
      .sort();
    // No merge-base means every file counts as changed: there is no change to find partners missing from.
    if (changed.length === 0 || change.base === null) return [];
    const load = await loadHistory(project, { env: run.env, ...(run.signal ? { signal: run.signal } : {}) });
    if (load.kind !== 'loaded') return [];
    const { data } = diffReport({ history: load.history, cache: load.cache, shallow: load.shallow }, changed, {
      settings,
      exists: (p) => existsSync(join(project.root, p)),
    });
    return data.partners
      .filter((p) => p.confidence >= settings.minConfidence)
      .slice(0, HINTS_SHOWN)
      .map(
        (p) =>
          `${p.from} ${p.confidence >= 0.5 ? 'usually' : 'often'} changes with ${p.path} (${p.cochanges} of ${p.of} commits); ${p.path} is not in this change.`,
      );
  } catch {
    return [];
  }
}
