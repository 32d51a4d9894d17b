// Reaps job process trees a killed discern left behind. A run journals the process group of every job it
// starts and removes it when the job ends; a record that never finished, whose executor is gone, and that still
// lists groups points at orphans. Before signalling, each group's leader must still be a process working in
// this checkout (Linux: /proc/<pgid>/cwd) — a recycled pid that now belongs to something else is left alone.
import { readlink } from 'node:fs/promises';
import { sep } from 'node:path';
import { terminateGroup } from '../jobs/process-group.js';
import { listOperations, executorState } from '../journal/index.js';

export async function reapOrphans(repositoryDir: string, checkout: string): Promise<number[]> {
  if (process.platform !== 'linux') return [];
  const { records } = await listOperations(repositoryDir).catch(() => ({ records: [] }));
  const reaped: number[] = [];
  for (const { record } of records) {
    if (record.checkout !== checkout || record.finished_at !== undefined || record.pgids.length === 0) continue;
    if (executorState(record) !== 'gone') continue;
    for (const pgid of record.pgids) {
      if (!(await worksIn(pgid, checkout))) continue;
      const outcome = await terminateGroup(pgid);
      if (outcome !== 'empty') reaped.push(pgid);
    }
  }
  return reaped;
}

async function worksIn(pid: number, checkout: string): Promise<boolean> {
  try {
    const cwd = await readlink(`/proc/${pid}/cwd`);
    return cwd === checkout || cwd.startsWith(`${checkout}${sep}`);
  } catch {
    return false;
  }
}
