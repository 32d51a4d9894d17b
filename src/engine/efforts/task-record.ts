// The task an effort was started for, kept in its worktree's git dir (never in the tree): what accept, status
// and the worktree commands read back, and what a teardown needs to destroy (the resources created).
import { join } from 'node:path';
import { readJsonFile, writeFileAtomic } from '../state/atomic-write.js';

export const TASK_RECORD_FORMAT = 1;

export interface TaskRecord {
  format: typeof TASK_RECORD_FORMAT;
  id: string;
  branch: string;
  path: string;
  from: { ref: string; commit: string };
  title?: string;
  brief?: string;
  created_at: string;
  /** Resources created for this worktree, in creation order, with the command that destroys each. */
  resources: RecordedResource[];
}

/**
 * A resource as created: its destroy command and the DISCERN_* values it was created under, so it is destroyed
 * under the same names even after the effort was renamed or moved.
 */
export interface RecordedResource {
  name: string;
  destroy?: string;
  env?: Record<string, string>;
}

/** The record of resources just made for an effort. */
export function recordResources(
  made: readonly { name: string; destroy?: string }[],
  effort: { id: string; branch: string; path: string },
): RecordedResource[] {
  return made.map((r) => ({
    name: r.name,
    ...(r.destroy !== undefined ? { destroy: r.destroy } : {}),
    env: { DISCERN_EFFORT: effort.id, DISCERN_BRANCH: effort.branch, DISCERN_WORKTREE: effort.path },
  }));
}

export function taskRecordPath(worktreeGitDir: string): string {
  return join(worktreeGitDir, 'discern', 'task-metadata.json');
}

export function writeTaskRecord(worktreeGitDir: string, record: TaskRecord): Promise<void> {
  return writeFileAtomic(taskRecordPath(worktreeGitDir), `${JSON.stringify(record, null, 2)}\n`);
}

export async function readTaskRecord(worktreeGitDir: string): Promise<TaskRecord | undefined> {
  const read = await readJsonFile<TaskRecord>(taskRecordPath(worktreeGitDir));
  if (
    !read.ok ||
    typeof read.value !== 'object' ||
    read.value === null ||
    read.value.format !== TASK_RECORD_FORMAT ||
    typeof read.value.id !== 'string'
  )
    return undefined;
  return read.value;
}
