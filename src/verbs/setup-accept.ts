// setup accept: land the setup branch on the trunk. Only a proven tip lands — the Proof setup done recorded for
// that exact commit — and only by fast-forward: the trunk moves by compare-and-swap from the tip it had, under
// the repository's accept lock, and a trunk that moved since refuses with the way back (merge it, prove again).
// Then the main checkout checks out the trunk, the Proof note is written on the landed commit, the setup branch
// is deleted and the setup recorded as accepted; the instruction refresh follows (its seam is
// src/engine/setup/instruction-refresh.ts). A trunk that already holds the setup is a no-op that finishes what an
// interrupted accept left (docs/decisions/0022).
import type { SetupAcceptOutcome } from '../../generated/handlers.js';
import { VERBS } from '../../generated/registry.js';
import { VERSION } from '../../generated/version.js';
import type {
  DiscernInstructionRefresh,
  DiscernSetupAcceptData,
  DiscernSetupAcceptInput,
  DiscernStep,
} from '../../generated/types.js';
import type { Refusal } from '../core/outcome.js';
import { deleteBranchIfLanded } from '../engine/acceptance/cleanup.js';
import { moveTrunk, trunkContains } from '../engine/acceptance/trunk.js';
import { configIdentity } from '../engine/gate/canonical-json.js';
import { markerIsCurrent, readProofMarker, type ProofMarker } from '../engine/gate/proof-records.js';
import { gateStatePaths } from '../engine/gate/state-paths.js';
import { git, gitComplaint } from '../engine/git/git.js';
import { readWorkingState } from '../engine/git/porcelain-status.js';
import { listWorktrees } from '../engine/git/worktree-list.js';
import { NOTES_REF, readProofNote, writeProofNote, type NoteWrite } from '../engine/notes/proof-note.js';
import { unsignedNoteAdvisory } from '../engine/notes/signed-envelope.js';
import { signedLandingNote } from '../engine/notes/landing-note.js';
import { chooseTrunk } from '../engine/project/resolve.js';
import { refreshAfterSetup } from '../engine/setup/instruction-refresh.js';
import { DEFAULT_AGENTS } from '../engine/setup/proposal.js';
import { activationContext, reactivation } from '../engine/setup/reactivation.js';
import { gitWithoutHooks } from '../engine/setup/setup-git.js';
import {
  readSetupState,
  setupBranchTip,
  setupStatePath,
  trunkHasConfig,
  writeSetupState,
  type SetupState,
} from '../engine/setup/state.js';
import { withRepositoryLock } from '../engine/state/repository-lock.js';
import { probeWrites } from '../engine/state/write-probe.js';
import type { InspectVerbContext } from './context.js';
import { notMainCheckout, setupPlace, uncommitted, type SetupPlace } from './setup-context.js';

const RERUN = 'discern setup accept';
const HINTS = VERBS.setupAccept.hints;

export async function setupAccept(
  _input: DiscernSetupAcceptInput,
  ctx: InspectVerbContext,
): Promise<SetupAcceptOutcome> {
  const place = setupPlace(ctx);
  if ('refusal' in place) return place;
  const { checkout, run } = place;
  const linked = await notMainCheckout(
    place,
    RERUN,
    'the setup lands from the main checkout, which it leaves on the trunk',
  );
  if (linked) return { refusal: linked };
  const read = await readSetupState(checkout.commonDir);
  if ('unreadable' in read)
    return {
      refusal: {
        error: 'precondition_failed',
        message: `The setup state cannot be read: ${read.unreadable}.`,
        next: { rerun: 'discern setup begin' },
      },
    };
  if ('missing' in read)
    return {
      refusal: {
        error: 'precondition_failed',
        message:
          'No setup has been begun in this repository: there is nothing to land. `discern setup begin` starts one.',
        next: { rerun: 'discern setup begin' },
      },
    };
  const state = read.state;
  const config = ctx.resolution.ok ? ctx.resolution.project.config : ctx.resolution.partial.config;
  const trunk = config ? chooseTrunk(config, ctx.env).name : state.trunk;
  const agents = [...(config?.project?.agents ?? state.proposal.project.agents ?? DEFAULT_AGENTS)];
  const tip = await setupBranchTip(state, run);

  // Already on the trunk: nothing lands, but the instruction refresh still runs (it is idempotent), so a
  // completion interrupted before it finishes the same way as one that was not.
  const noOp = async (landing: Landing, steps?: DiscernStep[]): Promise<SetupAcceptOutcome> => {
    const refresh = await refreshAfterSetup({ root: checkout.root, env: ctx.env, signal: ctx.signal });
    const data: DiscernSetupAcceptData = {
      ...landing,
      completion: { status: 'no_op', reason: 'already_on_target' },
      reactivation: reactivation(agents),
      activation_context: activationContext(checkout.root),
      instruction_refresh: refresh,
    };
    if (refresh.status === 'partial')
      return { ...(steps ? { steps } : {}), data, refusal: partialRefresh(landing.trunk, refresh) };
    return { ...(steps ? { steps } : {}), held: ['setup-landing', 'instruction-refresh'], data, hints: [HINTS.no_op] };
  };
  if (state.phase === 'accepted') {
    const landed = state.accepted?.commit;
    if (landed === undefined || !(await trunkContains(run, trunk, landed))) {
      return {
        refusal: {
          error: 'precondition_failed',
          message: `The setup of ${state.branch} was accepted, but ${trunk} no longer holds ${landed?.slice(0, 12) ?? 'its commit'}: \`discern doctor\` shows what the repository has now.`,
          next: { rerun: 'discern doctor' },
        },
      };
    }
    return await noOp({ trunk, branch: state.branch, landed_commit: landed });
  }
  // The trunk already holds the setup branch (an accept that was interrupted after the trunk moved, or a merge
  // by hand): what remains is finished, and nothing lands.
  const marker = await readProofMarker(
    gateStatePaths(checkout.gitDir, checkout.commonDir).proofMarker,
    checkout.commonDir,
  );
  const proofOf = (commit: string): ProofMarker['proof'] | undefined =>
    marker.state === 'present' && marker.marker.commit === commit && marker.marker.mode === 'strict'
      ? marker.marker.proof
      : undefined;
  if (tip !== undefined && (await trunkContains(run, trunk, tip))) {
    const steps: DiscernStep[] = [];
    const proof = proofOf(tip);
    return await noOp(await finish(place, state, { trunk, landed: tip, steps, ...(proof ? { proof } : {}) }), steps);
  }
  if (tip === undefined) {
    if (await trunkHasConfig(trunk, run)) {
      return {
        refusal: {
          error: 'precondition_failed',
          message: `The setup branch \`${state.branch}\` is gone and ${trunk} has its own committed discern.toml, so the repository is set up and nothing is left to land; \`discern doctor\` checks it.`,
          next: { rerun: 'discern doctor' },
        },
      };
    }
    return {
      refusal: {
        error: 'precondition_failed',
        message: `The setup branch \`${state.branch}\` is gone and ${trunk} does not hold the setup: there is nothing to land. Begin again with \`discern setup begin\`.`,
        next: { rerun: 'discern setup begin' },
      },
    };
  }

  const here = await readWorkingState(checkout.root, ctx.env, ctx.signal);
  if (here.branch !== state.branch) {
    return {
      refusal: {
        error: 'not_on_setup_branch',
        message: `The setup lands from the main checkout on \`${state.branch}\`, and it is on ${here.branch === null ? 'a detached HEAD' : `\`${here.branch}\``}.`,
        next: { branch: state.branch, rerun: RERUN },
      },
    };
  }
  if (here.changed > 0) {
    return {
      refusal: {
        error: 'dirty_worktree',
        message: `The setup branch has ${uncommitted(here)}: only the proven commit lands, and the checkout moves to ${trunk} afterwards. Commit them (then \`discern setup done\` again) or stash them.`,
        next: { rerun: RERUN, standalone: 'discern setup verify' },
      },
    };
  }
  // Proof for this exact tip, recorded by setup done (the marker done keeps for this checkout).
  const proof = proofOf(tip);
  const current =
    config !== undefined &&
    marker.state === 'present' &&
    markerIsCurrent(marker.marker, tip, configIdentity(config, trunk), VERSION);
  if (proof === undefined || !current || state.proven?.commit !== tip) {
    return {
      refusal: {
        error: 'incomplete',
        message: `${state.branch} at ${tip.slice(0, 12)} has no Proof from setup done${state.proven ? ` (setup done proved ${state.proven.commit.slice(0, 12)})` : ''}: only a proven commit lands.`,
        next: { wait: 'prove the branch with `discern setup done`' },
      },
    };
  }
  const trunkTip = (await git(['rev-parse', '--verify', '--quiet', `refs/heads/${trunk}`], run)).stdout.trim();
  if (trunkTip === '') {
    return {
      refusal: {
        error: 'precondition_failed',
        message: `The trunk \`${trunk}\` does not exist: setup lands on it. Name the trunk in discern.toml's [repository] trunk, commit, and prove again.`,
        next: { rerun: 'discern setup done' },
      },
    };
  }
  if ((await git(['merge-base', '--is-ancestor', trunkTip, tip], run)).code !== 0) {
    return {
      refusal: {
        error: 'precondition_failed',
        message: `${trunk} moved since setup began (it is at ${trunkTip.slice(0, 12)}, which ${state.branch} does not contain): setup lands only by fast-forward, so nothing moved. Merge it into the setup branch (\`git merge ${trunk}\`), prove that with \`discern setup done\`, then accept.`,
        next: { rerun: 'discern setup done' },
      },
    };
  }
  const elsewhere = (await listWorktrees(checkout.root, ctx.env, ctx.signal)).find(
    (w) => w.branch === trunk && w.path !== checkout.root,
  );
  if (elsewhere !== undefined) {
    return {
      refusal: {
        error: 'precondition_failed',
        message: `${trunk} is checked out in another worktree (${elsewhere.path}); setup checks it out here after landing. Switch that worktree to another branch first.`,
        next: { rerun: RERUN },
      },
    };
  }
  const probed = await probeWrites([
    `${checkout.commonDir}/refs/heads/${trunk}`,
    `${checkout.gitDir}/HEAD`,
    `${checkout.gitDir}/index`,
    `${checkout.commonDir}/refs/notes/discern`,
    setupStatePath(checkout.commonDir),
  ]);
  if (!probed.ok)
    return {
      refusal: {
        error: 'write_denied',
        message: `Setup accept must write ${probed.path}, and it cannot (${probed.reason}). Nothing was changed.`,
        next: { target: probed.path, access: 'writable' },
      },
    };

  const landed = await withRepositoryLock(
    checkout.commonDir,
    'accept',
    30_000,
    async (): Promise<SetupAcceptOutcome> => {
      const steps: DiscernStep[] = [];
      const moved = await moveTrunk(run, trunk, trunkTip, tip, undefined);
      steps.push({
        kind: 'git',
        label: `fast-forward ${trunk} to ${tip.slice(0, 12)}`,
        disposition: 'run',
        outcome: moved.ok ? 'ok' : 'failed',
        duration_s: 0,
      });
      if (!moved.ok) {
        const refusal =
          moved.reason === 'moved'
            ? ({
                error: 'conflict',
                message: `Nothing landed: ${moved.message}. Merge ${trunk} into ${state.branch}, prove it with \`discern setup done\`, and accept again.`,
                next: {},
              } as const)
            : ({
                error: 'apply_failed',
                message: `Nothing landed: ${moved.message}.`,
                next: { recovery: 'fix what the message names, then run `discern setup accept` again' },
              } as const);
        return { steps, refusal };
      }
      const finished = await finish(place, state, { trunk, landed: tip, steps, proof, predecessor: trunkTip });
      const refresh = await refreshAfterSetup({ root: checkout.root, env: ctx.env, signal: ctx.signal });
      const data: DiscernSetupAcceptData = {
        ...finished,
        completion: { status: 'landed', reason: 'fast_forward' },
        reactivation: reactivation(agents),
        activation_context: activationContext(checkout.root),
        instruction_refresh: refresh,
      };
      if (refresh.status === 'partial') return { steps, data, refusal: partialRefresh(trunk, refresh) };
      return {
        steps,
        data,
        held: ['setup-landing', 'instruction-refresh'],
        ...noteAdvisory(finished),
        hints: [HINTS.landed],
      };
    },
  );
  if (landed === 'busy')
    return {
      refusal: {
        error: 'incomplete',
        message: 'An acceptance has held the repository for over 30 s; nothing landed.',
        next: { wait: `let it finish, then run \`${RERUN}\` again` },
      },
    };
  return landed;
}

type Landing = Pick<DiscernSetupAcceptData, 'trunk' | 'branch' | 'landed_commit' | 'proof_line' | 'proof_note'>;

interface Finish {
  trunk: string;
  landed: string;
  steps: DiscernStep[];
  proof?: ProofMarker['proof'];
  /** The trunk's commit before the setup landed, when this call moved it: the note's completion names it. */
  predecessor?: string;
}

/** A note that could not be written leaves the landing standing: an advisory, not a failure. */
function noteAdvisory(landing: Landing): Pick<SetupAcceptOutcome, 'advisories'> {
  const note = landing.proof_note;
  if (note?.status === 'unsigned')
    return { advisories: [unsignedNoteAdvisory(note.commit, note.reason ?? 'no key could sign')] };
  if (note?.status !== 'record_failed') return {};
  return {
    advisories: [
      {
        kind: 'proof-recording-unavailable',
        evidence: [`the Proof note on ${note.commit.slice(0, 12)} was not written: ${note.reason ?? 'unknown'}`],
        next_action: `The landing stands; the note is a record only. Check \`git notes --ref=${NOTES_REF}\` when convenient.`,
      },
    ],
  };
}

/** Everything after the trunk holds the setup: the trunk checked out here, the note, the branch, the phase. */
async function finish(place: SetupPlace, state: SetupState, f: Finish): Promise<Landing> {
  const { checkout, run } = place;
  const { steps, trunk, landed } = f;
  const onSetupBranch = (await git(['symbolic-ref', '-q', '--short', 'HEAD'], run)).stdout.trim() === state.branch;
  if (onSetupBranch) {
    const switched = await gitWithoutHooks(['switch', '-q', trunk], run);
    steps.push({
      kind: 'git',
      label: `check out ${trunk} in the main checkout`,
      disposition: 'run',
      outcome: switched.code === 0 ? 'ok' : 'failed',
      duration_s: 0,
      ...(switched.code !== 0 ? { note: gitComplaint(switched) } : {}),
    });
  }
  const line = f.proof?.line ?? `discern Proof: ${trunk} @ ${landed.slice(0, 12)} (setup)`;
  // A setup accept finished again (after an interruption) keeps the note it already wrote: it is signed, and
  // signing again would make another body.
  const existing = await readProofNote(run, landed);
  const signed =
    existing?.payload.subject.commit === landed
      ? undefined
      : await signedLandingNote({
          cwd: run.cwd,
          env: run.env,
          trunk,
          source: { id: 'setup', branch: state.branch, head: landed },
          landed,
          predecessor: f.predecessor,
          proof: f.proof,
          line,
          acceptance: { consent: { source: 'setup accept' } },
        });
  const note: NoteWrite = signed
    ? await writeProofNote(checkout.commonDir, run, landed, signed.body)
    : { status: 'already_present', ref: NOTES_REF, commit: landed };
  steps.push({
    kind: 'git',
    label: 'write the Proof note',
    disposition: 'run',
    note: NOTES_REF,
    outcome: note.status === 'record_failed' ? 'skipped' : 'ok',
    duration_s: 0,
  });
  const written = note.status !== 'record_failed';
  const unsigned = written && signed?.unsigned !== undefined;
  await deleteBranchIfLanded(checkout.root, state.branch, trunk, run.env, steps);
  const accepted: SetupState = {
    ...state,
    phase: 'accepted',
    accepted: { commit: landed, at: state.accepted?.at ?? new Date().toISOString() },
  };
  const recorded = await writeSetupState(checkout.commonDir, accepted).then(
    () => true,
    () => false,
  );
  steps.push({
    kind: 'setup-step',
    label: 'record the setup as accepted',
    disposition: 'run',
    note: setupStatePath(checkout.commonDir),
    outcome: recorded ? 'ok' : 'failed',
    duration_s: 0,
  });
  return {
    trunk,
    branch: state.branch,
    landed_commit: landed,
    proof_line: line,
    proof_note: {
      status: unsigned ? 'unsigned' : note.status,
      ref: note.ref,
      commit: note.commit,
      ...('reason' in note ? { reason: note.reason } : {}),
      ...(unsigned ? { reason: signed?.unsigned ?? '' } : {}),
      ...(written && signed?.signature ? { signature: signed.signature } : {}),
    },
  };
}

function partialRefresh(trunk: string, refresh: DiscernInstructionRefresh): Refusal<'partial_refresh'> {
  return {
    error: 'partial_refresh',
    message: `The setup is on ${trunk}, but the instruction refresh stopped part way: ${(refresh.failures ?? []).join('; ')}.`,
    next: { recovery: 'run `discern refresh` (safe to retry)' },
  };
}
