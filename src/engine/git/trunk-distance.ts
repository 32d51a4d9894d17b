// How far HEAD is ahead of and behind the trunk. Not comparable (null) when HEAD is unborn (git cannot count
// from a commit that does not exist), or when a shallow clone holds no common history with the trunk — a
// count then would be a guess, not a fact.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { git } from './git.js';
import { localBranchTip } from './local-branch.js';

export interface TrunkDistance {
  ahead: number | null;
  behind: number | null;
}

export async function trunkDistance(
  cwd: string,
  trunk: string,
  options: {
    shallow: boolean;
    env: Readonly<Record<string, string | undefined>>;
    signal?: AbortSignal;
    /** The checkout's git directories: with them, a checkout on the trunk itself is answered without git. */
    dirs?: { gitDir: string; commonDir: string };
  },
): Promise<TrunkDistance> {
  const run = { cwd, env: options.env, ...(options.signal ? { signal: options.signal } : {}) };
  const ref = `refs/heads/${trunk}`;
  if (options.dirs !== undefined && (await headIsSymbolicRef(options.dirs.gitDir, ref))) {
    // HEAD is the trunk branch: nothing ahead or behind, unless the branch is unborn (nothing to count).
    const tip = await localBranchTip(options.dirs.commonDir, trunk, run);
    return tip === undefined ? { ahead: null, behind: null } : { ahead: 0, behind: 0 };
  }
  if (options.shallow) {
    const base = await git(['merge-base', ref, 'HEAD'], run);
    if (base.code !== 0) return { ahead: null, behind: null };
  }
  const counts = await git(['rev-list', '--left-right', '--count', `${ref}...HEAD`], run);
  const m = /^(\d+)\s+(\d+)/.exec(counts.stdout);
  if (counts.code !== 0 || !m) return { ahead: null, behind: null };
  return { behind: Number(m[1]), ahead: Number(m[2]) };
}

/**
 * Whether the HEAD file names the ref (`ref: refs/heads/main`). The reftable backend keeps a placeholder there,
 * and a detached HEAD holds a commit: neither matches, and git counts as usual.
 */
async function headIsSymbolicRef(gitDir: string, ref: string): Promise<boolean> {
  const head = await readFile(join(gitDir, 'HEAD'), 'utf8').catch(() => '');
  return head.trimEnd() === `ref: ${ref}`;
}
