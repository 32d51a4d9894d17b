// Freshness facts for each region of the map: when its pages last changed (commit time), which tracked files
// its pages cite, and how many commits have changed those files since. A region whose cited code moved on after
// its pages did may describe the project as it was. Only code counts: other map pages a page links to are not
// what it describes, and a merge commit repeats changes its parents already made.
import { posix } from 'node:path';
import { git } from '../git/git.js';
import { mapLimited } from '../process/limit.js';
import type { Corpus } from '../corpus/types.js';
import { citedFiles } from './citations.js';

export interface RegionFreshness {
  pages_changed_at?: string;
  cited_files: number;
  code_changes_since?: number;
}

interface Run {
  cwd: string;
  env: Readonly<Record<string, string | undefined>>;
  signal?: AbortSignal;
}

/** git accepts long path lists, but not unbounded ones: ask in batches and merge the commits. */
const PATHS_PER_CALL = 200;

export async function regionFreshness(run: Run, mapDir: string, corpus: Corpus): Promise<Map<string, RegionFreshness>> {
  const options = { cwd: run.cwd, env: run.env, ...(run.signal ? { signal: run.signal } : {}) };
  const listing = await git(['ls-files', '-z'], options);
  const tracked = new Set(listing.stdout.split('\0').filter((p) => p.length > 0));
  const facts = new Map<string, RegionFreshness>();
  await mapLimited(corpus.regions, 4, async (region) => {
    const pages = corpus.pages.filter((p) => p.path.startsWith(`${region.dir}/`));
    const cited = [
      ...new Set(pages.flatMap((p) => citedFiles(p.content, posix.dirname(posix.join(mapDir, p.path)), tracked))),
    ]
      .filter((path) => !path.startsWith(`${mapDir}/`))
      .sort();
    const last = await git(['log', '-1', '--format=%H%x00%cI', '--', posix.join(mapDir, region.dir)], options);
    const [commit, when] = last.stdout.trim().split('\0');
    if (!commit || !when) {
      facts.set(region.name, { cited_files: cited.length });
      return;
    }
    const changes = new Set<string>();
    for (let i = 0; i < cited.length; i += PATHS_PER_CALL) {
      const batch = await git(
        ['log', '--no-merges', '--format=%H', `${commit}..HEAD`, '--', ...cited.slice(i, i + PATHS_PER_CALL)],
        options,
      );
      for (const line of batch.stdout.split('\n')) if (line.length > 0) changes.add(line);
    }
    facts.set(region.name, {
      pages_changed_at: when,
      cited_files: cited.length,
      ...(cited.length > 0 ? { code_changes_since: changes.size } : {}),
    });
  });
  return facts;
}
