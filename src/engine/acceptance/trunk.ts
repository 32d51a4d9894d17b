// Moving the trunk to a proven commit, never anywhere else: a compare-and-swap from the tip the landing began
// with (a trunk that moved meanwhile refuses), and a checkout of the trunk follows the ref — a clean one is
// fast-forwarded with it (`git merge --ff-only`), a dirty one refuses before anything moves, since moving the
// ref alone would leave that checkout looking dirty, and so does a rebase, merge or bisect under way.
import { git, gitComplaint } from '../git/git.js';
import { trunkOperationInProgress } from '../git/operation-in-progress.js';
import { readWorkingState } from '../git/porcelain-status.js';

type Env = Readonly<Record<string, string | undefined>>;

export type TrunkMove =
  | { ok: true }
  | { ok: false; reason: 'dirty_checkout' | 'operation_in_progress' | 'moved' | 'failed'; message: string };

/** Checks, without changing anything, that the trunk can move from `from`. */
export async function trunkMovable(
  run: { cwd: string; env: Env },
  trunk: string,
  from: string,
  checkout: string | undefined,
): Promise<TrunkMove> {
  const tip = await git(['rev-parse', '--verify', '--quiet', `refs/heads/${trunk}`], run);
  if (tip.code !== 0 || tip.stdout.trim() !== from)
    return {
      ok: false,
      reason: 'moved',
      message: `${trunk} moved while landing (now ${tip.stdout.trim().slice(0, 12) || 'gone'}); nothing was landed`,
    };
  // A rebase, merge or bisect under way in some checkout would be broken by the trunk moving under it.
  const common = await git(['rev-parse', '--path-format=absolute', '--git-common-dir'], run);
  const busy = common.code === 0 ? await trunkOperationInProgress(common.stdout.trim(), trunk) : undefined;
  if (busy)
    return {
      ok: false,
      reason: 'operation_in_progress',
      message: `${busy.what} is in progress (git dir ${busy.gitDir}): moving ${trunk} now would break it. Finish it with ${busy.finish} first; nothing was landed`,
    };
  if (checkout !== undefined) {
    const state = await readWorkingState(checkout, run.env);
    if (state.changed > 0) {
      return {
        ok: false,
        reason: 'dirty_checkout',
        message: `${trunk} is checked out at ${checkout} with ${state.changed} uncommitted change${state.changed === 1 ? '' : 's'}: moving ${trunk} would leave that checkout looking dirty. Commit or stash them there first; nothing was landed`,
      };
    }
  }
  return { ok: true };
}

export async function moveTrunk(
  run: { cwd: string; env: Env },
  trunk: string,
  from: string,
  to: string,
  checkout: string | undefined,
): Promise<TrunkMove> {
  // The checkout may have switched branches since it was listed: it follows the trunk only while it is on it.
  const follows =
    checkout !== undefined &&
    (await git(['symbolic-ref', '-q', 'HEAD'], { cwd: checkout, env: run.env })).stdout.trim() ===
      `refs/heads/${trunk}`;
  const ready = await trunkMovable(run, trunk, from, follows ? checkout : undefined);
  if (!ready.ok) return ready;
  if (follows && checkout !== undefined) {
    // The checkout of the trunk moves with its ref; --ff-only refuses anything but a fast-forward.
    const merged = await git(['merge', '--ff-only', '--no-edit', '-q', to], { cwd: checkout, env: run.env });
    if (merged.code !== 0)
      return {
        ok: false,
        reason: 'failed',
        message: `the checkout of ${trunk} at ${checkout} could not fast-forward: ${gitComplaint(merged)}`,
      };
  } else {
    const moved = await git(['update-ref', '-m', 'discern accept', `refs/heads/${trunk}`, to, from], run);
    if (moved.code !== 0)
      return { ok: false, reason: 'moved', message: `${trunk} could not move: ${gitComplaint(moved)}` };
  }
  const now = await git(['rev-parse', `refs/heads/${trunk}`], run);
  return now.stdout.trim() === to
    ? { ok: true }
    : {
        ok: false,
        reason: 'failed',
        message: `${trunk} is at ${now.stdout.trim().slice(0, 12)}, not ${to.slice(0, 12)}`,
      };
}

/** Whether `commit` is on the trunk (contained in its tip). */
export async function trunkContains(run: { cwd: string; env: Env }, trunk: string, commit: string): Promise<boolean> {
  return (await git(['merge-base', '--is-ancestor', commit, `refs/heads/${trunk}`], run)).code === 0;
}
