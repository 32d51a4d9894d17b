// The efforts of a repository: its linked worktrees on a branch, each named by the id its task record gives
// (else the worktree's directory name), and how a `target` selects one — by id, branch, full ref or path.
import { basename, isAbsolute, resolve } from 'node:path';
import { git } from '../git/git.js';
import { listWorktrees } from '../git/worktree-list.js';
import { readTaskRecord, type TaskRecord } from '../efforts/task-record.js';

export interface Effort {
  id: string;
  branch: string;
  path: string;
  gitDir: string;
  record?: TaskRecord;
}

type Env = Readonly<Record<string, string | undefined>>;

/** The branches of integration worktrees, where accept composes an effort with a moved trunk. */
export const INTEGRATION_PREFIX = 'discern/integration/';

export async function listEfforts(
  root: string,
  env: Env,
): Promise<{ mainRoot: string; efforts: Effort[]; trunkCheckout: (trunk: string) => string | undefined }> {
  const worktrees = await listWorktrees(root, env);
  const mainRoot = worktrees[0]?.path ?? root;
  const efforts: Effort[] = [];
  for (const w of worktrees.slice(1)) {
    // Integration worktrees are acceptance's own scratch space, never an effort.
    if (w.branch === null || w.prunable !== null || w.branch.startsWith(INTEGRATION_PREFIX)) continue;
    const dir = await git(['rev-parse', '--absolute-git-dir'], { cwd: w.path, env });
    if (dir.code !== 0) continue;
    const gitDir = dir.stdout.trim();
    const record = await readTaskRecord(gitDir);
    efforts.push({
      id: record?.id ?? basename(w.path),
      branch: w.branch,
      path: w.path,
      gitDir,
      ...(record ? { record } : {}),
    });
  }
  return { mainRoot, efforts, trunkCheckout: (trunk) => worktrees.find((w) => w.branch === trunk)?.path };
}

export type TargetMatch = { effort: Effort } | { none: true } | { ambiguous: Effort[] };

export function selectEffort(efforts: readonly Effort[], target: string): TargetMatch {
  const byPath = isAbsolute(target) ? resolve(target) : undefined;
  const matches = efforts.filter(
    (e) =>
      e.id === target ||
      e.branch === target ||
      `refs/heads/${e.branch}` === target ||
      (byPath !== undefined && (byPath === e.path || byPath.startsWith(`${e.path}/`))),
  );
  const [first, ...rest] = matches;
  if (first === undefined) return { none: true };
  if (rest.length > 0) return { ambiguous: matches };
  return { effort: first };
}
