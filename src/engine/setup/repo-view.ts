// The files setup may read: the ones git tracks, and the untracked ones it does not ignore (read, with a warning
// that they must be committed before `setup done`, since a fresh clone will not have them). An ignored file —
// a lockfile the user's own `npm install` left, a local virtualenv — is never read: a draft that depended on it
// would work in this checkout and fail in every other.
import { git } from '../git/git.js';

export interface RepoView {
  /** Whether setup may read `path` (repository-relative, `/`-separated). */
  has(path: string): boolean;
  /** The names directly inside `dir` ('.' for the root) that setup may read, or that hold such files; sorted. */
  names(dir: string): string[];
  /** Untracked files setup read: `setup done` needs them committed. */
  readonly readUntracked: Set<string>;
  /** Notes that `path` was read (untracked ones are remembered). */
  noteRead(path: string): void;
}

type Run = { env: Readonly<Record<string, string | undefined>>; signal?: AbortSignal };

/** git's view of `root`: tracked files, and untracked files the ignore rules do not cover (two processes). */
export async function readRepoView(root: string, run: Run): Promise<RepoView> {
  const options = { cwd: root, env: run.env, ...(run.signal ? { signal: run.signal } : {}) };
  const [tracked, others] = await Promise.all([
    git(['ls-files', '-z', '--cached'], options),
    git(['ls-files', '-z', '--others', '--exclude-standard'], options),
  ]);
  const split = (out: string): string[] => out.split('\0').filter((p) => p !== '');
  return repoView(split(tracked.stdout), split(others.stdout));
}

/** A view of the given lists (pure: tests build one directly). */
export function repoView(tracked: readonly string[], untracked: readonly string[]): RepoView {
  const trackedSet = new Set(tracked);
  const untrackedSet = new Set(untracked.filter((p) => !trackedSet.has(p)));
  const children = new Map<string, Set<string>>();
  for (const path of [...trackedSet, ...untrackedSet]) {
    const parts = path.split('/');
    for (let i = 0; i < parts.length; i++) {
      const dir = i === 0 ? '.' : parts.slice(0, i).join('/');
      const set = children.get(dir) ?? new Set<string>();
      set.add(parts[i] as string);
      children.set(dir, set);
    }
  }
  const readUntracked = new Set<string>();
  return {
    has: (path) => trackedSet.has(path) || untrackedSet.has(path),
    names: (dir) => [...(children.get(dir === '' ? '.' : dir) ?? [])].sort(),
    readUntracked,
    noteRead: (path) => {
      if (untrackedSet.has(path)) readUntracked.add(path);
    },
  };
}
