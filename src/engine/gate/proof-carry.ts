// Carries a commit's Proof forward to the commit `discern standards --pin` makes on top of it
// (docs/decisions/0027-standards-verbs.md). The pin commit's tree differs only in discern.toml, and its
// configuration only in [standards] limits, each moved to a value the fresh measurement clears by its margin;
// every job's verdict on the previous tree therefore stands for this one. The carry is checked, not assumed:
//   - the previous commit held current, strict Proof (marker commit, configuration and discern version), and it
//     did not pass under standards proposals (those are bound to that commit);
//   - the pin commit's only changed path is discern.toml, and its configuration equals the previous one with the
//     pinned limits substituted;
//   - every standard clears its new limit.
// Then the pin commit gets its own marker (its tree, configuration digest and identity, `carried_from` naming the
// previous commit), evidence for its (tree, configuration) and a green last-run record, so the next done reuses
// it instead of running the gate. Anything else: not carried, with the reason, and done runs on the pin commit.
import type { DiscernConfig, DiscernGateStandard, DiscernProofSummary } from '../../../generated/types.js';
import { VERSION } from '../../../generated/version.js';
import type { StandardDefinition } from '../config/standards.js';
import { git } from '../git/git.js';
import type { HeadIds } from '../git/head.js';
import { canonicalJson, configIdentity } from './canonical-json.js';
import { configDigest } from './config-digest.js';
import {
  markerIsCurrent,
  readProofMarker,
  RECORD_FORMAT,
  writeEvidence,
  writeLastRun,
  writeProofMarker,
  type ProofMarker,
} from './proof-records.js';
import { buildProofSummary, diffStatsAgainst, proofMarkdown } from './proof-summary.js';
import type { GateStatePaths } from './state-paths.js';
import { verdictOf } from './standard-verdict.js';
import type { PinChange } from './pin-plan.js';
import { localBranchTip } from '../git/local-branch.js';
import { policyDigest } from '../policy/view.js';

type Env = Readonly<Record<string, string | undefined>>;

export interface CarryInput {
  root: string;
  env: Env;
  paths: GateStatePaths;
  trunk: string;
  branch: string | null;
  before: HeadIds;
  after: HeadIds;
  /** The configuration the previous commit was proven under, and the pin commit's as done will load it. */
  beforeConfig: DiscernConfig;
  afterConfig: DiscernConfig;
  /** The standards as measured just now on the previous commit (their limits before the pin). */
  measured: readonly DiscernGateStandard[];
  definitions: readonly StandardDefinition[];
  pins: readonly PinChange[];
  handle?: string;
}

export type Carry = { status: 'carried'; proof: DiscernProofSummary } | { status: 'not_carried'; reason: string };

export async function carryProof(c: CarryInput): Promise<Carry> {
  const read = await readProofMarker(c.paths.proofMarker, c.paths.commonDir);
  const beforeIdentity = configIdentity(c.beforeConfig, c.trunk);
  if (
    read.state !== 'present' ||
    read.marker.mode !== 'strict' ||
    !markerIsCurrent(read.marker, c.before.commit, beforeIdentity, VERSION)
  ) {
    return { status: 'not_carried', reason: `${c.before.commit.slice(0, 12)} held no current Proof to carry` };
  }
  const marker = read.marker;
  // A neutral Proof ran no job: the pin commit changes discern.toml, which no neutral judgment covered.
  if (marker.proof.gate_skipped !== undefined)
    return {
      status: 'not_carried',
      reason: `the Proof of ${c.before.commit.slice(0, 12)} ran no job (a neutral change); the pin commit is judged on its own`,
    };
  if ((marker.proof.standard_proposals ?? []).length > 0) {
    return {
      status: 'not_carried',
      reason: `the Proof of ${c.before.commit.slice(0, 12)} passed under standards proposals bound to that commit (propose again on the pin commit if the loosening still stands)`,
    };
  }
  // Checkpoints are judged per change, and the pin commit changes discern.toml (a path a checkpoint may govern):
  // carrying Proof past that judgment could land a question nobody answered, so done judges the pin commit.
  const checkpointsGovern =
    Object.keys(c.beforeConfig.checkpoints ?? {}).length > 0 || Object.keys(c.afterConfig.checkpoints ?? {}).length > 0;
  const declared =
    (marker.proof.checkpoints?.declared_met?.length ?? 0) + (marker.proof.checkpoints?.declared_unmet?.length ?? 0);
  if (checkpointsGovern || declared > 0) {
    return {
      status: 'not_carried',
      reason:
        'this project has [checkpoints], which are judged for every change (the pin commit changes discern.toml): `discern done` judges and proves the pin commit',
    };
  }
  const changed = await git(['diff', '--name-only', '-z', '--no-renames', c.before.commit, c.after.commit], {
    cwd: c.root,
    env: c.env,
  });
  const paths = changed.stdout.split('\0').filter((p) => p.length > 0);
  if (changed.code !== 0 || paths.length !== 1 || paths[0] !== 'discern.toml') {
    return {
      status: 'not_carried',
      reason: `the pin commit changes ${paths.length === 0 ? 'nothing' : paths.join(', ')}, not discern.toml alone (a commit hook may have added files)`,
    };
  }
  if (canonicalJson(withLimits(c.beforeConfig, c.pins)) !== canonicalJson(c.afterConfig)) {
    return {
      status: 'not_carried',
      reason: "the pin commit's discern.toml differs from the previous one in more than the pinned limits",
    };
  }

  const pinned = new Map(c.pins.map((p) => [p.name, p]));
  const fresh = new Map(
    c.measured.filter((s) => s.measurement === 'measured' && s.value !== undefined).map((s) => [s.name, s]),
  );
  const standards: DiscernGateStandard[] = marker.standards.map((s) => {
    const limit = pinned.get(s.name)?.to ?? s.limit;
    const def = c.definitions.find((d) => d.name === s.name);
    const now = fresh.get(s.name);
    const value = now?.value ?? s.value;
    if (value === undefined || def === undefined) return { ...s, limit };
    // The value measured on this very tree just now, judged against the limit the pin commit sets.
    const { pin_target: _t, pin_eligible: _e, verdict: _v, ...rest } = now ?? s;
    const judged = verdictOf({ ...def, limit }, value);
    return {
      ...rest,
      limit,
      value,
      verdict: judged.verdict,
      pin_eligible: judged.pin_eligible,
      ...(judged.pin_target !== undefined ? { pin_target: judged.pin_target } : {}),
    };
  });
  const regressed = standards.filter((s) => s.verdict === 'regressed').map((s) => s.name);
  if (regressed.length > 0)
    return {
      status: 'not_carried',
      reason: `${regressed.join(', ')} would not clear the pinned limit with its recorded value`,
    };

  const digest = configDigest(c.afterConfig, c.trunk);
  const recordedAt = new Date().toISOString();
  const stats = await diffStatsAgainst(`refs/heads/${c.trunk}`, c.root, c.env);
  const proof = buildProofSummary({
    branch: c.branch,
    trunk: marker.proof.trunk,
    commit: c.after.commit,
    tree: c.after.tree,
    configDigest: digest,
    version: VERSION,
    mode: 'strict',
    stats,
    producers: marker.producers,
    standards,
    recordedAt,
    carriedFrom: c.before.commit,
    // The jobs ran where the marker says: a sparse checkout and unverified modes carry over with the verdicts.
    ...(marker.proof.sparse_patterns ? { sparse: marker.proof.sparse_patterns } : {}),
    ...(marker.proof.file_modes === 'unverified' ? { fileModesUnverified: true } : {}),
  });
  const identity = { tree: c.after.tree, config_digest: digest, discern_version: VERSION };
  try {
    await writeProofMarker(
      c.paths.proofMarker,
      {
        format: RECORD_FORMAT,
        commit: c.after.commit,
        ...identity,
        config_canonical: configIdentity(c.afterConfig, c.trunk),
        ...(await carriedPolicy(c, marker)),
        mode: 'strict',
        recorded_at: recordedAt,
        ...(c.handle ? { handle: c.handle } : {}),
        proof,
        markdown: proofMarkdown(proof, marker.producers, standards),
        producers: marker.producers,
        standards,
        ...(marker.scopes_changed ? { scopes_changed: marker.scopes_changed } : {}),
      },
      c.paths.commonDir,
    );
  } catch (error) {
    return {
      status: 'not_carried',
      reason: `the Proof marker ${c.paths.proofMarker} could not be written (${error instanceof Error ? error.message : String(error)})`,
    };
  }
  // Conveniences, as done keeps them: evidence lets another checkout with this tree and configuration replay
  // (naming the commit the jobs ran on), the last run records the verdict on this tree.
  await writeEvidence(c.paths.evidence, {
    format: RECORD_FORMAT,
    ...identity,
    commit: c.before.commit,
    recorded_at: recordedAt,
    producers: marker.producers,
    standards,
    ...(proof.sparse_patterns ? { sparse_patterns: proof.sparse_patterns } : {}),
    ...(proof.file_modes ? { file_modes: proof.file_modes } : {}),
  }).catch(() => undefined);
  await writeLastRun(
    c.paths.lastRun,
    {
      format: RECORD_FORMAT,
      commit: c.after.commit,
      ...identity,
      verdict: 'green',
      failed_stage: null,
      at: recordedAt,
      ...(c.handle ? { handle: c.handle } : {}),
    },
    c.paths.commonDir,
  ).catch(() => undefined);
  return { status: 'carried', proof };
}

/**
 * The trunk's policy the pin commit stands under. Pinned on the trunk itself, the pin commit is the trunk's new tip
 * and its configuration the policy; on an effort's branch the trunk has not moved, so it is the previous commit's.
 */
async function carriedPolicy(
  c: CarryInput,
  marker: ProofMarker,
): Promise<Pick<ProofMarker, 'policy_digest' | 'policy_trunk_tip' | 'policy_changes'>> {
  const tip = await localBranchTip(c.paths.commonDir, c.trunk, { cwd: c.root, env: c.env });
  if (tip === c.after.commit) return { policy_digest: policyDigest(c.afterConfig), policy_trunk_tip: tip };
  return {
    ...(marker.policy_digest !== undefined ? { policy_digest: marker.policy_digest } : {}),
    ...(marker.policy_trunk_tip !== undefined ? { policy_trunk_tip: marker.policy_trunk_tip } : {}),
    ...(marker.policy_changes !== undefined ? { policy_changes: marker.policy_changes } : {}),
  };
}

/** The configuration with each pinned limit substituted: what the pin commit's must equal. */
function withLimits(config: DiscernConfig, pins: readonly PinChange[]): unknown {
  const copy = JSON.parse(JSON.stringify(config)) as { standards?: Record<string, { limit?: number }> };
  for (const pin of pins) {
    const table = copy.standards?.[pin.name];
    if (table) table.limit = pin.to;
  }
  return copy;
}
