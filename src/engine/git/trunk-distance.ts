// How far HEAD is ahead of and behind the trunk. Not comparable (null) when HEAD is unborn (git cannot count
// from a commit that does not exist), or when a shallow clone holds no common history with the trunk — a
// count then would be a guess, not a fact.
import { git } from './git.js';

export interface TrunkDistance {
  ahead: number | null;
  behind: number | null;
}

export async function trunkDistance(
  cwd: string,
  trunk: string,
  options: { shallow: boolean; env: Readonly<Record<string, string | undefined>>; signal?: AbortSignal },
): Promise<TrunkDistance> {
  const run = { cwd, env: options.env, ...(options.signal ? { signal: options.signal } : {}) };
  const ref = `refs/heads/${trunk}`;
  if (options.shallow) {
    const base = await git(['merge-base', ref, 'HEAD'], run);
    if (base.code !== 0) return { ahead: null, behind: null };
  }
  const counts = await git(['rev-list', '--left-right', '--count', `${ref}...HEAD`], run);
  const m = /^(\d+)\s+(\d+)/.exec(counts.stdout);
  if (counts.code !== 0 || !m) return { ahead: null, behind: null };
  return { behind: Number(m[1]), ahead: Number(m[2]) };
}
