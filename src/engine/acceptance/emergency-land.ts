// Applies an approved emergency plan as a recorded transaction (docs/decisions/0017, 0029). The record is
// written before the first effect and advanced after each, in this order:
//   started → note_written (the exception record on the repair HEAD) → trunk_landed (fast-forward by
//   compare-and-swap from the approved tip) → resources_destroyed → worktree_removed → branch_deleted.
// The exception record comes before the trunk moves, so nobody ever sees the repair on the trunk without it
// (an ordinary landing on the trunk without its Proof note yet would read as proven); a move that fails
// withdraws it. A kill between two steps leaves a record that `recover` finishes: the trunk is the truth —
// holding the repair, only the rest is done; still at the approved tip, the record is (re)written and the trunk
// moved; gone elsewhere, the approval no longer holds: the record is withdrawn and nothing lands.
import { existsSync } from 'node:fs';
import type { DiscernStep } from '../../../generated/types.js';
import { faultRequested } from '../faults.js';
import { readWorkingState } from '../git/porcelain-status.js';
import {
  EXCEPTIONS_REF,
  exceptionLine,
  exceptionMarkdown,
  exceptionNoteBody,
  removeExceptionNote,
  writeExceptionNote,
  type ExceptionNotePayload,
} from '../notes/exception-note.js';
import { deleteBranchIfLanded, destroyResources, removeWorktree } from './cleanup.js';
import type { Effort } from './efforts.js';
import { emergencyTransactions, type EmergencyTransaction } from './emergency-records.js';
import { grants, submissions, type AcceptancePaths, type TransactionStep } from './records.js';
import { moveTrunk, trunkContains } from './trunk.js';
import { projectSecrets } from '../jobs/project-secrets.js';
import { signedExceptionNote, unsignedNoteAdvisory } from '../notes/signed-envelope.js';

type Env = Readonly<Record<string, string | undefined>>;

export interface EmergencyLandingPlace {
  commonDir: string;
  mainRoot: string;
  /** Where the trunk is checked out, when it is (that checkout follows the fast-forward). */
  trunkCheckout: string | undefined;
  env: Env;
  outputDir: string;
  paths: AcceptancePaths;
  /** The effort as it is now, when its worktree still exists (its task record names its resources). */
  effort?: Effort;
}

export interface CleanupAdvisory {
  kind: 'acceptance-cleanup-incomplete' | 'proof-recording-unavailable';
  evidence: [string, ...string[]];
  next_action: string;
}

export interface LandedFacts {
  recovery_performed: boolean;
  recovered_from?: TransactionStep;
  trunk_landed: true;
  landed_commit: string;
  fast_forward: true;
  worktree_removed: boolean;
  branch_deleted: boolean;
  resources_destroyed?: string[];
}

export type EmergencyResult =
  | {
      status: 'landed';
      steps: DiscernStep[];
      advisories: CleanupAdvisory[];
      tx: EmergencyTransaction;
      record: NonNullable<EmergencyTransaction['completed']>['record'];
      line: string;
      landing: LandedFacts;
    }
  /** The exception record could not be written. A resumed landing keeps its transaction open (recover again);
   *  a fresh one had done nothing and closes it (the same approved call may be repeated). */
  | {
      status: 'record_failed';
      steps: DiscernStep[];
      tx: EmergencyTransaction;
      reason: string;
      trunkLanded: boolean;
      recovered: boolean;
    }
  /** Nothing landed; the transaction is closed (kept only when a resumed landing met a dirty trunk checkout). */
  | {
      status: 'not_landed';
      steps: DiscernStep[];
      tx: EmergencyTransaction;
      reason: 'moved' | 'dirty_checkout' | 'operation_in_progress' | 'failed';
      message: string;
    };

/** A deterministic kill at a named step, for the crash tests (docs/decisions/0007): DISCERN_FAULT=emergency:<step>. */
function crashPoint(env: Env, step: string): void {
  if (faultRequested(env, `emergency:${step}`)) process.kill(process.pid, 'SIGKILL');
}

async function advance(commonDir: string, tx: EmergencyTransaction, step: TransactionStep): Promise<void> {
  tx.step = step;
  await emergencyTransactions.write(commonDir, tx);
}

export function exceptionPayload(tx: EmergencyTransaction): ExceptionNotePayload {
  const base: Omit<ExceptionNotePayload, 'presentation'> = {
    kind: 'emergency-integration',
    state: 'landed',
    landing_id: tx.landing_id,
    subject: { commit: tx.head },
    trunk: { name: tx.trunk, before: tx.trunk_before },
    repair: { effort: tx.effort, branch: tx.branch, head: tx.head },
    reason: tx.reason,
    checks: tx.checks,
    ...(tx.checkpoints ? { checkpoints: tx.checkpoints } : {}),
    // A record of an earlier discern has no consent: its token came through the conversation.
    approval: {
      issued_at: tx.issued_at,
      approved_at: tx.approved_at,
      consent: tx.consent ?? 'conversation',
      ...(tx.client ? { client: tx.client } : {}),
    },
  };
  const line = exceptionLine(tx.trunk, tx.head, tx.landing_id, tx.checks);
  return { ...base, presentation: { line, markdown: exceptionMarkdown(base, line) } };
}

/** Starts and completes a landing whose plan the owner approved (the caller verified the approval). */
export async function landEmergency(place: EmergencyLandingPlace, tx: EmergencyTransaction): Promise<EmergencyResult> {
  await emergencyTransactions.write(place.commonDir, tx);
  crashPoint(place.env, 'started');
  const result = await recordAndMove(place, tx, [], { recovered: false });
  // Nothing happened yet: the transaction closes, and the same approval may be tried again while it holds.
  if (result.status === 'record_failed') await emergencyTransactions.remove(place.commonDir, tx.landing_id);
  return result;
}

/** Resumes an interrupted landing from its record: exactly the steps it had not done. */
export async function recoverEmergency(
  place: EmergencyLandingPlace,
  tx: EmergencyTransaction,
): Promise<EmergencyResult> {
  const run = { cwd: place.mainRoot, env: place.env };
  const from = tx.step;
  const holds = await trunkContains(run, tx.trunk, tx.head);
  const steps: DiscernStep[] = [
    {
      kind: 'git',
      label: `resume emergency landing ${tx.landing_id} (it had reached ${from}): ${tx.trunk} ${holds ? 'already holds' : 'does not hold'} ${tx.head.slice(0, 12)}`,
      disposition: 'run',
      outcome: 'ok',
      duration_s: 0,
    },
  ];
  if (holds) {
    const recorded = await record(place, tx, steps);
    if (recorded !== undefined) return { ...recorded, trunkLanded: true, recovered: true };
    if (tx.step === 'started' || tx.step === 'note_written') await advance(place.commonDir, tx, 'trunk_landed');
    return cleanUp(place, tx, steps, { recovered: true, from });
  }
  return recordAndMove(place, tx, steps, { recovered: true, from });
}

/**
 * The record's body, signed once and kept in the transaction: a resumed landing writes, and a failed one
 * withdraws, exactly this body. A transaction of an earlier discern without one is signed now.
 */
async function signedNote(
  place: EmergencyLandingPlace,
  tx: EmergencyTransaction,
): Promise<NonNullable<EmergencyTransaction['note']>> {
  if (tx.note !== undefined) return tx.note;
  const made = await signedExceptionNote(exceptionPayload(tx), { cwd: place.mainRoot, env: place.env });
  tx.note = {
    body: made.body,
    ...(made.signature ? { signature: made.signature } : {}),
    ...(made.unsigned !== undefined ? { unsigned: made.unsigned } : {}),
  };
  await emergencyTransactions.write(place.commonDir, tx);
  return tx.note;
}

/** The exception record as the result names it: where it is, and its signature or why it has none. */
function recordOf(tx: EmergencyTransaction): NonNullable<EmergencyTransaction['completed']>['record'] {
  return {
    ref: EXCEPTIONS_REF,
    commit: tx.head,
    ...(tx.note?.signature ? { signature: tx.note.signature } : {}),
    ...(tx.note?.unsigned !== undefined ? { unsigned: tx.note.unsigned } : {}),
  };
}

/** Writes (or confirms) the exception record; the failure, when it could not be written. */
async function record(
  place: EmergencyLandingPlace,
  tx: EmergencyTransaction,
  steps: DiscernStep[],
): Promise<Omit<Extract<EmergencyResult, { status: 'record_failed' }>, 'trunkLanded' | 'recovered'> | undefined> {
  const note = await writeExceptionNote(
    place.commonDir,
    { cwd: place.mainRoot, env: place.env },
    tx.head,
    (await signedNote(place, tx)).body,
  );
  steps.push({
    kind: 'git',
    label: 'write the exception record (not Proof)',
    disposition: 'run',
    note: note.ref,
    outcome: note.status === 'record_failed' ? 'failed' : 'ok',
    duration_s: 0,
  });
  return note.status === 'record_failed' ? { status: 'record_failed', steps, tx, reason: note.reason } : undefined;
}

async function recordAndMove(
  place: EmergencyLandingPlace,
  tx: EmergencyTransaction,
  steps: DiscernStep[],
  recovery: { recovered: boolean; from?: TransactionStep },
): Promise<EmergencyResult> {
  const run = { cwd: place.mainRoot, env: place.env };
  const recorded = await record(place, tx, steps);
  if (recorded !== undefined) return { ...recorded, trunkLanded: false, recovered: recovery.recovered };
  await advance(place.commonDir, tx, 'note_written');
  crashPoint(place.env, 'note_written');
  // Compare-and-swap from the approved tip: a trunk that moved since approval refuses, and nothing lands.
  const moved = await moveTrunk(run, tx.trunk, tx.trunk_before, tx.head, place.trunkCheckout);
  steps.push({
    kind: 'git',
    label: `fast-forward ${tx.trunk} from ${tx.trunk_before.slice(0, 12)} to ${tx.head.slice(0, 12)} (emergency, not Proof)`,
    disposition: 'run',
    outcome: moved.ok ? 'ok' : 'failed',
    duration_s: 0,
  });
  if (!moved.ok) {
    // A dirty checkout of the trunk (or a rebase under way) is the owner's to finish: a resumed landing keeps its record and transaction
    // to try again. Otherwise nothing landed and the approval no longer holds: both are withdrawn.
    if (recovery.recovered && (moved.reason === 'dirty_checkout' || moved.reason === 'operation_in_progress'))
      return { status: 'not_landed', steps, tx, reason: moved.reason, message: moved.message };
    await removeExceptionNote(place.commonDir, run, tx.head, tx.note?.body ?? exceptionNoteBody(exceptionPayload(tx)));
    await emergencyTransactions.remove(place.commonDir, tx.landing_id);
    return { status: 'not_landed', steps, tx, reason: moved.reason, message: moved.message };
  }
  await advance(place.commonDir, tx, 'trunk_landed');
  crashPoint(place.env, 'trunk_landed');
  return cleanUp(place, tx, steps, recovery);
}

/** Everything after the trunk holds the repair: the cleanup of an ordinary landing. */
async function cleanUp(
  place: EmergencyLandingPlace,
  tx: EmergencyTransaction,
  steps: DiscernStep[],
  recovery: { recovered: boolean; from?: TransactionStep },
): Promise<EmergencyResult> {
  const { env, mainRoot, commonDir } = place;
  const advisories: CleanupAdvisory[] = [];
  let destroyed: string[] = [];
  let removed = !existsSync(tx.path);
  // As after any landing, work in the worktree is never removed: a worktree with changes or another commit stays.
  const now = removed ? undefined : await readWorkingState(tx.path, env).catch(() => undefined);
  const busy = now !== undefined && (now.changed > 0 || now.head !== tx.head);
  if (busy)
    advisories.push({
      kind: 'acceptance-cleanup-incomplete',
      evidence: [
        `the worktree ${tx.path} has ${now.changed > 0 ? 'uncommitted changes' : 'moved on to another commit'}: it was kept`,
      ],
      next_action: `Look at ${tx.path}; remove it with \`discern worktree teardown ${tx.effort}\` when its work is done.`,
    });
  if (!removed && !busy) {
    // The config is not at hand here: the default env files of the worktree and the main checkout are masked.
    const resources = await destroyResources(
      place.effort?.record,
      tx.path,
      env,
      place.outputDir,
      steps,
      projectSecrets({ root: tx.path, commonDir }),
    );
    destroyed = resources.destroyed;
    await advance(commonDir, tx, 'resources_destroyed');
    crashPoint(env, 'resources_destroyed');
    removed = await removeWorktree(mainRoot, tx.path, env, steps);
    if (removed) await advance(commonDir, tx, 'worktree_removed');
    crashPoint(env, 'worktree_removed');
    if (resources.failed.length > 0)
      advisories.push({
        kind: 'acceptance-cleanup-incomplete',
        evidence: resources.failed.map((r) => `resource ${r} could not be destroyed`) as [string, ...string[]],
        next_action: `Destroy ${resources.failed.join(', ')} by hand; the landing stands.`,
      });
    if (!removed)
      advisories.push({
        kind: 'acceptance-cleanup-incomplete',
        evidence: [`the worktree ${tx.path} could not be removed`],
        next_action: `Remove it by hand (\`git worktree remove --force ${tx.path}\`); the landing stands.`,
      });
  }
  const branch = removed
    ? await deleteBranchIfLanded(mainRoot, tx.branch, tx.trunk, env, steps)
    : { deleted: false, reason: 'its worktree was kept' };
  if (branch.deleted) await advance(commonDir, tx, 'branch_deleted');
  crashPoint(env, 'branch_deleted');
  if (!branch.deleted && removed)
    advisories.push({
      kind: 'acceptance-cleanup-incomplete',
      evidence: [`branch ${tx.branch} was kept: ${branch.reason ?? 'unknown'}`],
      next_action: `Look at ${tx.branch}: it holds work the trunk does not.`,
    });

  await submissions.remove(place.paths, tx.effort);
  await grants.remove(place.paths, tx.effort);
  const recordRef = recordOf(tx);
  if (tx.note?.unsigned !== undefined)
    advisories.push(unsignedNoteAdvisory(tx.head, tx.note.unsigned, 'exception record'));
  const line = exceptionPayload(tx).presentation.line;
  const landing: LandedFacts = {
    recovery_performed: recovery.recovered,
    ...(recovery.from !== undefined ? { recovered_from: recovery.from } : {}),
    trunk_landed: true,
    landed_commit: tx.head,
    fast_forward: true,
    worktree_removed: removed,
    branch_deleted: branch.deleted,
    ...(destroyed.length > 0 ? { resources_destroyed: destroyed } : {}),
  };
  // The finished record stays, so recovering again or repeating the approved call answers with this outcome.
  tx.completed_at = new Date().toISOString();
  tx.completed = {
    worktree_removed: removed,
    branch_deleted: branch.deleted,
    ...(destroyed.length > 0 ? { resources_destroyed: destroyed } : {}),
    line,
    record: recordRef,
  };
  await emergencyTransactions.write(commonDir, tx);
  return { status: 'landed', steps, advisories, tx, record: recordRef, line, landing };
}
