// The commit and tree HEAD names, in one git call, read with replace refs off (docs/decisions/0047).
import { git } from './git.js';

export interface HeadIds {
  commit: string;
  tree: string;
}

export async function readHeadIds(
  cwd: string,
  env: Readonly<Record<string, string | undefined>>,
  signal?: AbortSignal,
): Promise<HeadIds | undefined> {
  // With replace refs off: Proof names the commit and the tree a fresh clone gets, never a stand-in's.
  const result = await git(['rev-parse', '--quiet', 'HEAD', 'HEAD^{tree}'], {
    cwd,
    env: { ...env, GIT_NO_REPLACE_OBJECTS: '1' },
    ...(signal ? { signal } : {}),
  });
  const [commit, tree] = result.stdout.trim().split('\n');
  if (result.code !== 0 || !commit || !tree) return undefined;
  return { commit, tree };
}

/** Whether `ref` names a commit here (for refs the caller passes, such as policy_base). */
export async function resolvesToCommit(
  ref: string,
  cwd: string,
  env: Readonly<Record<string, string | undefined>>,
): Promise<boolean> {
  if (ref.startsWith('-')) return false;
  const result = await git(['rev-parse', '--verify', '--quiet', `${ref}^{commit}`], { cwd, env });
  return result.code === 0;
}

/** The branch HEAD is on, or null when it is detached. */
export async function readBranch(
  cwd: string,
  env: Readonly<Record<string, string | undefined>>,
): Promise<string | null> {
  const result = await git(['symbolic-ref', '-q', '--short', 'HEAD'], { cwd, env });
  return result.code === 0 ? result.stdout.trim() : null;
}
