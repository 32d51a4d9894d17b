// The set of paths that differ from HEAD (staged, unstaged or untracked, ignored files excluded), read with -z
// so any path survives. The gate snapshots it before and after each stage: a path that was clean before and is
// dirty after was written by that stage.
import { git, gitComplaint } from '../git/git.js';

export type DirtySet = ReadonlySet<string>;

export function parseDirtySet(output: string): Set<string> {
  const paths = new Set<string>();
  const entries = output.split('\0');
  for (let i = 0; i < entries.length; i++) {
    const entry = entries[i] ?? '';
    if (entry.length < 4) continue;
    const status = entry.slice(0, 2);
    paths.add(entry.slice(3));
    // A rename or copy names its source in the next entry; the source is changed too.
    if (status.includes('R') || status.includes('C')) {
      const from = entries[++i];
      if (from) paths.add(from);
    }
  }
  return paths;
}

export async function readDirtySet(cwd: string, env: Readonly<Record<string, string | undefined>>, signal?: AbortSignal): Promise<Set<string>> {
  const result = await git(['status', '--porcelain=v1', '-z', '--untracked-files=all'], { cwd, env, ...(signal ? { signal } : {}) });
  if (result.code !== 0) throw new Error(`git status failed in ${cwd}: ${gitComplaint(result)}`);
  return parseDirtySet(result.stdout);
}

/** Paths dirty in `after` that were clean in `before`, sorted. */
export function newlyDirty(before: DirtySet, after: DirtySet): string[] {
  return [...after].filter((p) => !before.has(p)).sort();
}
