// What status shows about the gate in a checkout, read cheaply: whether the Proof marker is current for HEAD,
// and the done or test runs going on there now (through the checkout's running/ files, a few record reads
// instead of the whole journal).
import { readdir, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { DiscernGateProofCheck, DiscernStatusOperation } from '../../../generated/types.js';
import { readOperation, executorState, type OperationRecord } from '../journal/index.js';
import { markerIsCurrent, readProofMarker } from './proof-records.js';
import { declarationsCurrent } from '../checkpoints/store.js';
import type { GateStatePaths } from './state-paths.js';

export async function checkoutProof(
  paths: GateStatePaths,
  head: string | null,
  clean: boolean,
  configCanonical: string,
  version: string,
): Promise<DiscernGateProofCheck> {
  const read = await readProofMarker(paths.proofMarker, paths.commonDir);
  if (read.state === 'missing') return { status: 'missing' };
  if (read.state === 'unreadable') return { status: 'read_failed', path: paths.proofMarker, reason: read.detail };
  const m = read.marker;
  const base = { path: paths.proofMarker, head: m.commit.slice(0, 12), recorded: m.recorded_at };
  if (head === null || m.commit !== head)
    return { status: 'stale', ...base, reason: 'HEAD has moved since this Proof was recorded' };
  if (!markerIsCurrent(m, head, configCanonical, version))
    return {
      status: 'stale',
      ...base,
      reason: 'discern.toml or the discern version changed since this Proof was recorded',
    };
  if (!(await declarationsCurrent(m, dirname(paths.checkoutDir))))
    return { status: 'stale', ...base, reason: 'a checkpoint declaration changed since this Proof was recorded' };
  if (!clean) return { status: 'dirty', ...base, reason: 'the worktree has uncommitted changes' };
  // Current, but recorded in report mode (done --ci): it cannot authorize a landing.
  if (m.mode === 'report')
    return { status: 'report_only', ...base, reason: 'recorded in report mode (ci): it cannot authorize a landing' };
  return { status: 'honored', ...base, proof: m.proof };
}

/** status's `operation`, less the read-back call (which depends on the surface). */
export type RunningOperation = Omit<DiscernStatusOperation, 'read_back'> & { executor: 'running' | 'unknown' };

/** The most recently started operation still running in this checkout; files of finished or dead ones are cleared
 *  (a dead one's only once it has no jobs left to reap). */
export async function runningOperation(paths: GateStatePaths): Promise<RunningOperation | undefined> {
  const running: RunningOperation[] = [];
  for (const { handle, record } of await runningRecords(paths)) {
    const executor = record ? executorState(record) : 'gone';
    // A dead run whose record still lists process groups keeps its file: the next gate run reaps those jobs by
    // it (reap.ts), and a status read in between must not hide them from it.
    const toReap = record !== undefined && record.finished_at === undefined && record.pgids.length > 0;
    if (!record || record.finished_at !== undefined || executor === 'gone') {
      if (!toReap) await rm(join(paths.runningOperations, handle), { force: true }).catch(() => undefined);
      continue;
    }
    running.push({
      handle: record.handle,
      verb: record.verb,
      started_at: record.started_at,
      elapsed_ms: Math.max(0, Date.now() - Date.parse(record.started_at)),
      phase: record.progress.phase,
      reason: record.progress.reason,
      executor,
    });
  }
  return running.sort((a, b) => b.started_at.localeCompare(a.started_at))[0];
}

/** The records this checkout's running files name (a record that cannot be read comes back undefined). */
export async function runningRecords(
  paths: GateStatePaths,
): Promise<{ handle: string; record: OperationRecord | undefined }[]> {
  const handles = await readdir(paths.runningOperations).catch(() => [] as string[]);
  return Promise.all(
    handles
      .filter((h) => h.startsWith('R1-'))
      .map(async (handle) => {
        const read = await readOperation(paths.repositoryDir, handle);
        return { handle, record: read.ok ? read.record : undefined };
      }),
  );
}
