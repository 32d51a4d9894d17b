// Checkpoint preparation for accept's emergency integration (docs/decisions/0029). A repair that trips a stop
// checkpoint cannot be planned for approval until its questions are answered:
//   - prepare: true evaluates the repair's governing checkpoints (no validation job runs), serves their
//     questions, records the met declarations the call gives, and — once every stop question is declared met —
//     returns a receipt bound to the repair HEAD, the trunk tip, the reason and the declarations;
//   - the preview and the confirmed call present that receipt; it is checked against the questions as they
//     stand now, and the approval token is bound to it (contextDigest in emergency-approval.ts);
//   - a stop question declared unmet blocks: a variance is the owner's word on a landing that has Proof, and an
//     emergency landing has none, so nothing stands in for the answer.
// When no stop question fires, nothing needs preparing and a receipt given is not looked at.
import type { AcceptOutcome } from '../../generated/handlers.js';
import type {
  DiscernAcceptData,
  DiscernAcceptEmergencyPreparation,
  DiscernAcceptInput,
  DiscernStep,
} from '../../generated/types.js';
import { VERBS } from '../../generated/registry.js';
import {
  preparationReceipt,
  verifyPreparation,
  type PreparedFacts,
} from '../engine/acceptance/emergency-preparation.js';
import type { EmergencyPlan } from '../engine/acceptance/emergency-plan.js';
import type { Effort } from '../engine/acceptance/efforts.js';
import {
  compileCheckpoints,
  outstandingLines,
  serveQuestions,
  type Declarations,
  type Review,
  type Served,
} from '../engine/checkpoints/index.js';
import { effortConfig } from './accept-checkpoints.js';
import type { ProjectVerbContext } from './context.js';

type Preparation = DiscernAcceptEmergencyPreparation;
type EmergencyData = NonNullable<DiscernAcceptData['emergency']>;

export interface PreparationPlace {
  ctx: ProjectVerbContext;
  effort: Effort;
  plan: EmergencyPlan;
  /** The plan as the result shows it (data.emergency without preparation). */
  shown: EmergencyData;
  revision: NonNullable<DiscernAcceptData['revision']>;
}

/** The questions of the repair HEAD, evaluated at it under the merge-base's config; declarations recorded first when given. */
async function serve(p: PreparationPlace, declarations: Declarations | undefined): Promise<Served> {
  const { ctx, effort, plan } = p;
  return serveQuestions({
    run: { cwd: effort.path, env: ctx.env, signal: ctx.signal },
    revision: plan.repair.head,
    trunkRef: `refs/heads/${plan.trunk.name}`,
    workingConfig: await effortConfig(effort, ctx),
    root: effort.path,
    gitDir: effort.gitDir,
    ...(declarations !== undefined ? { declarations } : { record: false }),
  });
}

function factsOf(plan: EmergencyPlan, review: Review): PreparedFacts {
  return {
    trunk: plan.trunk,
    repair: { effort: plan.repair.effort, branch: plan.repair.branch, head: plan.repair.head },
    reason: plan.reason,
    questions: review.questions.map((q) => ({
      id: q.id,
      mode: q.mode,
      definition_hash: q.definition_hash,
      subject: q.subject,
      state: q.state,
      ...(q.declaration?.why !== undefined ? { why: q.declaration.why } : {}),
    })),
  };
}

function stopFires(review: Review): boolean {
  return review.questions.some((q) => q.mode === 'stop');
}

function stopUnmet(review: Review): Review['declaredUnmet'] {
  return review.declaredUnmet.filter((u) => u.mode === 'stop');
}

function shownOf(review: Review, extra: Partial<Preparation> = {}): Preparation {
  const unmet = stopUnmet(review);
  return {
    evaluated: true,
    required: stopFires(review),
    questions: review.questions,
    met: review.declaredMet,
    ...(review.outstanding.length > 0 ? { outstanding: review.outstanding } : {}),
    ...(unmet.length > 0 ? { unmet } : {}),
    ...(review.drops.length > 0 ? { drops: review.drops } : {}),
    ...extra,
  };
}

function prepareCall(p: PreparationPlace, met = '<ids whose question holds>'): string {
  return p.ctx.surface === 'mcp'
    ? 'discern_accept with action "emergency", the same reason, prepare: true and met (the checkpoint ids whose question holds)'
    : `\`discern accept ${p.plan.repair.effort} --emergency --reason <the same reason> --prepare --met ${met}\``;
}

function data(p: PreparationPlace, preparation: Preparation): DiscernAcceptData {
  return { revision: p.revision, emergency: { ...p.shown, preparation } };
}

/** An unmet stop question: no emergency landing, and why a variance does not help. */
function unmetRefusal(
  p: PreparationPlace,
  review: Review,
  extra: Partial<Preparation> = {},
  steps?: DiscernStep[],
): AcceptOutcome {
  const unmet = stopUnmet(review);
  const rerun = p.ctx.surface === 'mcp' ? 'discern_accept' : 'discern accept';
  return {
    ...(steps ? { steps } : {}),
    data: data(p, shownOf(review, extra)),
    refusal: {
      error: 'precondition_failed',
      message: `${unmet.length === 1 ? 'A stop checkpoint is' : `${unmet.length} stop checkpoints are`} declared unmet for ${p.plan.repair.branch} at ${p.plan.repair.head.slice(0, 12)}: ${unmet.map((u) => `${u.id} (“${u.why}”)`).join('; ')}. An unmet stop question blocks an emergency landing: a variance is the owner's word on a landing that has Proof, and an exception has none. Change the repair until the question holds, then prepare again declaring it met (${prepareCall(p, unmet.map((u) => u.id).join(' --met '))}).`,
      next: { rerun },
    },
  };
}

function awaitingRefusal(
  p: PreparationPlace,
  review: Review,
  opening: string,
  extra: Partial<Preparation> = {},
  steps?: DiscernStep[],
): AcceptOutcome {
  const open = review.outstanding;
  return {
    ...(steps ? { steps } : {}),
    data: data(p, shownOf(review, extra)),
    refusal: {
      error: 'awaiting_declaration',
      message: `${opening}${open.length > 0 ? `${open.length === 1 ? 'A stop checkpoint question' : `${open.length} stop checkpoint questions`} of the repair await${open.length === 1 ? 's' : ''} a declaration: ${outstandingLines(open)}. ` : ''}Prepare the emergency: ${prepareCall(p, open.length > 0 ? open.map((q) => q.id).join(' --met ') : undefined)} — declaring met each question that holds — then call again with its preparation_receipt.${steps ? '' : ' Nothing changed.'}`,
      next: {
        call:
          p.ctx.surface === 'mcp'
            ? 'discern_accept with action "emergency", the same reason and prepare: true'
            : `\`discern accept ${p.plan.repair.effort} --emergency --reason <the same reason> --prepare\``,
      },
    },
  };
}

/**
 * prepare: true. A dry run evaluates and records nothing: it names the checkpoints that would be evaluated
 * and the declarations that would be recorded. Otherwise the questions are served, the met declarations
 * recorded in the repair's checkout, and the receipt issued once every stop question is declared met.
 */
export async function prepareEmergency(
  p: PreparationPlace,
  input: DiscernAcceptInput,
  key: Buffer | undefined,
): Promise<AcceptOutcome> {
  const { plan, ctx } = p;
  const met = [...(input.met ?? [])];
  if (key === undefined) {
    const defined = compileCheckpoints(await effortConfig(p.effort, ctx)).definitions;
    const preparation: Preparation = {
      evaluated: false,
      would_evaluate: defined.map((d) => `${d.id}`),
      would_record: met,
    };
    return {
      dry_run: true,
      plan: {
        title: `checkpoint preparation of ${plan.repair.branch} at ${plan.repair.head.slice(0, 12)} for an emergency landing onto ${plan.trunk.name} at ${plan.trunk.tip.slice(0, 12)}: nothing evaluated or recorded`,
        details: [
          `checkpoints that would be evaluated (the merge-base's discern.toml governs): ${defined.length > 0 ? defined.map((d) => `${d.id} (${d.mode})`).join(', ') : 'none defined'}`,
          `met that would be recorded: ${met.length > 0 ? met.join(', ') : 'none'}`,
        ],
        steps: [
          {
            kind: 'merge-check',
            label: `evaluate the checkpoint triggers at ${plan.repair.head.slice(0, 12)} (no validation job runs) and serve their questions`,
            disposition: 'run',
          },
          ...(met.length > 0
            ? [
                {
                  kind: 'merge-check' as const,
                  label: `record met for ${met.join(', ')} in the repair's checkout`,
                  disposition: 'run' as const,
                },
              ]
            : []),
          {
            kind: 'merge-check',
            label: 'issue the preparation receipt once every stop question is declared met',
            disposition: 'run',
          },
        ],
      },
      data: data(p, preparation),
    };
  }

  const served = await serve(p, { met, unmet: [] });
  const help = ctx.surface === 'mcp' ? 'the inputSchema of discern_accept in tools/list' : '`discern help accept`';
  if (served.unknown !== undefined)
    return {
      data: data(p, shownOf(served.review)),
      refusal: { error: 'invalid_value', message: `Nothing was recorded: ${served.unknown}`, next: { help } },
    };
  const { review } = served;
  const steps: DiscernStep[] = [
    {
      kind: 'merge-check',
      label: `evaluated the checkpoint triggers at ${plan.repair.head.slice(0, 12)}: ${review.questions.length === 0 ? 'no question' : review.questions.map((q) => `${q.id} (${q.mode})`).join(', ')}`,
      disposition: 'run',
      outcome: 'ok',
    },
    ...(met.length > 0
      ? [
          {
            kind: 'merge-check' as const,
            label: `recorded met for ${met.join(', ')}`,
            disposition: 'run' as const,
            outcome: 'ok' as const,
          },
        ]
      : []),
  ];
  const recorded = met.length > 0 ? { recorded: met } : {};
  if (stopUnmet(review).length > 0) return unmetRefusal(p, review, recorded, steps);
  if (review.outstanding.length > 0)
    return awaitingRefusal(p, review, met.length > 0 ? `Recorded met for ${met.join(', ')}. ` : '', recorded, steps);
  const receipt = preparationReceipt(key, factsOf(plan, review));
  const hint = (
    ctx.surface === 'mcp' ? VERBS.accept.hints.emergency_prepared_mcp : VERBS.accept.hints.emergency_prepared
  ).replace('{effort}', plan.repair.effort);
  // Like action "queue", the call did what accept was asked to do (here: prepare), so its effect holds.
  return { steps, held: ['accept-landing'], data: data(p, shownOf(review, { receipt, ...recorded })), hints: [hint] };
}

export type PreparationCheck =
  { ok: true; receipt?: string; preparation?: Preparation } | { ok: false; outcome: AcceptOutcome };

/**
 * The preview's and the confirmed call's check: the repair's questions as they stand (read-only), and the
 * receipt given against them. A stop question declared unmet refuses; any other stop question needs a current
 * receipt.
 */
export async function checkPreparation(
  p: PreparationPlace,
  receipt: string | undefined,
  key: Buffer,
): Promise<PreparationCheck> {
  const { review } = await serve(p, undefined);
  if (!stopFires(review)) return { ok: true, ...(review.questions.length > 0 ? { preparation: shownOf(review) } : {}) };
  if (stopUnmet(review).length > 0) return { ok: false, outcome: unmetRefusal(p, review) };
  if (review.outstanding.length > 0)
    return {
      ok: false,
      outcome: awaitingRefusal(p, review, '', {
        receipt_problem:
          receipt !== undefined
            ? {
                kind: 'changed',
                why: 'a stop question has no current declaration: the questions or their declarations changed since it was prepared',
              }
            : { kind: 'missing', why: 'no preparation_receipt was given' },
      }),
    };
  if (receipt === undefined) {
    return {
      ok: false,
      outcome: awaitingRefusal(
        p,
        review,
        `A stop checkpoint fires on the repair (${review.questions
          .filter((q) => q.mode === 'stop')
          .map((q) => q.id)
          .join(', ')}), so the plan needs a checkpoint preparation and its preparation_receipt. `,
        { receipt_problem: { kind: 'missing', why: 'no preparation_receipt was given' } },
      ),
    };
  }
  const verdict = verifyPreparation(key, receipt, factsOf(p.plan, review));
  if (!verdict.ok)
    return {
      ok: false,
      outcome: awaitingRefusal(p, review, `The preparation_receipt does not hold: ${verdict.why}. `, {
        receipt_problem: { kind: verdict.kind, why: verdict.why },
      }),
    };
  return { ok: true, receipt, preparation: shownOf(review, { receipt }) };
}
