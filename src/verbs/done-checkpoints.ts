// done's checkpoint stage: after the preconditions and before any project job. Strict: the declarations this call
// gives are recorded (bound to each question's definition and subject), then an open stop question with no
// current declaration refuses awaiting_declaration; advise questions are only reported. Report (ci,
// standalone): every question is reviewed, nothing is recorded or enforced. What was declared becomes part of
// the Proof (docs/decisions/0028).
import type { GitResult } from '../engine/git/git.js';
import type { DoneOutcome } from '../../generated/handlers.js';
import type { DiscernDoneData, DiscernStep } from '../../generated/types.js';
import {
  declarationsIdentity,
  evaluateCheckpointsAt,
  outstandingLines,
  proofCheckpoints,
  readStore,
  recordDeclarations,
  syncStore,
  reviewQuestions,
  unknownDeclarations,
  type CheckpointEvaluation,
  type Declarations,
  type QuestionStore,
  type Review,
} from '../engine/checkpoints/index.js';
import type { DoneAdvisory, DoneCheckpointFacts } from './done-facts.js';
import type { ProjectVerbContext } from './context.js';

/** HEAD's checkpoints, under the config at its merge-base with `baseRef`. */
export function evaluateForDone(
  ctx: ProjectVerbContext,
  baseRef: string,
  headMergeBase?: Promise<GitResult>,
  mergeBaseConfig?: Promise<GitResult | undefined>,
  dryRun = false,
): Promise<CheckpointEvaluation> {
  const { project } = ctx;
  return evaluateCheckpointsAt({
    run: {
      cwd: project.root,
      env: ctx.env,
      signal: ctx.signal,
      ...(headMergeBase ? { headMergeBase } : {}),
      ...(mergeBaseConfig ? { mergeBaseConfig } : {}),
    },
    revision: 'HEAD',
    trunkRef: baseRef,
    workingConfig: project.config,
    root: project.root,
    // A dry run shows the plan and runs nothing of the project's, a checkpoint's when command included.
    runWhen: !dryRun,
  });
}

/** Whether the call's declarations name questions this change raises; a refusal when they do not. */
export function declarationRefusal(
  ctx: ProjectVerbContext,
  evaluation: CheckpointEvaluation,
  declarations: Declarations,
): DoneOutcome | undefined {
  if (declarations.met.length + declarations.unmet.length === 0) return undefined;
  const rerun = ctx.surface === 'mcp' ? 'discern_done' : 'discern done';
  if (!evaluation.evaluated) {
    return {
      refusal: {
        error: 'checkpoint_evidence_unavailable',
        message: `Checkpoint declarations cannot be recorded: ${evaluation.drops[0]?.reason ?? 'the change could not be read'}.`,
        next: { rerun },
      },
    };
  }
  const unknown = unknownDeclarations(declarations, evaluation);
  if (unknown === undefined) return undefined;
  return {
    refusal: {
      error: 'invalid_value',
      message: `Nothing was recorded: ${unknown}`,
      next: {
        help:
          ctx.surface === 'mcp'
            ? 'discern_checkpoints (the questions and their ids)'
            : '`discern checkpoints` (the questions and their ids)',
      },
    },
  };
}

/** Whether anything about checkpoints belongs in the result: a checkpoint governs, or evidence was dropped. */
export function hasCheckpoints(evaluation: CheckpointEvaluation): boolean {
  return evaluation.results.length > 0 || evaluation.drops.length > 0;
}

export function checkpointData(
  evaluation: CheckpointEvaluation,
  review: Review,
  policy: 'strict' | 'report',
): NonNullable<DiscernDoneData['checkpoints']> {
  return {
    policy,
    config: evaluation.source,
    ...(policy === 'strict' && review.outstanding.length > 0 ? { outstanding: review.outstanding } : {}),
    ...(review.declaredMet.length > 0 ? { declared_met: review.declaredMet } : {}),
    ...(review.declaredUnmet.length > 0 ? { declared_unmet: review.declaredUnmet } : {}),
    ...(review.advise.length > 0 ? { advise: review.advise } : {}),
    ...(policy === 'report' && review.questions.length > 0 ? { review: review.questions } : {}),
    ...(review.drops.length > 0 ? { drops: review.drops } : {}),
  };
}

export function dropAdvisories(review: Review): DoneAdvisory[] {
  if (review.drops.length === 0) return [];
  const [first, ...rest] = review.drops.map((d) => `${d.checkpoint ? `${d.checkpoint}: ` : ''}${d.reason}`);
  return [
    {
      kind: 'checkpoint-evidence-dropped',
      evidence: [first ?? '', ...rest],
      next_action:
        "Read the evidence: each dropped checkpoint did not fire (it fails open). Fix what it names — often the merge-base's discern.toml or a question file — to have it judged.",
    },
  ];
}

export interface Settled {
  review: Review;
  data?: NonNullable<DiscernDoneData['checkpoints']>;
  step?: DiscernStep;
  facts: DoneCheckpointFacts;
  /** Set when an open stop question waits for a declaration. */
  refusal?: { message: string; next: { call: string } };
}

/**
 * The checkpoint stage of a strict or report run: records (strict), reviews, and decides. `record` is false for
 * report runs and dry runs, which look at the store without writing it.
 */
export async function settleCheckpoints(
  ctx: ProjectVerbContext,
  evaluation: CheckpointEvaluation,
  declarations: Declarations,
  policy: 'strict' | 'report',
  record: boolean,
): Promise<Settled> {
  const gitDir = ctx.project.gitDir;
  let store: QuestionStore;
  if (record && evaluation.evaluated) {
    try {
      store = await recordDeclarations(gitDir, evaluation, declarations);
    } catch {
      // The record is what a later call reads the declarations back from: without it, nothing declared here
      // would count. Declarations made in this call still answer this call (applied in memory; the Proof this
      // run records then reads as stale to the next call, which judges the change again).
      store = syncStore(await readStore(gitDir), evaluation, declarations, new Date().toISOString());
    }
  } else store = await readStore(gitDir);
  const review = reviewQuestions(evaluation, store);
  const present = hasCheckpoints(evaluation);
  const proof = proofCheckpoints(review);
  const facts: DoneCheckpointFacts = { ...(proof ? { proof } : {}), identity: declarationsIdentity(store) };
  if (!present) return { review, facts };
  const data = checkpointData(evaluation, review, policy);
  const blocking = policy === 'strict' ? review.outstanding : [];
  const step: DiscernStep = {
    kind: 'checkpoints-check',
    label: 'checkpoints',
    disposition: 'gate',
    note: `${review.questions.length} question${review.questions.length === 1 ? '' : 's'} raised, ${blocking.length} awaiting a declaration`,
    outcome: blocking.length > 0 ? 'failed' : 'ok',
    duration_s: 0,
  };
  if (blocking.length === 0) return { review, data, step, facts };
  const call = ctx.surface === 'mcp' ? 'discern_done' : '`discern done` (`--met <id>`, `--unmet <id> --why <text>`)';
  return {
    review,
    data,
    step,
    facts,
    refusal: {
      message: `${blocking.length === 1 ? 'A checkpoint question waits' : `${blocking.length} checkpoint questions wait`} for a declaration before the gate runs: ${outstandingLines(blocking)}. Answer in the same call: met for a question that holds, unmet with why for one that does not.`,
      next: { call },
    },
  };
}
