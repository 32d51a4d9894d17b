// Which tree a gate-running call tested, for the flaky-job detector: a job that failed and then passed on the
// same tree failed for a reason the code does not explain. The call's own result does not name the tree, and
// the working tree can change while jobs run (a fixer rewrites files, an agent keeps editing, someone commits),
// so the checkout is looked at twice — as the call starts and after it ends — and a tree is recorded only when
// both looks saw the same HEAD on a clean checkout. Untracked files count as changes; ignored ones do not.
// git runs with GIT_OPTIONAL_LOCKS=0 (git.ts), so `status` never takes the index lock the call may need.
import { git } from '../git/git.js';
import { readHeadIds } from '../git/head.js';

export interface TreeLook {
  head: string;
  tree: string;
  clean: boolean;
}

type Env = Readonly<Record<string, string | undefined>>;

/** One look at the checkout; undefined when git cannot say (no commit yet, git gone). Never throws. */
export async function lookAtTree(root: string, env: Env): Promise<TreeLook | undefined> {
  try {
    const [ids, status] = await Promise.all([
      readHeadIds(root, env),
      git(['status', '--porcelain', '-z', '--untracked-files=normal', '--ignore-submodules=none'], { cwd: root, env }),
    ]);
    if (ids === undefined || status.code !== 0) return undefined;
    return { head: ids.commit, tree: ids.tree, clean: status.stdout.length === 0 };
  } catch {
    return undefined;
  }
}

/** The tree both looks agree the call ran on, or undefined. */
export function stableTree(before: TreeLook | undefined, after: TreeLook | undefined): { head: string; tree: string } | undefined {
  if (!before || !after || !before.clean || !after.clean) return undefined;
  if (before.head !== after.head || before.tree !== after.tree) return undefined;
  return { head: after.head, tree: after.tree };
}
