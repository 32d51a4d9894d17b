// The repository's worktrees from `git worktree list --porcelain -z`: path, HEAD, branch, and the detached,
// locked and prunable marks. The first record is the main worktree.
import { git } from './git.js';

export interface WorktreeRecord {
  path: string;
  head: string | null;
  /** Short branch name; null when detached. */
  branch: string | null;
  bare: boolean;
  locked: string | null;
  prunable: string | null;
}

export function parseWorktreeList(output: string): WorktreeRecord[] {
  const records: WorktreeRecord[] = [];
  let current: WorktreeRecord | null = null;
  for (const line of output.split('\0')) {
    if (line === '') {
      if (current) records.push(current);
      current = null;
      continue;
    }
    const space = line.indexOf(' ');
    const key = space === -1 ? line : line.slice(0, space);
    const value = space === -1 ? '' : line.slice(space + 1);
    if (key === 'worktree') {
      if (current) records.push(current);
      current = { path: value, head: null, branch: null, bare: false, locked: null, prunable: null };
    } else if (current) {
      if (key === 'HEAD') current.head = /^0+$/.test(value) ? null : value;
      else if (key === 'branch') current.branch = value.replace(/^refs\/heads\//, '');
      else if (key === 'bare') current.bare = true;
      else if (key === 'locked') current.locked = value || 'locked';
      else if (key === 'prunable') current.prunable = value || 'prunable';
    }
  }
  if (current) records.push(current);
  return records;
}

export async function listWorktrees(
  cwd: string,
  env: Readonly<Record<string, string | undefined>>,
  signal?: AbortSignal,
): Promise<WorktreeRecord[]> {
  const result = await git(['worktree', 'list', '--porcelain', '-z'], { cwd, env, ...(signal ? { signal } : {}) });
  if (result.code !== 0) throw new Error(`git worktree list failed: ${result.stderr.trim()}`);
  return parseWorktreeList(result.stdout);
}
