// Reaps job process trees a killed discern left behind. A run journals the process group of every job it
// starts and removes it when the job ends; a record that never finished, whose executor is gone, and that still
// lists groups points at orphans. Each run in a checkout reaps its predecessor's, so only the record the
// checkout's latest-operation pointer names needs reading. Before signalling, each group's leader must still
// be a process working in this checkout (Linux: /proc/<pgid>/cwd) — a recycled pid now belonging to something
// else is left alone.
import { readFile, readlink } from 'node:fs/promises';
import { sep } from 'node:path';
import { terminateGroup } from '../jobs/process-group.js';
import { readOperation, executorState } from '../journal/index.js';
import type { GateStatePaths } from './state-paths.js';

export async function reapOrphans(paths: GateStatePaths, checkout: string): Promise<number[]> {
  if (process.platform !== 'linux') return [];
  const handle = await readFile(paths.latestOperation, 'utf8').then((t) => t.trim(), () => undefined);
  if (!handle) return [];
  const read = await readOperation(paths.repositoryDir, handle);
  if (!read.ok) return [];
  const record = read.record;
  if (record.checkout !== checkout || record.finished_at !== undefined || record.pgids.length === 0 || executorState(record) !== 'gone') return [];
  const reaped: number[] = [];
  for (const pgid of record.pgids) {
    if (!(await worksIn(pgid, checkout))) continue;
    if ((await terminateGroup(pgid)) !== 'empty') reaped.push(pgid);
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
