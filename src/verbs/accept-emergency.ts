// accept, action "emergency": land a repair although its gate is not green (the trunk is broken and the fix
// cannot pass everything), only with the owner's fresh approval of one exact plan (docs/decisions/0029).
//   1. A call with a reason (no confirmed) returns the plan — trunk and tip, repair HEAD, reason, the checks that
//      failed, never ran or are stale — and an approval token bound to it, as a review plan refused with
//      confirmation_required: the owner reviews, then the agent calls again.
//   2. A call with confirmed and that token (within 15 minutes, same reason) recomputes the plan under the
//      repository's accept lock; a changed plan or an expired or forged token is refused with a fresh token and
//      the reason why. Then the landing runs as a recorded transaction: fast-forward, exception record, cleanup.
//   3. recover: <landing id> finishes an interrupted landing; a finished one answers again with its outcome.
// A repair that trips a stop checkpoint is first prepared (prepare: true, accept-emergency-prepare.ts): the
// preview and the confirmed call then verify its preparation_receipt beside the plan, and the approval token is
// bound to it (its context digest, src/engine/acceptance/emergency-approval.ts).
import { join } from 'node:path';
import type { AcceptOutcome } from '../../generated/handlers.js';
import { VERBS } from '../../generated/registry.js';
import { VERSION } from '../../generated/version.js';
import type { DiscernAcceptData, DiscernAcceptInput, DiscernPlan, DiscernStep } from '../../generated/types.js';
import {
  approvalKey,
  genuineClaims,
  issueApproval,
  landingIdOf,
  verifyApproval,
  type IssuedApproval,
} from '../engine/acceptance/emergency-approval.js';
import {
  landEmergency,
  recoverEmergency,
  type EmergencyLandingPlace,
  type EmergencyResult,
} from '../engine/acceptance/emergency-land.js';
import { planEmergency, type EmergencyPlan, type PlanProblem } from '../engine/acceptance/emergency-plan.js';
import {
  emergencyTransactions,
  EMERGENCY_FORMAT,
  type EmergencyTransaction,
} from '../engine/acceptance/emergency-records.js';
import { listEfforts, selectEffort, type Effort } from '../engine/acceptance/efforts.js';
import { acceptancePaths } from '../engine/acceptance/records.js';
import { trunkMovable } from '../engine/acceptance/trunk.js';
import { gateConfig } from '../engine/gate/gate-config.js';
import { readWorkingState } from '../engine/git/porcelain-status.js';
import { withRepositoryLock } from '../engine/state/repository-lock.js';
import { checkPreparation, prepareEmergency, type PreparationPlace } from './accept-emergency-prepare.js';
import { argumentsHelp, type ProjectVerbContext } from './context.js';
import { shellQuote } from '../engine/process/shell-quote.js';
import { askEmergencyApproval, declinedPlanMessage, type EmergencyConsent } from './accept-emergency-consent.js';

type EmergencyData = NonNullable<DiscernAcceptData['emergency']>;
type Preparation = NonNullable<EmergencyData['preparation']>;

/** Whether a call asks for emergency integration (or names one of its keys, which it then validates). */
export function wantsEmergency(input: DiscernAcceptInput): boolean {
  return (
    input.action === 'emergency' ||
    input.emergency === true ||
    input.reason !== undefined ||
    input.approval_token !== undefined ||
    input.approve !== undefined ||
    input.recover !== undefined ||
    input.prepare !== undefined ||
    input.preparation_receipt !== undefined
  );
}

/** Keys that make no sense together, named; undefined when the combination is coherent. */
export function emergencyArgumentProblem(input: DiscernAcceptInput): string | undefined {
  const named = (keys: readonly string[]): string => keys.map((k) => `\`${k}\``).join(', ');
  const given = (keys: readonly (keyof DiscernAcceptInput)[]): string[] =>
    keys.filter((k) => input[k] !== undefined && input[k] !== false);
  if (input.emergency === true && input.action === 'queue')
    return '`emergency` and `action: "queue"` exclude each other: an emergency landing is not queued.';
  if (input.recover !== undefined) {
    const extra = given([
      'reason',
      'approval_token',
      'confirmed',
      'target',
      'dry_run',
      'grant',
      'approve_standard',
      'prepare',
      'preparation_receipt',
      'met',
      'unmet',
      'unmet_id',
      'why',
    ]);
    if (input.action === 'queue') extra.push('action');
    return extra.length > 0
      ? `\`recover\` resumes an interrupted emergency landing by its id and takes nothing else: drop ${named(extra)}.`
      : undefined;
  }
  const emergency = input.action === 'emergency' || input.emergency === true;
  if (!emergency) {
    const stray = given(['reason', 'approval_token', 'prepare', 'preparation_receipt']);
    return stray.length > 0
      ? `${named(stray)} go${stray.length === 1 ? 'es' : ''} with \`action: "emergency"\` only.`
      : undefined;
  }
  if (input.reason === undefined || input.reason.trim() === '')
    return '`reason` is required with `action: "emergency"`: why the repair must land although its gate is not green (1 to 500 characters).';
  if (input.grant === true)
    return '`grant` does not go with `action: "emergency"`: an emergency landing needs the owner\'s approval of its exact plan every time.';
  if (input.approve_standard === true)
    return '`approve_standard` does not go with `action: "emergency"`: the emergency plan lists what does not pass, standards included, and the owner approves it whole with its approval_token.';
  const unmet = given(['unmet', 'unmet_id', 'why']);
  if (unmet.length > 0)
    return `${named(unmet)} ${unmet.length === 1 ? 'does' : 'do'} not go with \`action: "emergency"\`: a stop checkpoint whose question does not hold blocks an emergency landing (a variance is the owner's word on a landing with Proof; an exception has none). Declare met, with \`prepare: true\`, only the questions that hold; otherwise change the repair until they do.`;
  if (input.variance !== undefined)
    return '`variance` does not go with `action: "emergency"`: an unmet stop checkpoint blocks an emergency landing, and no variance lifts that.';
  if (input.composition_receipt !== undefined)
    return '`composition_receipt` does not go with `action: "emergency"`: an emergency landing fast-forwards the trunk to the repair and composes nothing. Its checkpoint questions are answered with `prepare: true` and `met`.';
  if (input.prepare === true) {
    const excluded = given(['confirmed', 'approval_token', 'preparation_receipt']);
    if (excluded.length > 0)
      return `\`prepare\` serves the repair's checkpoint questions and issues a fresh preparation receipt; it does not go with ${named(excluded)}. Prepare first, then preview and confirm with its preparation_receipt.`;
  } else if (input.met !== undefined) {
    return '`met` goes with `prepare: true` in an emergency: the preparation call records the declarations and issues the preparation_receipt that the preview and the confirmed call present.';
  }
  if (input.dry_run === true && input.prepare !== true && input.preparation_receipt !== undefined)
    return '`dry_run` previews the plan without checking checkpoint preparation: drop `preparation_receipt`, or drop `dry_run` for the plan the owner approves.';
  if (input.dry_run === true) {
    const landing = given(['confirmed', 'approval_token']);
    if (landing.length > 0)
      return `\`dry_run\` previews and ${named(landing)} land${landing.length === 1 ? 's' : ''}: give one or the other.`;
  }
  if (input.approve !== undefined) {
    const excluded = given(['confirmed', 'approval_token', 'dry_run', 'prepare']);
    if (excluded.length > 0)
      return `\`approve\` is the owner's approval of the plan its token names, given at a terminal: it does not go with ${named(excluded)}.`;
  }
  if (input.approval_token !== undefined && input.confirmed !== true)
    return '`approval_token` goes with `confirmed: true`, once the owner approved the plan; without `confirmed`, omit it to get the plan and a token.';
  return undefined;
}

interface Call {
  input: DiscernAcceptInput;
  ctx: ProjectVerbContext;
  mcp: boolean;
  mainRoot: string;
  trunkCheckout: string | undefined;
  place: (effort: Effort | undefined, id: string) => EmergencyLandingPlace;
}

export async function acceptEmergency(input: DiscernAcceptInput, ctx: ProjectVerbContext): Promise<AcceptOutcome> {
  const { project } = ctx;
  const mcp = ctx.surface === 'mcp';
  const help = argumentsHelp(ctx, 'accept');
  const problem = emergencyArgumentProblem(input);
  if (problem !== undefined) return { refusal: { error: 'invalid_arguments', message: problem, next: { help } } };
  // Who approved (docs/decisions/0049): the agent presenting the token (conversation), the person at a terminal
  // (`--approve`), or the person asked by the client (elicited, below).
  let token = input.approval_token;
  let confirmedCall = input.confirmed === true;
  let consent: EmergencyConsent = { consent: 'conversation' };
  if (input.approve !== undefined) {
    if (ctx.person?.via !== 'terminal')
      return {
        refusal: {
          error: 'precondition_failed',
          message:
            '--approve is the owner approving an emergency plan at an interactive terminal, and this call has none (its standard input or error is not a terminal): nothing was approved. Run the command the preview printed yourself, in a terminal.',
          next: { rerun: 'discern accept <effort> --action emergency --reason <the same reason> --approve <token>' },
        },
      };
    token = input.approve;
    confirmedCall = true;
    consent = { consent: 'terminal' };
  }
  const gate = gateConfig(project.config);
  if (!gate.ok) {
    const [first] = gate.issues;
    return {
      data: { issues: gate.issues },
      refusal: {
        error: 'invalid_config',
        message: `discern.toml: \`${first.path}\` ${first.message}.`,
        next: { file: 'discern.toml', where: `key \`${first.path}\`` },
      },
    };
  }
  const trunk = project.trunk.name;
  const paths = acceptancePaths(project.commonDir);
  const { mainRoot, efforts, trunkCheckout } = await listEfforts(project.root, ctx.env);
  const call: Call = {
    input,
    ctx,
    mcp,
    mainRoot,
    trunkCheckout: trunkCheckout(trunk),
    place: (effort, id) => ({
      commonDir: project.commonDir,
      mainRoot,
      trunkCheckout: trunkCheckout(trunk),
      env: ctx.env,
      outputDir: join(project.gitDir, 'discern', 'output', `accept-${id}`),
      paths,
      ...(effort ? { effort } : {}),
    }),
  };
  const busy: AcceptOutcome = {
    refusal: {
      error: 'incomplete',
      message: 'Another acceptance has been landing in this repository for over 30 s; call again once it has finished.',
      next: { wait: `let the other acceptance finish (\`${mcp ? 'discern_status' : 'discern status'}\` shows it)` },
    },
  };

  if (input.recover !== undefined) {
    const landingId = input.recover;
    const resumed = await withRepositoryLock(project.commonDir, 'accept', 30_000, async () => {
      const tx = await emergencyTransactions.read(project.commonDir, landingId);
      if (tx === undefined) {
        const pending = await emergencyTransactions.pending(project.commonDir);
        return {
          refusal: {
            error: 'unknown_target',
            message: `"${landingId}" names no emergency landing of this repository.${pending.length > 0 ? ` Interrupted ones: ${pending.map((t) => `${t.landing_id} (${t.effort}, reached ${t.step})`).join(', ')}.` : ' None is interrupted.'}`,
            next: { list: mcp ? 'discern_status' : 'discern status' },
          },
        } satisfies AcceptOutcome;
      }
      return resume(call, tx, efforts);
    });
    return resumed === 'busy' ? busy : resumed;
  }

  // The key that signs approvals is created on first need; a dry run, which changes nothing, never needs it.
  const keyed = input.dry_run === true ? undefined : await approvalKey(project.commonDir);
  if (keyed !== undefined && !keyed.ok)
    return {
      refusal: {
        error: 'write_denied',
        message: `The approval key ${keyed.path} cannot be read or created: ${keyed.reason}.`,
        next: { target: keyed.path, access: 'readable and writable' },
      },
    };
  // The same approved call again (its answer was lost, or it was killed): the landing it started answers,
  // even once the repair's worktree is gone.
  const started = async (): Promise<AcceptOutcome | undefined> => {
    if (keyed === undefined || !confirmedCall || token === undefined || genuineClaims(keyed.key, token) === undefined)
      return undefined;
    const tx = await emergencyTransactions.read(project.commonDir, landingIdOf(token));
    return tx === undefined ? undefined : resume(call, tx, efforts);
  };
  if (
    keyed !== undefined &&
    confirmedCall &&
    token !== undefined &&
    genuineClaims(keyed.key, token) !== undefined &&
    (await emergencyTransactions.read(project.commonDir, landingIdOf(token))) !== undefined
  ) {
    const answered = await withRepositoryLock(project.commonDir, 'accept', 30_000, started);
    if (answered === 'busy') return busy;
    if (answered !== undefined) return answered;
  }

  // The repair: the named effort, else this worktree's.
  let effort: Effort;
  if (input.target !== undefined) {
    const match = selectEffort(efforts, input.target);
    if ('none' in match)
      return {
        refusal: {
          error: 'unknown_target',
          message: `"${input.target}" names no effort here (an effort is a linked worktree on a branch: its id, branch, full ref or path).${efforts.length > 0 ? ` Efforts: ${efforts.map((e) => e.id).join(', ')}.` : ' There are none.'}`,
          next: { list: mcp ? 'discern_status' : 'discern status' },
        },
      };
    if ('ambiguous' in match)
      return {
        refusal: {
          error: 'invalid_value',
          message: `"${input.target}" matches ${match.ambiguous.length} efforts (${match.ambiguous.map((e) => e.id).join(', ')}): name one by id.`,
          next: { help },
        },
      };
    effort = match.effort;
  } else {
    const here = efforts.find((e) => e.path === project.root);
    if (here === undefined)
      return {
        refusal: {
          error: 'invalid_value',
          message: `This is ${project.location === 'main' ? 'the main checkout' : "not an effort's worktree"}: name the repair's effort with target (its id, branch or path).`,
          next: { help },
        },
      };
    effort = here;
  }
  const rerun = mcp ? 'discern_accept' : 'discern accept';
  const state = await readWorkingState(effort.path, ctx.env, ctx.signal);
  if (state.detached || state.head === null || state.branch !== effort.branch) {
    return {
      refusal: {
        error: 'detached_head',
        message: `The repair's worktree (${effort.path}) is not on its branch ${effort.branch}.`,
        next: { rerun },
      },
    };
  }
  if (state.changed > 0) {
    return {
      refusal: {
        error: 'dirty_worktree',
        message: `The repair's worktree (${effort.path}) has ${state.changed} uncommitted change${state.changed === 1 ? '' : 's'}: an emergency landing takes an exact commit. Commit them, then ask again.`,
        next: { rerun, standalone: mcp ? 'discern_done with standalone: true' : 'discern done --standalone' },
      },
    };
  }
  const head = state.head;
  const reason = input.reason ?? '';
  const planned = (): ReturnType<typeof planEmergency> =>
    planEmergency({
      run: { cwd: mainRoot, env: ctx.env },
      trunk,
      effort,
      head,
      reason,
      gate: gate.gate,
      config: project.config,
      version: VERSION,
      efforts,
      paths,
    });
  const placeOf = (plan: EmergencyPlan): PreparationPlace => ({
    ctx,
    effort,
    plan,
    shown: emergencyOf(plan),
    revision: revisionOf(plan),
  });
  // Checkpoint preparation: serve the repair's questions, record met, issue the receipt (a dry run: show what would be).
  if (input.prepare === true) {
    const made = await planned();
    if (!made.ok) return planRefusal(call, made.problem);
    return prepareEmergency(placeOf(made.plan), input, keyed?.key);
  }
  // The preview (no key: a dry run, which confirmed never goes with): the plan, with a token unless dry.
  if (keyed === undefined || !confirmedCall) {
    const made = await planned();
    if (!made.ok) return planRefusal(call, made.problem);
    const blocked = await trunkBlocked(call, made.plan);
    if (blocked) return blocked;
    if (keyed === undefined)
      return {
        dry_run: true,
        plan: planView(made.plan, undefined),
        data: { revision: revisionOf(made.plan), emergency: emergencyOf(made.plan) },
      };
    const prepared = await checkPreparation(placeOf(made.plan), input.preparation_receipt, keyed.key);
    if (!prepared.ok) return prepared.outcome;
    const plan: EmergencyPlan = {
      ...made.plan,
      ...(prepared.receipt !== undefined ? { preparation: prepared.receipt } : {}),
    };
    const issued = issueApproval(keyed.key, plan, new Date());
    // A client that can ask the person does, instead of handing the agent the token (accept-emergency-consent.ts).
    if (ctx.person?.via !== 'elicited') return review(call, plan, issued, undefined, prepared.preparation);
    const asked = await askEmergencyApproval(ctx.person, plan);
    if (!asked.ok) return declinedPlan(call, plan, asked.why);
    token = issued.token;
    consent = asked.consent;
  } else if (consent.consent === 'terminal' && ctx.person !== undefined) {
    // The person at the terminal sees the plan as it is now and types yes, before the landing takes the lock.
    const made = await planned();
    if (!made.ok) return planRefusal(call, made.problem);
    const asked = await askEmergencyApproval(ctx.person, made.plan);
    if (!asked.ok) return declinedPlan(call, made.plan, asked.why);
  }
  const key = keyed.key;

  const confirmed = await withRepositoryLock(project.commonDir, 'accept', 30_000, async (): Promise<AcceptOutcome> => {
    // Checked again under the lock: a concurrent identical call may have started this landing meanwhile.
    const already = await started();
    if (already !== undefined) return already;
    const interrupted = (await emergencyTransactions.pending(project.commonDir)).find((t) => t.effort === effort.id);
    if (interrupted)
      return {
        refusal: {
          error: 'precondition_failed',
          message: `An emergency landing of ${effort.id} (${interrupted.landing_id}) was interrupted at ${interrupted.step}: finish it first.`,
          next: {
            rerun: mcp
              ? `discern_accept with recover: "${interrupted.landing_id}"`
              : `discern accept --recover ${interrupted.landing_id}`,
          },
        },
      };
    const made = await planned();
    if (!made.ok) return planRefusal(call, made.problem);
    // The preparation is checked before the approval: a token never stands for a preparation that no longer holds.
    const prepared = await checkPreparation(placeOf(made.plan), input.preparation_receipt, key);
    if (!prepared.ok) return prepared.outcome;
    const plan: EmergencyPlan = {
      ...made.plan,
      ...(prepared.receipt !== undefined ? { preparation: prepared.receipt } : {}),
    };
    const now = new Date();
    if (token === undefined)
      return review(
        call,
        plan,
        issueApproval(key, plan, now),
        { kind: 'missing', why: 'confirmed needs the approval_token of the plan the owner reviewed' },
        prepared.preparation,
      );
    const verdict = verifyApproval(key, token, plan, now);
    if (!verdict.ok)
      return review(
        call,
        plan,
        issueApproval(key, plan, now),
        { kind: verdict.kind, why: verdict.why },
        prepared.preparation,
      );
    const blocked = await trunkBlocked(call, plan);
    if (blocked) return blocked;
    const tx: EmergencyTransaction = {
      format: EMERGENCY_FORMAT,
      kind: 'emergency',
      landing_id: verdict.landingId,
      effort: effort.id,
      branch: effort.branch,
      path: effort.path,
      head: plan.repair.head,
      trunk: plan.trunk.name,
      trunk_before: plan.trunk.tip,
      step: 'started',
      started_at: now.toISOString(),
      issued_at: verdict.issuedAt.toISOString(),
      approved_at: now.toISOString(),
      reason: plan.reason,
      checks: plan.checks,
      ...consent,
      ...(plan.preparation !== undefined
        ? { checkpoints: { preparation: plan.preparation, met: prepared.preparation?.met ?? [] } }
        : {}),
    };
    return outcomeOf(call, await landEmergency(call.place(effort, effort.id), tx));
  });
  return confirmed === 'busy' ? busy : confirmed;
}

/** An interrupted landing finished, or a finished one reported again. */
async function resume(call: Call, tx: EmergencyTransaction, efforts: readonly Effort[]): Promise<AcceptOutcome> {
  if (tx.completed_at !== undefined && tx.completed !== undefined) {
    const done = tx.completed;
    const steps: DiscernStep[] = [
      {
        kind: 'git',
        label: `emergency landing ${tx.landing_id} was already complete (${tx.completed_at})`,
        disposition: 'skip',
        outcome: 'skipped',
      },
    ];
    return landedOutcome(call, tx, {
      steps,
      advisories: [],
      line: done.line,
      record: done.record,
      landing: {
        recovery_performed: false,
        trunk_landed: true,
        landed_commit: tx.head,
        fast_forward: true,
        worktree_removed: done.worktree_removed,
        branch_deleted: done.branch_deleted,
        ...(done.resources_destroyed ? { resources_destroyed: done.resources_destroyed } : {}),
      },
    });
  }
  const effort = efforts.find((e) => e.path === tx.path && e.branch === tx.branch);
  return outcomeOf(call, await recoverEmergency(call.place(effort, tx.effort), tx));
}

function outcomeOf(call: Call, result: EmergencyResult): AcceptOutcome {
  const { tx } = result;
  const { mcp } = call;
  if (result.status === 'landed') return landedOutcome(call, tx, result);
  const revision = { effort: tx.effort, path: tx.path, branch: tx.branch, head: tx.head };
  const emergency = { ...txEmergency(tx), landing_id: tx.landing_id };
  if (result.status === 'record_failed' && !result.trunkLanded) {
    const retry = !result.recovered
      ? 'the same confirmed call while the approval holds'
      : mcp
        ? `discern_accept with recover: "${tx.landing_id}"`
        : `discern accept --recover ${tx.landing_id}`;
    return {
      steps: result.steps,
      data: { revision, emergency },
      refusal: {
        error: 'apply_failed',
        message: `Nothing landed: the exception record could not be written (${result.reason}), and the trunk never moves without it.`,
        next: { recovery: `fix what the message names, then repeat ${retry}` },
      },
    };
  }
  if (result.status === 'record_failed') {
    return {
      steps: result.steps,
      data: {
        revision,
        emergency,
        landing: {
          recovery_performed: result.recovered,
          trunk_landed: true,
          landed_commit: tx.head,
          fast_forward: true,
          worktree_removed: false,
          branch_deleted: false,
        },
      },
      refusal: {
        error: 'partial_acceptance',
        message: `${tx.trunk} now holds ${tx.head.slice(0, 12)} (emergency landing ${tx.landing_id}), but its exception record could not be written: ${result.reason}. The landing is not finished until it is; its worktree and branch are kept.`,
        next: {
          recovery: mcp
            ? `call discern_accept with recover: "${tx.landing_id}"`
            : `run \`discern accept --recover ${tx.landing_id}\``,
        },
      },
    };
  }
  if (result.reason === 'operation_in_progress') {
    return {
      steps: result.steps,
      data: { revision, emergency },
      refusal: {
        error: 'precondition_failed',
        message: `${result.message}.`,
        next: {
          rerun: mcp ? `discern_accept with recover: "${tx.landing_id}"` : `discern accept --recover ${tx.landing_id}`,
        },
      },
    };
  }
  if (result.reason === 'dirty_checkout') {
    return {
      steps: result.steps,
      data: { revision, emergency },
      refusal: {
        error: 'dirty_worktree',
        message: `${result.message}.`,
        next: {
          rerun: mcp ? `discern_accept with recover: "${tx.landing_id}"` : `discern accept --recover ${tx.landing_id}`,
          standalone: mcp ? 'discern_done with standalone: true' : 'discern done --standalone',
        },
      },
    };
  }
  return {
    steps: result.steps,
    data: { revision, emergency },
    refusal: {
      error: 'apply_failed',
      message: `Nothing landed: ${result.message}. The approval was for ${tx.trunk} at ${tx.trunk_before.slice(0, 12)} only.`,
      next: {
        recovery: mcp
          ? 'call discern_accept with action "emergency" and the reason again for a fresh plan, and ask the owner to approve it'
          : 'run `discern accept --emergency --reason ...` again for a fresh plan, and ask the owner to approve it',
      },
    },
  };
}

type Landed = Pick<
  Extract<EmergencyResult, { status: 'landed' }>,
  'steps' | 'advisories' | 'line' | 'record' | 'landing'
>;

function landedOutcome(call: Call, tx: EmergencyTransaction, landed: Landed): AcceptOutcome {
  const hint = call.mcp
    ? VERBS.accept.hints.emergency_landed_mcp.replace('{root}', call.mainRoot)
    : VERBS.accept.hints.emergency_landed;
  return {
    steps: landed.steps,
    ...(landed.advisories.length > 0 ? { advisories: landed.advisories } : {}),
    held: ['accept-landing'],
    data: {
      revision: { effort: tx.effort, path: tx.path, branch: tx.branch, head: tx.head },
      emergency: {
        ...txEmergency(tx),
        landing_id: tx.landing_id,
        state: 'landed',
        approved_at: tx.approved_at,
        line: landed.line,
        record: landed.record,
      },
      landing: landed.landing,
      root: call.mainRoot,
    },
    hints: [hint],
  };
}

function txEmergency(tx: EmergencyTransaction): EmergencyData {
  return {
    trunk: { name: tx.trunk, tip: tx.trunk_before },
    repair: { effort: tx.effort, branch: tx.branch, path: tx.path, head: tx.head },
    reason: tx.reason,
    checks: tx.checks,
    ...(tx.checkpoints
      ? {
          preparation: {
            evaluated: true,
            required: true,
            receipt: tx.checkpoints.preparation,
            met: tx.checkpoints.met,
          },
        }
      : {}),
  };
}

function revisionOf(plan: EmergencyPlan): NonNullable<DiscernAcceptData['revision']> {
  return { effort: plan.repair.effort, path: plan.repair.path, branch: plan.repair.branch, head: plan.repair.head };
}

function emergencyOf(plan: EmergencyPlan): EmergencyData {
  return {
    trunk: plan.trunk,
    repair: plan.repair,
    reason: plan.reason,
    checks: plan.checks,
    ...(plan.evidence.length > 0 ? { evidence: plan.evidence } : {}),
  };
}

function listed(items: readonly string[]): string {
  return items.length > 0 ? items.join(', ') : 'none';
}

function summary(plan: EmergencyPlan): string {
  const { failed, never_ran: neverRan, stale } = plan.checks;
  return [
    failed.length > 0 ? `${failed.length} failed` : '',
    neverRan.length > 0 ? `${neverRan.length} never ran` : '',
    stale.length > 0 ? `${stale.length} stale` : '',
  ]
    .filter(Boolean)
    .join(', ');
}

function planView(plan: EmergencyPlan, issued: IssuedApproval | undefined, preparation?: Preparation): DiscernPlan {
  const { trunk, repair } = plan;
  return {
    title: `emergency landing of ${repair.branch} at ${repair.head.slice(0, 12)} onto ${trunk.name} at ${trunk.tip.slice(0, 12)} (${summary(plan)}): the owner approves this exact plan`,
    details: [
      `trunk: ${trunk.name} at ${trunk.tip}`,
      `repair: ${repair.effort} (${repair.branch}) at ${repair.head}`,
      `reason: ${plan.reason}`,
      `failed: ${listed(plan.checks.failed)}`,
      `never ran: ${listed(plan.checks.never_ran)}`,
      `stale: ${listed(plan.checks.stale)}`,
      ...(issued === undefined
        ? [
            'checkpoint questions are not evaluated in a dry run (prepare: true with dry_run shows which checkpoints would be)',
          ]
        : plan.preparation !== undefined
          ? [`checkpoint preparation ${plan.preparation}: declared met ${listed(preparation?.met ?? [])}`]
          : ['checkpoint preparation: not needed (no stop checkpoint question fires on the repair)']),
      ...(issued ? [`landing id: ${issued.landingId}`, `approval expires at ${issued.expiresAt.toISOString()}`] : []),
      'recorded as an exception (refs/notes/discern-exceptions), never as Proof; nothing is pushed, deployed or changed in branch protections',
    ],
    steps: [
      {
        kind: 'git',
        label: `write the exception record on ${repair.head.slice(0, 12)} (refs/notes/discern-exceptions), before the trunk moves`,
        disposition: 'run',
      },
      {
        kind: 'git',
        label: `fast-forward ${trunk.name} from ${trunk.tip.slice(0, 12)} to ${repair.head.slice(0, 12)}`,
        disposition: 'run',
      },
      { kind: 'resource-destroy', label: "destroy the effort's resources in reverse", disposition: 'run' },
      { kind: 'git', label: 'remove the worktree, and the branch when the trunk contains it', disposition: 'run' },
    ],
  };
}

/** The plan for the owner to review, with its token: nothing changed, the owner decides. */
function review(
  call: Call,
  plan: EmergencyPlan,
  issued: IssuedApproval,
  problem: { kind: string; why: string } | undefined,
  preparation: Preparation | undefined,
): AcceptOutcome {
  const { mcp } = call;
  const receipt =
    plan.preparation !== undefined
      ? mcp
        ? `, preparation_receipt`
        : ` --preparation-receipt ${plan.preparation}`
      : '';
  const again = mcp
    ? `call discern_accept again with action "emergency", the same reason, confirmed: true, approval_token${receipt}`
    : `run \`discern accept ${plan.repair.effort} --emergency --reason <the same reason> --confirmed --approval-token <token>${receipt}\``;
  // The owner can approve it themselves at a terminal, without the agent's word (the exception then says terminal).
  const atTerminal = `discern accept ${plan.repair.effort} --action emergency --reason ${shellQuote(plan.reason)} --approve ${issued.token}${plan.preparation !== undefined ? ` --preparation-receipt ${plan.preparation}` : ''}`;
  const opening = problem ? `The approval was not accepted: ${problem.why}. ` : '';
  return {
    plan: planView(plan, issued, preparation),
    data: {
      revision: revisionOf(plan),
      emergency: {
        ...emergencyOf(plan),
        ...(preparation !== undefined ? { preparation } : {}),
        landing_id: issued.landingId,
        ...(problem?.kind === 'expired' ? { state: 'expired' as const } : {}),
        approval_token: issued.token,
        expires_at: issued.expiresAt.toISOString(),
        ...(problem ? { token_problem: problem } : {}),
      },
    },
    refusal: {
      error: 'confirmation_required',
      message: `${opening}Landing ${plan.repair.branch} at ${plan.repair.head.slice(0, 12)} onto ${plan.trunk.name} at ${plan.trunk.tip.slice(0, 12)} without passing Proof (${summary(plan)}) needs the owner's approval of this exact plan. Show the owner the trunk, the repair, the reason and the checks; once they approve, ${again} (${issued.landingId}, valid until ${issued.expiresAt.toISOString()}). Or the owner approves it at their own terminal: \`${atTerminal}\`.`,
      next: {},
    },
  };
}

/** The plan the person was asked about and did not approve: nothing changed, and no token was handed out. */
function declinedPlan(call: Call, plan: EmergencyPlan, why: string): AcceptOutcome {
  return {
    data: { revision: revisionOf(plan), emergency: emergencyOf(plan) },
    refusal: { error: 'awaiting_consent', message: declinedPlanMessage(plan, summary(plan), why, call.mcp), next: {} },
  };
}

function planRefusal(call: Call, problem: PlanProblem): AcceptOutcome {
  // Each problem names its fix in the message (update, done, ordinary acceptance, a rebuilt repair).
  const rerun = call.mcp ? 'discern_accept' : 'discern accept';
  const message =
    problem.kind === 'trunk_not_included' && call.mcp
      ? problem.message.replace('`discern update`', 'discern_update')
      : problem.message;
  return { refusal: { error: 'precondition_failed', message: `${message}.`, next: { rerun } } };
}

/** A dirty checkout of the trunk refuses before any approval or landing: moving the trunk would leave it stale. */
async function trunkBlocked(call: Call, plan: EmergencyPlan): Promise<AcceptOutcome | undefined> {
  const movable = await trunkMovable(
    { cwd: call.mainRoot, env: call.ctx.env },
    plan.trunk.name,
    plan.trunk.tip,
    call.trunkCheckout,
  );
  if (movable.ok) return undefined;
  const rerun = call.mcp ? 'discern_accept' : 'discern accept';
  if (movable.reason === 'operation_in_progress')
    return { refusal: { error: 'precondition_failed', message: `${movable.message}.`, next: { rerun } } };
  return {
    refusal: {
      error: 'dirty_worktree',
      message: `${movable.message}.`,
      next: { rerun, standalone: call.mcp ? 'discern_done with standalone: true' : 'discern done --standalone' },
    },
  };
}
