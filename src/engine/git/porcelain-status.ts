// Reads `git status --porcelain=v2 -z --branch --untracked-files=all`: the branch header and counts of changed
// and untracked paths. -z keeps paths with spaces, quotes or newlines intact.
import { git } from './git.js';
import type { StatusRead } from './checkout-status.js';
import { modeComparingArgs } from './file-modes.js';

export interface WorkingState {
  /** null on a detached HEAD. */
  branch: string | null;
  /** null on an unborn branch. */
  head: string | null;
  detached: boolean;
  unborn: boolean;
  changed: number;
  untracked: number;
  /** The changed and untracked paths, in git's order. */
  paths: string[];
}

export function parsePorcelainStatus(output: string): WorkingState {
  let branch: string | null = null;
  let head: string | null = null;
  let detached = false;
  let unborn = false;
  let changed = 0;
  let untracked = 0;
  const paths: string[] = [];
  const entries = output.split('\0');
  for (let i = 0; i < entries.length; i++) {
    const entry = entries[i] ?? '';
    if (entry.startsWith('# branch.oid ')) {
      const oid = entry.slice('# branch.oid '.length);
      unborn = oid === '(initial)';
      head = unborn ? null : oid;
    } else if (entry.startsWith('# branch.head ')) {
      const name = entry.slice('# branch.head '.length);
      detached = name === '(detached)';
      branch = detached ? null : name;
    } else if (entry.startsWith('1 ') || entry.startsWith('u ')) {
      changed++;
      // The path follows a fixed number of fields: 8 for an ordinary change, 10 for an unmerged one.
      paths.push(fieldsAfter(entry, entry.startsWith('1 ') ? 8 : 10));
    } else if (entry.startsWith('2 ')) {
      changed++;
      paths.push(fieldsAfter(entry, 9));
      i++; // a rename or copy is followed by its original path
    } else if (entry.startsWith('? ')) {
      changed++;
      untracked++;
      paths.push(entry.slice(2));
    }
  }
  return { branch, head, detached, unborn, changed, untracked, paths };
}

/** What follows the first `count` space-separated fields (a path may itself hold spaces). */
function fieldsAfter(entry: string, count: number): string {
  let at = 0;
  for (let n = 0; n < count; n++) at = entry.indexOf(' ', at) + 1;
  return entry.slice(at);
}

/**
 * `submodules: 'strict'` compares every submodule's checkout with its committed gitlink whatever
 * `submodule.<name>.ignore` or `diff.ignoreSubmodules` say: what Proof is recorded for (a committed .gitmodules
 * must not hide a submodule the jobs saw at another commit). Otherwise the configured rules apply.
 * `compareModesIn` (the checkout's state directory) compares file modes where the filesystem keeps exec bits.
 */
export async function readWorkingState(
  cwd: string,
  env: Readonly<Record<string, string | undefined>>,
  signal?: AbortSignal,
  options: { submodules?: 'strict' | 'configured'; compareModesIn?: string } = {},
): Promise<WorkingState> {
  const strict = options.submodules === 'strict' ? ['--ignore-submodules=none'] : [];
  const modes = modeComparingArgs(options.compareModesIn);
  const args = [...modes, 'status', '--porcelain=v2', '-z', '--branch', '--untracked-files=all', ...strict];
  const result = await git(args, { cwd, env, ...(signal ? { signal } : {}) });
  if (result.code !== 0) throw new Error(`git status failed in ${cwd}: ${result.stderr.trim()}`);
  return parsePorcelainStatus(result.stdout);
}

/**
 * The working state from a strict status read (checkout-status.ts) when it equals what readWorkingState would
 * answer: it does unless a submodule entry is listed, which the configured submodule rules may hide; then git is
 * asked the default question. A failed read fails the way readWorkingState fails.
 */
export async function workingStateFrom(
  read: StatusRead,
  cwd: string,
  env: Readonly<Record<string, string | undefined>>,
  signal?: AbortSignal,
  options: { submodules?: 'strict' | 'configured'; compareModesIn?: string } = {},
): Promise<WorkingState> {
  if (!read.ok) throw new Error(`git status failed in ${cwd}: ${read.result.stderr.trim()}`);
  // The read was the strict one already: for a strict question it is the answer.
  if (read.status.submoduleEntries && options.submodules !== 'strict')
    return readWorkingState(
      cwd,
      env,
      signal,
      options.compareModesIn !== undefined ? { compareModesIn: options.compareModesIn } : {},
    );
  return parsePorcelainStatus(read.status.output);
}
