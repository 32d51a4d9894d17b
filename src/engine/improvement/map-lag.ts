// How far each map region lags the code it cites, measured over a bounded window of recent history read in
// one git call (the map verb asks git twice per region; an interactive audit cannot pay that on a large
// repository). A region's lag is the number of commits, newer than the last one that touched its pages, that
// changed a tracked file its pages cite. When its pages were last touched before the window, every commit in
// the window to its cited files counts and the lag is a lower bound.
import { posix } from 'node:path';
import { git } from '../git/git.js';
import { citedFiles } from '../map/citations.js';

/** Recent non-merge commits read for the lag: enough to see a region fall behind, bounded for speed. */
export const HISTORY_WINDOW = 300;

export interface Commit {
  sha: string;
  paths: string[];
}

export interface RegionPages {
  name: string;
  /** The region's folder, repository-relative. */
  dir: string;
  pages: { path: string; content: string }[];
}

export interface RegionLag {
  cited_files: number;
  /** Absent when the region cites no tracked file outside the map. */
  code_changes_since?: number;
  /** The region's pages did not change within the window: the lag is at least this. */
  lower_bound?: boolean;
}

/** The newest `limit` non-merge commits with the paths each changed, newest first. */
export async function recentCommits(
  run: { cwd: string; env: Readonly<Record<string, string | undefined>>; signal?: AbortSignal },
  limit = HISTORY_WINDOW,
): Promise<Commit[]> {
  const result = await git(['log', `-n${limit}`, '--no-merges', '--format=%x1e%H', '--name-only', '-z'], {
    cwd: run.cwd,
    env: run.env,
    ...(run.signal ? { signal: run.signal } : {}),
  });
  return result.code === 0 ? parseCommits(result.stdout) : [];
}

/** `git log --format=%x1e%H --name-only -z`: a record separator, the sha, NUL, a newline, then NUL-ended paths. Pure. */
export function parseCommits(output: string): Commit[] {
  return output
    .split('\x1e')
    .filter((chunk) => chunk.length > 0)
    .map((chunk) => {
      const [sha = '', ...rest] = chunk.split('\0');
      return { sha, paths: rest.map((p) => p.replace(/^\n/, '')).filter((p) => p.length > 0) };
    });
}

/** Each region's lag behind its cited code. Pure. */
export function regionLag(
  regions: readonly RegionPages[],
  mapDir: string,
  tracked: ReadonlySet<string>,
  history: readonly Commit[],
  windowFull: boolean,
): Map<string, RegionLag> {
  const out = new Map<string, RegionLag>();
  for (const region of regions) {
    const cited = new Set(
      region.pages
        .flatMap((p) => citedFiles(p.content, posix.dirname(p.path), tracked))
        .filter((path) => !path.startsWith(`${mapDir}/`)),
    );
    if (cited.size === 0) {
      out.set(region.name, { cited_files: 0 });
      continue;
    }
    const touched = history.findIndex((c) => c.paths.some((p) => p.startsWith(`${region.dir}/`)));
    const newer = touched === -1 ? history : history.slice(0, touched);
    const changes = newer.filter((c) => c.paths.some((p) => cited.has(p))).length;
    out.set(region.name, {
      cited_files: cited.size,
      code_changes_since: changes,
      ...(touched === -1 && windowFull ? { lower_bound: true } : {}),
    });
  }
  return out;
}
