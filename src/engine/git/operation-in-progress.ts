// Whether a checkout of the repository is in the middle of an operation that the trunk moving under it would
// break: a rebase of the trunk (its final step rewrites the trunk's ref from the value it started with), a
// bisect that will return to the trunk, or a merge, cherry-pick, revert, am or sequence on a checkout of the
// trunk. Read from git's own state files in each checkout's git dir (the main one and every linked worktree's),
// with no git process per checkout.
import { readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';

export interface OperationInProgress {
  /** The checkout's git dir. */
  gitDir: string;
  /** What is in progress, in words: "a rebase of main". */
  what: string;
  /** The command that ends it either way. */
  finish: string;
}

export async function trunkOperationInProgress(
  commonDir: string,
  trunk: string,
): Promise<OperationInProgress | undefined> {
  const linked = await readdir(join(commonDir, 'worktrees')).catch(() => [] as string[]);
  const gitDirs = [commonDir, ...linked.sort().map((name) => join(commonDir, 'worktrees', name))];
  for (const gitDir of gitDirs) {
    const found = await inProgress(gitDir, trunk);
    if (found) return found;
  }
  return undefined;
}

async function inProgress(gitDir: string, trunk: string): Promise<OperationInProgress | undefined> {
  const ref = `refs/heads/${trunk}`;
  const text = (name: string): Promise<string | undefined> =>
    readFile(join(gitDir, name), 'utf8').then(
      (t) => t.trim(),
      () => undefined,
    );
  const exists = (name: string): Promise<boolean> =>
    stat(join(gitDir, name)).then(
      () => true,
      () => false,
    );
  for (const dir of ['rebase-merge', 'rebase-apply']) {
    if ((await text(`${dir}/head-name`)) === ref)
      return { gitDir, what: `a rebase of ${trunk}`, finish: '`git rebase --continue` or `git rebase --abort`' };
  }
  if ((await text('BISECT_START')) === trunk)
    return { gitDir, what: `a bisect that returns to ${trunk}`, finish: '`git bisect reset`' };
  if ((await text('HEAD')) !== `ref: ${ref}`) return undefined;
  const onTrunk: [string, string, string][] = [
    ['MERGE_HEAD', 'a merge', '`git merge --continue` or `git merge --abort`'],
    ['CHERRY_PICK_HEAD', 'a cherry-pick', '`git cherry-pick --continue` or `git cherry-pick --abort`'],
    ['REVERT_HEAD', 'a revert', '`git revert --continue` or `git revert --abort`'],
    ['rebase-apply', 'an am', '`git am --continue` or `git am --abort`'],
    ['sequencer', 'a cherry-pick or revert sequence', '`git cherry-pick --continue` or `git cherry-pick --abort`'],
  ];
  for (const [name, what, finish] of onTrunk)
    if (await exists(name)) return { gitDir, what: `${what} on ${trunk}`, finish };
  return undefined;
}
