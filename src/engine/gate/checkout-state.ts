// What status shows about the gate in a checkout, read cheaply: whether the Proof marker is current for HEAD,
// and the done or test run going on there now (through the checkout's latest-operation pointer, one record
// read instead of the whole journal).
import { readFile } from 'node:fs/promises';
import type { DiscernGateProofCheck, DiscernStatusOperation } from '../../../generated/types.js';
import { readOperation, executorState } from '../journal/index.js';
import { markerIsCurrent, readProofMarker } from './proof-records.js';
import type { GateStatePaths } from './state-paths.js';

export async function checkoutProof(paths: GateStatePaths, head: string | null, clean: boolean, configCanonical: string, version: string): Promise<DiscernGateProofCheck> {
  const read = await readProofMarker(paths.proofMarker);
  if (read.state === 'missing') return { status: 'missing' };
  if (read.state === 'unreadable') return { status: 'read_failed', path: paths.proofMarker, reason: read.detail };
  const m = read.marker;
  const base = { path: paths.proofMarker, head: m.commit.slice(0, 12), recorded: m.recorded_at };
  if (head === null || m.commit !== head) return { status: 'stale', ...base, reason: 'HEAD has moved since this Proof was recorded' };
  if (!markerIsCurrent(m, head, configCanonical, version)) return { status: 'stale', ...base, reason: 'discern.toml or the discern version changed since this Proof was recorded' };
  if (!clean) return { status: 'dirty', ...base, reason: 'the worktree has uncommitted changes' };
  return { status: 'honored', ...base, proof: m.proof };
}

/** status's `operation`, less the read-back call (which depends on the surface). */
export type RunningOperation = Omit<DiscernStatusOperation, 'read_back'> & { executor: 'running' | 'unknown' };

export async function runningOperation(paths: GateStatePaths): Promise<RunningOperation | undefined> {
  let handle: string;
  try {
    handle = (await readFile(paths.latestOperation, 'utf8')).trim();
  } catch {
    return undefined;
  }
  const read = await readOperation(paths.repositoryDir, handle);
  if (!read.ok || read.record.finished_at !== undefined) return undefined;
  const executor = executorState(read.record);
  if (executor === 'gone') return undefined;
  const r = read.record;
  return { handle: r.handle, verb: r.verb, started_at: r.started_at, elapsed_ms: Math.max(0, Date.now() - Date.parse(r.started_at)), phase: r.progress.phase, reason: r.progress.reason, executor };
}
