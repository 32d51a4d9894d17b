// The change a checkout carries: every path that differs between the merge-base with the trunk and the working
// tree — commits, staged and unstaged edits — plus untracked files. A rename yields both paths. With no usable
// merge-base (an unborn HEAD, unrelated or cut-off history) the base is the empty tree: every tracked file
// counts as changed, which errs towards activating more scopes, never fewer.
import type { ChangedPath } from '../scopes/index.js';
import { git, type GitResult } from './git.js';

export interface ChangeSet {
  /** The merge-base commit, or null when the empty tree was used. */
  base: string | null;
  changes: ChangedPath[];
}

interface Run {
  cwd: string;
  env: Readonly<Record<string, string | undefined>>;
  signal?: AbortSignal;
  /** `git merge-base <baseRef> HEAD`, when the caller already started it for another read of the same change. */
  headMergeBase?: Promise<GitResult>;
  /** The untracked paths, when the caller has just read them (a status that listed none): not listed again. */
  untracked?: readonly string[];
}

/** `baseRef` names the comparison ref in full when it is not the local trunk branch (a fetched policy base). */
export async function readChangeSet(run: Run, trunk: string, baseRef = `refs/heads/${trunk}`): Promise<ChangeSet> {
  const options = { cwd: run.cwd, env: run.env, ...(run.signal ? { signal: run.signal } : {}) };
  // The untracked listing does not depend on the base: it runs beside the merge-base and the diff.
  const untrackedRun = run.untracked ? undefined : git(['ls-files', '--others', '--exclude-standard', '-z'], options);
  // No merge-base (an unborn HEAD, or no shared history) makes git fail here; both fall back to the empty tree.
  const mergeBase = await (run.headMergeBase ?? git(['merge-base', baseRef, 'HEAD'], options));
  const base = mergeBase.code === 0 ? mergeBase.stdout.trim() : null;
  const from = base ?? (await emptyTree(options));
  const [diff, untracked] = await Promise.all([
    git(['diff', '--name-status', '-z', '-M', '--no-ext-diff', from, '--'], options),
    untrackedRun,
  ]);
  if (diff.code !== 0) throw new Error(`git diff failed: ${diff.stderr.trim()}`);
  if (untracked && untracked.code !== 0) throw new Error(`git ls-files failed: ${untracked.stderr.trim()}`);
  const others = untracked ? untracked.stdout.split('\0').filter((p) => p.length > 0) : (run.untracked ?? []);
  return { base, changes: [...parseNameStatus(diff.stdout), ...others.map((path) => ({ path }))] };
}

/** `git diff --name-status -z`: a status, then one path, or two for renames and copies (R100, C75). */
export function parseNameStatus(output: string): ChangedPath[] {
  const fields = output.split('\0');
  const changes: ChangedPath[] = [];
  for (let i = 0; i < fields.length; i++) {
    const status = fields[i] ?? '';
    if (status === '') continue;
    if (status.startsWith('R') || status.startsWith('C')) {
      const from = fields[i + 1] ?? '';
      const to = fields[i + 2] ?? '';
      i += 2;
      // A copy leaves its source untouched: only a rename changes the old path.
      changes.push(status.startsWith('R') ? { path: to, from } : { path: to });
    } else {
      changes.push({ path: fields[i + 1] ?? '' });
      i += 1;
    }
  }
  return changes.filter((c) => c.path.length > 0);
}

/** The empty tree's id in this repository's hash (sha1 or sha256). */
async function emptyTree(options: {
  cwd: string;
  env: Readonly<Record<string, string | undefined>>;
  signal?: AbortSignal;
}): Promise<string> {
  const result = await git(['hash-object', '-t', 'tree', '/dev/null'], options);
  if (result.code !== 0) throw new Error(`git hash-object failed: ${result.stderr.trim()}`);
  return result.stdout.trim();
}
