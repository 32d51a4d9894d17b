// The task an effort was started for, kept in its worktree's git dir (never in the tree): what accept, status
// and the worktree commands read back, and what a teardown needs to destroy (the resources created).
import { join } from 'node:path';
import type { StateTaskRecord } from '../../../generated/state-types.js';
import { writeFileAtomic } from '../state/atomic-write.js';
import { stateRecordOrUndefined } from '../state/state-record.js';

export const TASK_RECORD_FORMAT = 1;

/** The record's shape is spec/state/task-record.schema.json. */
export type TaskRecord = StateTaskRecord;

/**
 * A resource as created: its destroy command and the DISCERN_* values it was created under, so it is destroyed
 * under the same names even after the effort was renamed or moved.
 */
export type RecordedResource = StateTaskRecord['resources'][number];

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

export function readTaskRecord(worktreeGitDir: string): Promise<TaskRecord | undefined> {
  return stateRecordOrUndefined('task-record', taskRecordPath(worktreeGitDir));
}
