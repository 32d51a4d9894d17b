// Which of the gate's checks do not pass on a repair's HEAD, read from what its checkout recorded — never by
// running anything: the Proof marker (green, with each job's verdict) and the last gate run (its verdict and,
// when red, each job's outcome). A check is
//   - failed: it failed in the last run on this HEAD under this configuration and discern version (a run stopped
//     by a precondition before any job names its stage, stage:<failed_stage>);
//   - stale: its only result is for another commit, configuration or discern version;
//   - never_ran: no record in this checkout has a result for it.
// The checks are the jobs done would run for this change (fix, build, generated, check, test and the gates of
// the changed scopes); standards are not among them, as in done's own record of a plan, unless one failed.
import { join } from 'node:path';
import type { ExceptionChecks } from '../notes/exception-note.js';
import {
  markerIsCurrent,
  readLastRun,
  readProofMarker,
  type LastRun,
  type ProofMarker,
} from '../gate/proof-records.js';
import { planGate } from '../gate/plan.js';
import type { GateConfig } from '../gate/gate-config.js';

export interface EvidenceRow {
  source: 'proof' | 'last_run';
  commit: string;
  current: boolean;
  verdict?: 'green' | 'red';
  failed_stage?: string;
  at?: string;
}

export interface CheckFacts {
  head: string;
  /** The labels done would run on this change, sorted. */
  planned: readonly string[];
  configCanonical: string;
  configDigest: string;
  version: string;
  marker?: ProofMarker;
  lastRun?: LastRun;
}

export interface ClassifiedChecks {
  /** Everything done would run passed on this HEAD: there is nothing to make an exception for. */
  green: boolean;
  checks: ExceptionChecks;
  evidence: EvidenceRow[];
}

/** The jobs done would run for a change touching `changedScopes` (standards aside). */
export function plannedChecks(gate: GateConfig, changedScopes: readonly string[]): string[] {
  const plan = planGate({
    mode: 'done',
    catalog: gate.catalog,
    settings: gate.settings,
    changedScopes,
    replayable: new Set(),
  });
  return plan.groups.flatMap((g) => g.producers.filter((p) => p.kind !== 'standard').map((p) => p.label)).sort();
}

export async function readCheckRecords(
  gitDir: string,
  commonDir: string,
): Promise<{ marker?: ProofMarker; lastRun?: LastRun }> {
  const [marker, lastRun] = await Promise.all([
    readProofMarker(join(gitDir, 'discern', 'gate-proof'), commonDir),
    readLastRun(join(gitDir, 'discern', 'last-gate-run'), commonDir),
  ]);
  return { ...(marker.state === 'present' ? { marker: marker.marker } : {}), ...(lastRun ? { lastRun } : {}) };
}

export function classifyChecks(facts: CheckFacts): ClassifiedChecks {
  const { marker, lastRun, head } = facts;
  const evidence: EvidenceRow[] = [];
  const markerCurrent =
    marker !== undefined &&
    marker.mode === 'strict' &&
    markerIsCurrent(marker, head, facts.configCanonical, facts.version);
  const runCurrent =
    lastRun !== undefined &&
    lastRun.commit === head &&
    lastRun.config_digest === facts.configDigest &&
    lastRun.discern_version === facts.version;
  if (marker)
    evidence.push({
      source: 'proof',
      commit: marker.commit,
      current: markerCurrent,
      verdict: 'green',
      at: marker.recorded_at,
    });
  if (lastRun)
    evidence.push({
      source: 'last_run',
      commit: lastRun.commit,
      current: runCurrent,
      verdict: lastRun.verdict,
      ...(lastRun.failed_stage ? { failed_stage: lastRun.failed_stage } : {}),
      at: lastRun.at,
    });
  const none: ExceptionChecks = { failed: [], never_ran: [], stale: [] };
  if (markerCurrent || (runCurrent && lastRun.verdict === 'green')) return { green: true, checks: none, evidence };

  // Results on this HEAD, and results on anything else (which only make a check stale).
  const here = new Map<string, string>();
  const elsewhere = new Set<string>();
  if (runCurrent) for (const p of lastRun.producers ?? []) here.set(p.label, p.outcome);
  else
    for (const p of lastRun?.producers ?? []) if (p.outcome === 'ok' || p.outcome === 'failed') elsewhere.add(p.label);
  if (marker && !markerCurrent)
    for (const p of marker.producers) if (p.outcome === 'ok' || p.outcome === 'failed') elsewhere.add(p.label);

  const failed = new Set<string>();
  const neverRan: string[] = [];
  const stale: string[] = [];
  for (const label of facts.planned) {
    const outcome = here.get(label);
    if (outcome === 'ok') continue;
    if (outcome === 'failed') failed.add(label);
    else if (elsewhere.has(label)) stale.push(label);
    else neverRan.push(label);
  }
  // A failed standard, or a job of a plan that differs from today's, still failed on this HEAD.
  for (const [label, outcome] of here) if (outcome === 'failed') failed.add(label);
  if (runCurrent && lastRun.verdict === 'red' && failed.size === 0)
    failed.add(`stage:${lastRun.failed_stage ?? 'unknown'}`);
  return { green: false, checks: { failed: [...failed].sort(), never_ran: neverRan, stale }, evidence };
}
