// What done records once the verdict is known. Green and strict: the Proof marker for HEAD, the evidence for
// its (tree, config), the last-run verdict and the standards' measurements. Red and strict: the last-run verdict,
// so the same tree is not re-run by reflex. ci and standalone record nothing: their feedback is not Proof.
import type { DoneOutcome } from '../../generated/handlers.js';
import type {
  DiscernDiagnostic,
  DiscernDoneData,
  DiscernFailedStage,
  DiscernGateStandard,
  DiscernProofSummary,
  DiscernStep,
} from '../../generated/types.js';
import type { GateRun } from '../engine/gate/execute.js';
import { rm } from 'node:fs/promises';
import {
  evidencePath,
  markerIsCurrent,
  readProofMarker,
  writeEvidence,
  writeLastRun,
  writeProofMarker,
  RECORD_FORMAT,
  type Evidence,
  type ProducerVerdict,
} from '../engine/gate/proof-records.js';
import { buildProofSummary, diffStatsAgainst, proofMarkdown, type DiffStats } from '../engine/gate/proof-summary.js';
import type { GateReport } from '../engine/gate/report.js';
import {
  definitionDigest,
  inputsDigest,
  lsTree,
  recordMeasurements,
  type Measurement,
} from '../engine/gate/standard-measurements.js';
import type { CheckoutFacts, DoneAdvisory, DoneRun } from './done-facts.js';
import { configIdentity } from '../engine/gate/canonical-json.js';

interface Common {
  steps: DiscernStep[];
  waited_ms?: number;
  diagnostics?: DiscernDiagnostic[];
}

export async function recordRed(
  run: DoneRun,
  failedStage: DiscernFailedStage,
  handle: string | undefined,
  plan: readonly string[],
  producers: readonly ProducerVerdict[] = [],
): Promise<void> {
  // The latest verdict on a tree wins: a red re-measure withdraws the green Proof and evidence it contradicts.
  const marker = await readProofMarker(run.paths.proofMarker, run.paths.commonDir);
  if (marker.state === 'present' && marker.marker.tree === run.key.tree)
    await rm(run.paths.proofMarker, { force: true }).catch(() => undefined);
  await rm(await evidencePath(run.paths.evidence, run.key), { force: true }).catch(() => undefined);
  await writeLastRun(
    run.paths.lastRun,
    {
      format: RECORD_FORMAT,
      commit: run.head.commit,
      tree: run.key.tree,
      config_digest: run.key.configDigest,
      discern_version: run.key.version,
      verdict: 'red',
      failed_stage: failedStage,
      plan: [...plan],
      producers: [...producers],
      at: new Date().toISOString(),
      ...(handle ? { handle } : {}),
    },
    run.paths.commonDir,
  ).catch(() => undefined); // a lost red verdict only costs a re-run
}

export async function recordGreen(
  run: DoneRun,
  gateRun: GateRun,
  report: GateReport,
  common: Common,
  data: DiscernDoneData,
  advisories: DoneAdvisory[],
  handle: string | undefined,
  stats: Promise<DiffStats> | undefined,
): Promise<DoneOutcome> {
  const { ctx } = run;
  const producers: ProducerVerdict[] = gateRun.runs.map((r) => ({
    label: r.producer.label,
    outcome: r.outcome,
    duration_ms: r.result?.durationMs ?? 0,
  }));
  const surfaceHint = (cli: string, mcp: string): string => (ctx.surface === 'mcp' ? mcp : cli);
  if (run.standalone) {
    return {
      ...common,
      data: {
        ...data,
        gate_proof: { status: 'diagnostic', reason: 'standalone runs record no Proof' },
        completion: { kind: 'diagnostic', pending_reasons: [] },
      },
      held: ['gate-finish'],
      hints: [
        surfaceHint(
          'Standalone diagnostics: no Proof was recorded. Commit, then run `discern done` for Proof.',
          'Standalone diagnostics: no Proof was recorded. Commit, then call discern_done without standalone for Proof.',
        ),
      ],
      ...(advisories.length > 0 ? { advisories } : {}),
    };
  }
  const summary = summaryFor(
    run,
    run.mode,
    await (stats ?? diffStatsAgainst(run.base, ctx.project.root, ctx.env)),
    producers,
    report.standards,
  );
  if (run.mode === 'report') {
    // The report is kept as a report-only marker, so status and accept can say why it cannot land (checkpoint
    // review was not enforced); a strict Proof already current for this commit is never replaced by it.
    const kept = await writeReportMarker(run, summary, producers, report.standards, handle, data.scopes_changed);
    return {
      ...common,
      data: {
        ...data,
        proof: summary,
        gate_proof: {
          status: 'diagnostic',
          ...(kept === 'written' ? { path: run.paths.proofMarker } : {}),
          reason:
            kept === 'written'
              ? 'report mode (ci): kept as report-only; it cannot authorize a landing'
              : kept === 'strict_kept'
                ? "report mode (ci): this commit's strict Proof stands; the report did not replace it"
                : 'report mode (ci): the report-only marker could not be written',
        },
        completion: { kind: 'diagnostic', pending_reasons: [] },
      },
      held: ['gate-finish'],
      hints: ['Report mode (ci): the gate passed; no landing Proof was recorded.'],
      ...(advisories.length > 0 ? { advisories } : {}),
    };
  }
  const recorded = await writeProof(run, summary, producers, report.standards, handle, data.scopes_changed);
  await recordStandardValues(run, gateRun);
  const all = recorded.advisory ? [...advisories, recorded.advisory] : advisories;
  return {
    ...common,
    data: {
      ...data,
      proof: summary,
      ...recordedProof(run, summary, recorded),
    },
    held: ['gate-finish'],
    hints: ['Relay the Proof line verbatim; green is not landed.'],
    ...(all.length > 0 ? { advisories: all } : {}),
  };
}

export async function replayEvidence(
  run: DoneRun,
  evidence: Evidence,
  steps: DiscernStep[],
  base: Omit<DiscernDoneData, 'gate_ran' | 'failed_stage'>,
  handle: string | undefined,
  stats: Promise<DiffStats>,
): Promise<DoneOutcome> {
  const standards: DiscernGateStandard[] = evidence.standards.map((s) =>
    s.measurement === 'measured' || s.measurement === 'replayed'
      ? { ...s, measurement: 'replayed', replayed_from: s.replayed_from ?? evidence.commit }
      : s,
  );
  // The checkout facts are the recorded run's (a sparse checkout, unverified modes), not this checkout's.
  const ranIn: CheckoutFacts = {
    ...(evidence.sparse_patterns ? { sparse: evidence.sparse_patterns } : {}),
    modesCompared: evidence.file_modes !== 'unverified',
  };
  const summary = summaryFor(run, 'strict', await stats, evidence.producers, standards, evidence.commit, ranIn);
  const recorded = await writeProof(run, summary, evidence.producers, standards, handle, base.scopes_changed);
  return {
    steps,
    data: {
      ...base,
      gate_ran: false,
      failed_stage: null,
      proof: summary,
      ...(standards.length > 0 ? { standards } : {}),
      replayed_from: evidence.commit,
      producer_executions: {},
      ...recordedProof(run, summary, recorded),
    },
    held: ['gate-finish'],
    hints: [
      `This commit's tree and config are identical to the proven commit ${evidence.commit.slice(0, 12)}: its evidence was replayed without running a job. Relay the Proof line verbatim.`,
    ],
    ...(recorded.advisory ? { advisories: [recorded.advisory] } : {}),
  };
}

/** A neutral change: the preconditions and checkpoints held and no job was needed; its Proof says so. */
export async function recordNeutral(
  run: DoneRun,
  scopes: readonly string[],
  steps: DiscernStep[],
  base: Omit<DiscernDoneData, 'gate_ran' | 'failed_stage'>,
  handle: string | undefined,
  stats: Promise<DiffStats>,
): Promise<DoneOutcome> {
  const summary = summaryFor(run, 'strict', await stats, [], [], undefined, run.checkoutFacts, scopes);
  const recorded = await writeProof(run, summary, [], [], handle, base.scopes_changed);
  return {
    steps,
    data: {
      ...base,
      gate_ran: false,
      failed_stage: null,
      gate_skipped: { reason: 'neutral', scopes: [...scopes] },
      proof: summary,
      producer_executions: {},
      ...recordedProof(run, summary, recorded),
    },
    held: ['gate-finish'],
    hints: [
      `Every path this change touches is in a neutral scope of the trunk's discern.toml (${scopes.join(', ')}): no job was needed. Relay the Proof line verbatim.`,
    ],
    ...(recorded.advisory ? { advisories: [recorded.advisory] } : {}),
  };
}

/** What a recorded Proof adds to done's data: where the marker went (or why not), and a complete completion. */
function recordedProof(
  run: DoneRun,
  summary: DiscernProofSummary,
  recorded: { advisory?: DoneAdvisory },
): Pick<DiscernDoneData, 'gate_proof' | 'completion'> {
  return {
    gate_proof: recorded.advisory
      ? { status: 'record_failed', path: run.paths.proofMarker, reason: recorded.advisory.evidence.join('; ') }
      : { status: 'recorded', path: run.paths.proofMarker },
    completion: {
      kind: 'complete',
      ...(summary.proof_id ? { proof_id: summary.proof_id } : {}),
      pending_reasons: [],
    },
  };
}

function summaryFor(
  run: DoneRun,
  mode: 'strict' | 'report',
  stats: DiffStats,
  producers: readonly ProducerVerdict[],
  standards: readonly DiscernGateStandard[],
  replayedFrom?: string,
  checkout: CheckoutFacts | undefined = run.checkoutFacts,
  neutralScopes?: readonly string[],
): DiscernProofSummary {
  return buildProofSummary({
    branch: run.branch,
    trunk: run.base,
    commit: run.head.commit,
    tree: run.key.tree,
    configDigest: run.key.configDigest,
    version: run.key.version,
    mode,
    stats,
    producers,
    standards,
    recordedAt: new Date().toISOString(),
    ...(replayedFrom ? { replayedFrom } : {}),
    ...(neutralScopes ? { neutralScopes } : {}),
    ...(run.checkpoints?.proof
      ? { checkpoints: run.checkpoints.proof, checkpointsIdentity: run.checkpoints.identity }
      : {}),
    ...(run.standardProposals && run.standardProposals.length > 0 ? { standardProposals: run.standardProposals } : {}),
    ...(checkout?.sparse ? { sparse: checkout.sparse } : {}),
    ...(checkout && !checkout.modesCompared ? { fileModesUnverified: true } : {}),
  });
}

/** The report's marker for HEAD, unless a strict one for the same commit, tree and config stands. */
async function writeReportMarker(
  run: DoneRun,
  summary: DiscernProofSummary,
  producers: readonly ProducerVerdict[],
  standards: readonly DiscernGateStandard[],
  handle: string | undefined,
  scopesChanged: readonly string[],
): Promise<'written' | 'strict_kept' | 'failed'> {
  const existing = await readProofMarker(run.paths.proofMarker, run.paths.commonDir);
  if (
    existing.state === 'present' &&
    existing.marker.mode === 'strict' &&
    markerIsCurrent(
      existing.marker,
      run.head.commit,
      configIdentity(run.ctx.project.config, run.ctx.project.trunk.name),
      run.key.version,
    )
  )
    return 'strict_kept';
  const written = await writeProofMarker(
    run.paths.proofMarker,
    markerRecord(run, summary, producers, standards, handle, scopesChanged, 'report'),
    run.paths.commonDir,
  ).then(
    () => 'written' as const,
    () => 'failed' as const,
  );
  return written;
}

/** The marker file's record: the Proof and what it was judged under. */
function markerRecord(
  run: DoneRun,
  summary: DiscernProofSummary,
  producers: readonly ProducerVerdict[],
  standards: readonly DiscernGateStandard[],
  handle: string | undefined,
  scopesChanged: readonly string[],
  mode: 'strict' | 'report',
): Parameters<typeof writeProofMarker>[1] {
  return {
    format: RECORD_FORMAT,
    commit: run.head.commit,
    tree: run.key.tree,
    config_digest: run.key.configDigest,
    discern_version: run.key.version,
    config_canonical: configIdentity(run.ctx.project.config, run.ctx.project.trunk.name),
    ...(run.policy
      ? {
          policy_digest: run.policy.digest,
          ...(run.policy.trunkTip ? { policy_trunk_tip: run.policy.trunkTip } : {}),
          ...(run.policy.changes.length > 0 ? { policy_changes: run.policy.changes } : {}),
        }
      : {}),
    mode,
    recorded_at: summary.recorded_at,
    ...(handle ? { handle } : {}),
    proof: summary,
    markdown: proofMarkdown(summary, producers, standards),
    producers: [...producers],
    standards: [...standards],
    scopes_changed: [...scopesChanged],
    ...(run.checkpoints ? { checkpoint_declarations: run.checkpoints.identity } : {}),
  };
}

async function writeProof(
  run: DoneRun,
  summary: DiscernDoneData['proof'] & object,
  producers: readonly ProducerVerdict[],
  standards: readonly DiscernGateStandard[],
  handle: string | undefined,
  scopesChanged: readonly string[],
): Promise<{ advisory?: DoneAdvisory }> {
  const now = summary.recorded_at;
  const identity = { tree: run.key.tree, config_digest: run.key.configDigest, discern_version: run.key.version };
  const green = {
    format: RECORD_FORMAT,
    commit: summary.replayed_from ?? run.head.commit,
    ...identity,
    recorded_at: now,
    producers: [...producers],
    standards: [...standards],
    // How the checkout presented the commit to the jobs: a replay elsewhere reports what ran.
    ...(summary.sparse_patterns ? { sparse_patterns: summary.sparse_patterns } : {}),
    ...(summary.file_modes ? { file_modes: summary.file_modes } : {}),
  };
  // Three files with nothing in common, written at once. Evidence and the last-run verdict are conveniences
  // (replay, refusal of a re-run): losing them costs a re-run. The marker is the Proof a later call reuses.
  const [marker] = await Promise.all([
    writeProofMarker(
      run.paths.proofMarker,
      markerRecord(run, summary, producers, standards, handle, scopesChanged, 'strict'),
      run.paths.commonDir,
    ).then(
      () => undefined,
      (error: unknown) => error,
    ),
    writeEvidence(run.paths.evidence, green).catch(() => undefined),
    writeLastRun(
      run.paths.lastRun,
      {
        format: RECORD_FORMAT,
        commit: run.head.commit,
        ...identity,
        verdict: 'green',
        failed_stage: null,
        at: now,
        ...(handle ? { handle } : {}),
      },
      run.paths.commonDir,
    ).catch(() => undefined),
  ]);
  if (marker !== undefined) {
    return {
      advisory: {
        kind: 'proof-recording-unavailable',
        evidence: [
          `the Proof marker ${run.paths.proofMarker} could not be written (${marker instanceof Error ? marker.message : String(marker)})`,
        ],
        next_action:
          'The Proof in this result stands for this commit; make the git directory writable so the next done can reuse it instead of running again.',
      },
    };
  }
  return {};
}

async function recordStandardValues(run: DoneRun, gateRun: GateRun): Promise<void> {
  const updates: Record<string, Measurement> = {};
  let listing: string | undefined;
  for (const r of gateRun.runs) {
    const def = r.producer.standard;
    if (!def || !r.standard?.ok || r.outcome !== 'ok') continue;
    listing ??= await lsTree(run.ctx.project.root, run.ctx.env).catch(() => undefined);
    const digest =
      def.inputs && listing !== undefined
        ? await inputsDigest(def.inputs, run.ctx.project.root, run.ctx.env, listing)
        : undefined;
    updates[def.name] = {
      value: r.standard.value,
      definition_digest: definitionDigest(def),
      inputs_digest: digest ?? '',
      commit: run.head.commit,
      measured_at: new Date().toISOString(),
    };
  }
  if (Object.keys(updates).length > 0)
    await recordMeasurements(run.paths.standardMeasurements, updates).catch(() => undefined);
}

export type { Evidence };
