// The facts every part of done shares, and the small wordings they all use: its own module, so that done,
// the gate run and the records it writes depend on it rather than on each other.
import type { CompiledScope } from '../engine/scopes/index.js';
import type { DoneAdvisoryKind } from '../../generated/handlers.js';
import type {
  DiscernAdvisory,
  DiscernDoneData,
  DiscernDoneInput,
  DiscernFailedStage,
  DiscernProofCheckpoints,
  DiscernStandardProposal,
  DiscernPolicyChange,
} from '../../generated/types.js';
import type { Declarations } from '../engine/checkpoints/store.js';
import type { EvidenceKey } from '../engine/gate/proof-records.js';
import type { GateStatePaths } from '../engine/gate/state-paths.js';
import type { GitResult } from '../engine/git/git.js';
import type { HeadIds } from '../engine/git/head.js';
import type { ProjectVerbContext } from './context.js';

export interface DoneRun {
  input: DiscernDoneInput;
  ctx: ProjectVerbContext;
  paths: GateStatePaths;
  key: EvidenceKey;
  head: HeadIds;
  branch: string | null;
  mode: 'strict' | 'report';
  standalone: boolean;
  /** The trunk, or policy_base in a hosted report, as named to people. */
  base: string;
  /** The same as git is given it: refs/heads/<trunk>, or policy_base as passed. */
  baseRef: string;
  rerunCall: string;
  /** The checkpoint declarations this call gives (recorded by a strict run). */
  declarations: Declarations;
  /** The untracked paths, when the status done read listed none (the change set need not list them again). */
  untracked?: readonly string[];
  /** Reads the verb started beside its status, before it was certain the gate runs. */
  early?: EarlyGateReads;
  /** What the checkpoint stage settled, for the Proof: set once it ran. */
  checkpoints?: DoneCheckpointFacts;
  /** The recorded proposals the loosened standards passed under, once the preconditions established them. */
  standardProposals?: DiscernStandardProposal[];
  /** The trunk's policy the change was judged under, once read: the marker records its digest. */
  policy?: JudgedPolicy;
  /** How the checkout presented the commit to the jobs, for the Proof: set once the index flags were read. */
  checkoutFacts?: CheckoutFacts;
}

export interface CheckoutFacts {
  /** The sparse-checkout patterns' digest and mode, in a sparse checkout. */
  sparse?: { digest: string; cone: boolean };
  /** Whether file modes were compared (the filesystem keeps exec bits). */
  modesCompared: boolean;
}

export interface JudgedPolicy {
  /** policyDigest of the trunk's discern.toml at trunkTip (NO_POLICY_DIGEST without one). */
  digest: string;
  trunkTip?: string;
  changes: DiscernPolicyChange[];
  /** The trunk's [scopes], compiled: what judges whether a change is neutral (never the change's own file). */
  trunkScopes?: CompiledScope[];
  /** The trunk's [acceptance] pre_authorized: with trunkScopes, the landing authority a green done reports. */
  trunkPreAuthorized?: string[];
}

export interface EarlyGateReads {
  /** `git merge-base <baseRef> HEAD`. */
  headMergeBase: Promise<GitResult>;
  /** `git ls-files -v -z`, for the files hidden from status (not read for a standalone run). */
  indexFlags?: Promise<GitResult>;
}

export interface DoneCheckpointFacts {
  /** What the Proof records, when anything. */
  proof?: DiscernProofCheckpoints;
  /** The declarations the Proof marker is bound to (declarationsIdentity). */
  identity: string;
}

export type DoneAdvisory = DiscernAdvisory & { kind: DoneAdvisoryKind };

export function readBack(ctx: Pick<ProjectVerbContext, 'surface'>, handle?: string): string {
  if (ctx.surface === 'mcp') return handle ? `discern_progress with handle "${handle}"` : 'discern_progress';
  return handle ? `discern progress ${handle}` : 'discern progress';
}

export function stageName(stage: DiscernFailedStage | null): string {
  return stage === null ? 'an unknown stage' : `the ${stage} stage`;
}

export function pendingCompletion(reason: string): NonNullable<DiscernDoneData['completion']> {
  return { kind: 'pending', pending_reasons: [reason], pending: [{ kind: 'gate', reason }] };
}
