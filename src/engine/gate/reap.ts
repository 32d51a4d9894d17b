// Reaps job process trees a killed discern left behind. A run journals the process group of every job it
// starts and removes it when the job ends; a record that never finished, whose executor is gone, and that still
// lists groups points at orphans. Only the records the checkout's running/ files name need reading. Before signalling, each group's leader must still
// be a process working in this checkout (Linux: /proc/<pgid>/cwd) — a recycled pid now belonging to something
// else is left alone.
import { readlink, rm } from 'node:fs/promises';
import { join, sep } from 'node:path';
import { terminateGroup } from '../jobs/process-group.js';
import { executorState } from '../journal/index.js';
import { runningRecords } from './checkout-state.js';
import type { GateStatePaths } from './state-paths.js';

export async function reapOrphans(paths: GateStatePaths, checkout: string): Promise<number[]> {
  if (process.platform !== 'linux') return [];
  const reaped: number[] = [];
  for (const { handle, record } of await runningRecords(paths)) {
    if (
      record === undefined ||
      record.checkout !== checkout ||
      record.finished_at !== undefined ||
      executorState(record) !== 'gone'
    )
      continue;
    for (const pgid of record.pgids) {
      if (!(await worksIn(pgid, checkout))) continue;
      if ((await terminateGroup(pgid)) !== 'empty') reaped.push(pgid);
    }
    await rm(join(paths.runningOperations, handle), { force: true }).catch(() => undefined);
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
