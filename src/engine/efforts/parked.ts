// Parked efforts: the task record of an effort whose worktree was set aside (`worktree park`), kept under the
// git common dir — the worktree's own git dir went with it — until `worktree setup` brings the worktree back.
import { readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { writeFileAtomic } from '../state/atomic-write.js';
import { stateRecordOrUndefined } from '../state/state-record.js';
import type { TaskRecord } from './task-record.js';

export function parkedRecords(commonDir: string): {
  read(id: string): Promise<TaskRecord | undefined>;
  all(): Promise<TaskRecord[]>;
  write(record: TaskRecord): Promise<void>;
  remove(id: string): Promise<void>;
} {
  const dir = join(commonDir, 'discern', 'parked');
  const file = (id: string): string => join(dir, `${id}.json`);
  const read = async (id: string): Promise<TaskRecord | undefined> => {
    return stateRecordOrUndefined('task-record', file(id));
  };
  return {
    read,
    async all() {
      const names = (await readdir(dir).catch(() => [] as string[])).filter((n) => n.endsWith('.json')).sort();
      const out: TaskRecord[] = [];
      for (const name of names) {
        const record = await read(name.slice(0, -'.json'.length));
        if (record) out.push(record);
      }
      return out;
    },
    write: (record) => writeFileAtomic(file(record.id), `${JSON.stringify(record, null, 2)}\n`),
    remove: (id) => rm(file(id), { force: true }),
  };
}
