// accept's checkpoint judgment (docs/decisions/0028), kept apart from the landing transaction in accept.ts:
//   - declarations a call gives for the effort's own change are recorded in the effort's checkout (its Proof
//     then goes stale, and the gate replays it with them);
//   - a stop checkpoint the Proof carries as unmet lands only with the owner's variance (variance + confirmed,
//     or the owner's own --grant at the CLI), recorded in the landing's Proof note;
//   - when the trunk moved, the composed change is judged under the trunk's config: a stop question it raises
//     that no declaration answers keeps the composition and serves a composition_receipt; the follow-up call
//     names it with met/unmet (and a variance, when one is unmet) and the same landing continues.
import { join } from 'node:path';
import type { AcceptErrorSlug, AcceptOutcome } from '../../generated/handlers.js';
import type { Refusal } from '../core/outcome.js';
import type {
  DiscernDiagnostic,
  DiscernStep,
  DiscernAcceptData,
  DiscernAcceptInput,
  DiscernCheckpointUnmet,
  DiscernProofCheckpoints,
} from '../../generated/types.js';
import { loadConfig } from '../engine/config/load.js';
import {
  declarationsFrom,
  evaluateCheckpointsAt,
  outstandingLines,
  readStore,
  recordDeclarations,
  reviewQuestions,
  stateOf,
  syncStore,
  unknownDeclarations,
  variancesNeeded,
  writeStore,
  type CheckpointEvaluation,
  type Declarations,
  type QuestionStore,
} from '../engine/checkpoints/index.js';
import { compositionReceipt } from '../engine/acceptance/compositions.js';
import type { Effort } from '../engine/acceptance/efforts.js';
import { git } from '../engine/git/git.js';
import type { DiscernConfig } from '../../generated/types.js';
import type { ProjectVerbContext } from './context.js';

/** A refused landing's facts: the refusal, with the data, steps and diagnostics so far, and never a plan. */
export interface AcceptRefused {
  data?: DiscernAcceptData;
  steps?: DiscernStep[];
  diagnostics?: DiscernDiagnostic[];
  refusal: Refusal<AcceptErrorSlug>;
}

export type Variance = NonNullable<DiscernAcceptData['variances']>[number];

export interface CallDeclarations {
  declarations: Declarations;
  given: boolean;
}

function acceptCall(ctx: ProjectVerbContext): string {
  return ctx.surface === 'mcp' ? 'discern_accept' : '`discern accept` (`--met <id>`, `--unmet <id> --why <text>`)';
}

/** The effort's own discern.toml (it governs only when the merge-base's cannot be read); the caller's otherwise. */
export async function effortConfig(effort: Effort, ctx: ProjectVerbContext): Promise<DiscernConfig> {
  const loaded = await loadConfig(join(effort.path, 'discern.toml')).catch(() => undefined);
  return loaded?.ok ? loaded.config : ctx.project.config;
}

/**
 * Reads the call's declarations. Without a composition_receipt they answer the effort's own questions and are
 * recorded in its checkout now, before its Proof is looked at; with one they are for the composed result and wait
 * for the composition.
 */
export async function recordEffortDeclarations(
  input: DiscernAcceptInput,
  effort: Effort,
  head: string,
  ctx: ProjectVerbContext,
): Promise<CallDeclarations | { refusal: AcceptOutcome }> {
  const help = ctx.surface === 'mcp' ? 'the inputSchema of discern_accept in tools/list' : '`discern help accept`';
  const parsed = declarationsFrom(input);
  if (!parsed.ok)
    return { refusal: { refusal: { error: 'invalid_arguments', message: parsed.message, next: { help } } } };
  if (!parsed.given || input.composition_receipt !== undefined)
    return { declarations: parsed.declarations, given: parsed.given };
  const evaluation = await evaluateCheckpointsAt({
    run: { cwd: effort.path, env: ctx.env, signal: ctx.signal },
    revision: head,
    trunkRef: `refs/heads/${ctx.project.trunk.name}`,
    workingConfig: await effortConfig(effort, ctx),
    root: effort.path,
  });
  const unknown = unknownDeclarations(parsed.declarations, evaluation);
  if (unknown !== undefined)
    return {
      refusal: { refusal: { error: 'invalid_value', message: `Nothing was recorded: ${unknown}`, next: { help } } },
    };
  await recordDeclarations(effort.gitDir, evaluation, parsed.declarations);
  return { declarations: parsed.declarations, given: true };
}

/** Whether the owner's decision is in this call: a variance with consent given here, or the owner's own grant. */
function ownerDecided(input: DiscernAcceptInput): boolean {
  return input.variance !== undefined && (input.confirmed === true || input.grant === true);
}

/** The effort's unmet stop questions need the owner's variance; the variances this landing records, or why not. */
export function effortVariances(
  input: DiscernAcceptInput,
  proof: { checkpoints?: DiscernProofCheckpoints },
  ctx: ProjectVerbContext,
  base: DiscernAcceptData,
): { variances: Variance[] } | { refusal: AcceptRefused } {
  const needed = variancesNeeded(proof.checkpoints);
  if (needed.length === 0) {
    if (input.variance !== undefined && input.composition_receipt === undefined) {
      return {
        refusal: {
          data: base,
          refusal: {
            error: 'invalid_value',
            message:
              'variance was given, but no stop checkpoint of this change is declared unmet: there is nothing for the owner to vary. Call again without it.',
            next: {
              help: ctx.surface === 'mcp' ? 'the inputSchema of discern_accept in tools/list' : '`discern help accept`',
            },
          },
        },
      };
    }
    return { variances: [] };
  }
  if (!ownerDecided(input)) return { refusal: awaitingVariance(ctx, base, needed) };
  return {
    variances: needed.map((u) => ({
      checkpoint: u.id,
      definition_hash: u.definition_hash,
      subject: u.subject,
      why: input.variance ?? '',
    })),
  };
}

function awaitingVariance(
  ctx: ProjectVerbContext,
  base: DiscernAcceptData,
  needed: readonly DiscernCheckpointUnmet[],
  extra: Partial<DiscernAcceptData> = {},
  receipt?: string,
): AcceptRefused {
  const call =
    ctx.surface === 'mcp'
      ? receipt
        ? `discern_accept (naming composition_receipt "${receipt}")`
        : 'discern_accept'
      : `\`discern accept\` (\`--variance <rationale> --confirmed${receipt ? ` --composition-receipt ${receipt}` : ''}\`)`;
  return {
    data: { ...base, variances_required: [...needed], ...extra },
    refusal: {
      error: 'awaiting_variance',
      message: `${needed.length === 1 ? 'A stop checkpoint is' : `${needed.length} stop checkpoints are`} declared unmet: ${needed.map((u) => `${u.id} (“${u.why}”)`).join('; ')}. Landing it needs the owner's variance: ask the owner, then call again with variance (their rationale) and confirmed.`,
      next: { call },
    },
  };
}

export interface Composition {
  effort: Effort;
  head: string;
  trunk: string;
  trunkTip: string;
  commit: string;
  integration: { path: string; branch: string };
}

export type CompositionJudgment =
  | { proceed: true; receipt: string; variances: Variance[]; questions: string[] }
  /** Keep the composition (its record is the caller's to write) and refuse with `outcome`. */
  | { proceed: false; keep: boolean; receipt: string; questions: string[]; outcome: AcceptRefused };

/**
 * The composed change judged under the trunk's config. Declarations the effort already made carry over when
 * they answer the very same question (same definition, same files' contents); answers given with the matching
 * receipt are recorded in the integration worktree, where the gate then finds them.
 */
export async function judgeComposition(
  input: DiscernAcceptInput,
  c: Composition,
  call: CallDeclarations,
  effortGranted: readonly Variance[],
  ctx: ProjectVerbContext,
  base: DiscernAcceptData,
): Promise<CompositionJudgment> {
  const env = ctx.env;
  const evaluation = await evaluateCheckpointsAt({
    run: { cwd: c.integration.path, env, signal: ctx.signal },
    revision: c.commit,
    trunkRef: `refs/heads/${c.trunk}`,
    workingConfig: await effortConfig(c.effort, ctx),
    root: c.integration.path,
  });
  const stopKeys = evaluation.results
    .filter((r) => r.holds && r.mode === 'stop')
    .map((r) => `${r.id}:${r.definitionHash}:${r.subject}`);
  const receipt = compositionReceipt(c.commit, c.trunkTip, c.head, stopKeys);
  const served = input.composition_receipt === receipt;
  const gitDir = (await git(['rev-parse', '--absolute-git-dir'], { cwd: c.integration.path, env })).stdout.trim();
  const composition = { receipt, commit: c.commit, trunk: c.trunkTip, head: c.head, path: c.integration.path };
  const keep = (outcome: AcceptRefused): CompositionJudgment => ({
    proceed: false,
    keep: true,
    receipt,
    questions: stopKeys,
    outcome,
  });

  if (served && call.given) {
    const unknown = unknownDeclarations(call.declarations, evaluation);
    if (unknown !== undefined) {
      return keep({
        data: {
          ...base,
          integration_judgment: {
            composition,
            decision: 'awaiting_declaration',
            awaiting: reviewQuestions(evaluation, await readStore(gitDir)).outstanding,
          },
        },
        refusal: {
          error: 'invalid_value',
          message: `Nothing was recorded for the composition: ${unknown}`,
          next: {
            help: ctx.surface === 'mcp' ? 'the inputSchema of discern_accept in tools/list' : '`discern help accept`',
          },
        },
      });
    }
  }
  const carried = carryOver(await readStore(gitDir), await readStore(c.effort.gitDir), evaluation);
  const store = syncStore(
    carried,
    evaluation,
    served ? call.declarations : { met: [], unmet: [] },
    new Date().toISOString(),
  );
  await writeStore(gitDir, store);
  const review = reviewQuestions(evaluation, store);

  if (review.outstanding.length > 0) {
    return keep({
      data: {
        ...base,
        integration_judgment: { composition, decision: 'awaiting_declaration', awaiting: review.outstanding },
      },
      refusal: {
        error: 'awaiting_declaration',
        message: `The trunk moved, and ${c.effort.branch} composed with it (${c.commit.slice(0, 12)}) raises ${review.outstanding.length === 1 ? 'a checkpoint question' : `${review.outstanding.length} checkpoint questions`} no declaration answers: ${outstandingLines(review.outstanding)}. The composition is kept: answer with met or unmet naming composition_receipt "${receipt}", and the same landing continues. The trunk is untouched.`,
        next: {
          call:
            ctx.surface === 'mcp'
              ? `discern_accept (naming composition_receipt "${receipt}")`
              : `\`discern accept ${c.effort.id} --composition-receipt ${receipt}\` (\`--met <id>\`, \`--unmet <id> --why <text>\`)`,
        },
      },
    });
  }
  const covered = (u: DiscernCheckpointUnmet): boolean =>
    effortGranted.some(
      (v) => v.checkpoint === u.id && v.definition_hash === u.definition_hash && v.subject === u.subject,
    );
  const needed = review.declaredUnmet.filter((u) => u.mode === 'stop' && !covered(u));
  if (needed.length > 0) {
    if (!(served && ownerDecided(input))) {
      const outcome = awaitingVariance(
        ctx,
        base,
        needed,
        {
          integration_judgment: {
            composition,
            decision: 'awaiting_variance',
            awaiting: [],
            variances_required: needed,
          },
        },
        receipt,
      );
      outcome.refusal = {
        ...outcome.refusal,
        message: `${outcome.refusal.message} It is about the composed result (${c.commit.slice(0, 12)}): the variance names composition_receipt "${receipt}".`,
      };
      return keep(outcome);
    }
    return {
      proceed: true,
      receipt,
      questions: stopKeys,
      variances: needed.map((u) => ({
        checkpoint: u.id,
        definition_hash: u.definition_hash,
        subject: u.subject,
        why: input.variance ?? '',
      })),
    };
  }
  return { proceed: true, receipt, questions: stopKeys, variances: [] };
}

/** The effort's current declarations for questions the composed change raises unchanged. */
function carryOver(integration: QuestionStore, effort: QuestionStore, evaluation: CheckpointEvaluation): QuestionStore {
  const questions = { ...integration.questions };
  for (const r of evaluation.results) {
    if (!r.holds) continue;
    const here = stateOf(r, questions[r.id]);
    if (here.declaration?.current) continue;
    const there = effort.questions[r.id];
    if (there !== undefined && stateOf(r, there).declaration?.current) questions[r.id] = there;
  }
  return { ...integration, questions };
}

export { acceptCall };
