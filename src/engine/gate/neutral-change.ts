// Whether a change needs no gate run: every path it touches (both sides of a rename) lies in a neutral scope of
// the trunk's discern.toml, and no scope it activates is anything but neutral (a gated scope that also claims a
// path keeps its gate). The trunk's scopes judge, never the change's: a branch cannot declare its own code
// neutral. A change that could not be read, an empty one, or a trunk without a readable file is never neutral.
//
// Skipping every job is the strongest thing done does, so the paths are read again for it alone, in a way the
// checkout cannot bend: without replace refs (GIT_NO_REPLACE_OBJECTS), with every submodule change shown
// whatever diff.ignoreSubmodules or submodule.<name>.ignore say, between the commits themselves (diff-tree).
import type { ChangeSet } from '../git/change-set.js';
import { git } from '../git/git.js';
import { classify, type CompiledScope } from '../scopes/index.js';

export interface NeutralChange {
  /** The trunk's neutral scopes the change touches, in definition order. */
  scopes: string[];
}

export function judgeNeutral(
  change: Pick<ChangeSet, 'changes'> | undefined,
  trunkScopes: readonly CompiledScope[] | undefined,
): NeutralChange | undefined {
  if (change === undefined || trunkScopes === undefined || change.changes.length === 0) return undefined;
  const classification = classify(change.changes, trunkScopes);
  if (classification.code || classification.neutral.length === 0) return undefined;
  if (classification.scopes.length !== classification.neutral.length) return undefined;
  return { scopes: classification.neutral };
}

interface Run {
  cwd: string;
  env: Readonly<Record<string, string | undefined>>;
  signal?: AbortSignal;
}

/**
 * The neutral judgment confirmed on the commits as they are: the merge-base and the paths read with replace refs
 * off and submodules shown. Undefined (not neutral) when anything differs from the first reading or git fails.
 */
export async function confirmNeutral(
  run: Run,
  baseRef: string,
  base: string,
  trunkScopes: readonly CompiledScope[],
): Promise<NeutralChange | undefined> {
  const env = { ...run.env, GIT_NO_REPLACE_OBJECTS: '1' };
  const options = { cwd: run.cwd, env, ...(run.signal ? { signal: run.signal } : {}) };
  const mergeBase = await git(['merge-base', baseRef, 'HEAD'], options);
  if (mergeBase.code !== 0 || mergeBase.stdout.trim() !== base) return undefined;
  const diff = await git(
    ['diff-tree', '-r', '-z', '--no-renames', '--name-only', '--ignore-submodules=none', base, 'HEAD', '--'],
    options,
  );
  if (diff.code !== 0) return undefined;
  const paths = diff.stdout.split('\0').filter((p) => p.length > 0);
  return judgeNeutral({ changes: paths.map((path) => ({ path })) }, trunkScopes);
}
