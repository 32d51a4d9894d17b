// Which tree a gate-running call tested, for the flaky-job detector: a job that failed and then passed on the
// same tree failed for a reason the code does not explain. The call's own result does not name the tree, and
// the working tree can change while jobs run (a fixer rewrites files, an agent keeps editing, someone commits),
// so the checkout is looked at twice — as the call starts and after it ends — and a tree is recorded only when
// both looks saw the same HEAD on a clean checkout. Untracked files count as changes; ignored ones do not.
// git runs with GIT_OPTIONAL_LOCKS=0 (git.ts), so `status` never takes the index lock the call may need.
import { git } from '../git/git.js';
import { readHeadIds } from '../git/head.js';
import type { CheckoutLook, CheckoutStatus } from '../git/checkout-status.js';

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

/**
 * The first look from the one invoke() started for the verb to share (git/checkout-status.ts): the same facts
 * lookAtTree reads. Its status lists every untracked file where lookAtTree's lists untracked directories, and
 * either lists nothing exactly when no untracked file exists; both compare submodules strictly.
 */
export async function treeLookFrom(look: CheckoutLook): Promise<TreeLook | undefined> {
  try {
    const [ids, read] = await Promise.all([look.ids, look.status]);
    if (ids === undefined || !read.ok) return undefined;
    return { head: ids.commit, tree: ids.tree, clean: read.status.clean };
  } catch {
    return undefined;
  }
}

/**
 * The second look from the strict status the verb read after its last jobs: HEAD's tree is not read again —
 * a commit names one tree, so an unmoved HEAD still has the tree the first look saw, and a moved one records
 * no tree whatever its tree is.
 */
export function lookAfter(before: TreeLook, status: CheckoutStatus): TreeLook | undefined {
  if (status.head === null || status.head !== before.head) return undefined;
  return { head: status.head, tree: before.tree, clean: status.clean };
}

/** The tree both looks agree the call ran on, or undefined. */
export function stableTree(
  before: TreeLook | undefined,
  after: TreeLook | undefined,
): { head: string; tree: string } | undefined {
  if (!before || !after || !before.clean || !after.clean) return undefined;
  if (before.head !== after.head || before.tree !== after.tree) return undefined;
  return { head: after.head, tree: after.tree };
}
