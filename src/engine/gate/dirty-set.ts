// The set of paths that differ from HEAD (staged, unstaged or untracked, ignored files excluded), read with -z
// so any path survives. The gate snapshots it before and after each stage: a path that was clean before and is
// dirty after was written by that stage.
import { git, gitComplaint } from '../git/git.js';
import type { StatusRead } from '../git/checkout-status.js';

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

export async function readDirtySet(
  cwd: string,
  env: Readonly<Record<string, string | undefined>>,
  signal?: AbortSignal,
): Promise<Set<string>> {
  const result = await git(['status', '--porcelain=v1', '-z', '--untracked-files=all'], {
    cwd,
    env,
    ...(signal ? { signal } : {}),
  });
  if (result.code !== 0) throw new Error(`git status failed in ${cwd}: ${gitComplaint(result)}`);
  return parseDirtySet(result.stdout);
}

/** Paths dirty in `after` that were clean in `before`, sorted. */
export function newlyDirty(before: DirtySet, after: DirtySet): string[] {
  return [...after].filter((p) => !before.has(p)).sort();
}

/**
 * The same set from a strict `--porcelain=v2` read (git/checkout-status.ts), so one status can serve the gate,
 * the verb and the logbook. Equal to readDirtySet's unless a submodule entry is listed (the configured submodule
 * rules may hide it from the default read): then the default read is made.
 */
export async function dirtySetFrom(
  read: StatusRead,
  cwd: string,
  env: Readonly<Record<string, string | undefined>>,
  signal?: AbortSignal,
): Promise<Set<string>> {
  if (!read.ok) throw new Error(`git status failed in ${cwd}: ${gitComplaint(read.result)}`);
  if (read.status.submoduleEntries) return readDirtySet(cwd, env, signal);
  return parseDirtySetV2(read.status.output);
}

/** `--porcelain=v2 -z` entries as paths: a changed path (a fixed count of fields precedes it), a rename's both paths, an untracked path. */
export function parseDirtySetV2(output: string): Set<string> {
  const paths = new Set<string>();
  const entries = output.split('\0');
  for (let i = 0; i < entries.length; i++) {
    const entry = entries[i] ?? '';
    if (entry.startsWith('1 ')) paths.add(fieldsAfter(entry, 8));
    else if (entry.startsWith('u ')) paths.add(fieldsAfter(entry, 10));
    else if (entry.startsWith('2 ')) {
      paths.add(fieldsAfter(entry, 9));
      const from = entries[++i];
      if (from) paths.add(from);
    } else if (entry.startsWith('? ')) paths.add(entry.slice(2));
  }
  return paths;
}

/** What follows the first `count` space-separated fields (a path may itself hold spaces). */
function fieldsAfter(entry: string, count: number): string {
  let at = 0;
  for (let n = 0; n < count; n++) at = entry.indexOf(' ', at) + 1;
  return entry.slice(at);
}
