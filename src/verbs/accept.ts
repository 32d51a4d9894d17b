// accept: land an effort's exact proven HEAD on the trunk under the owner's authority, or queue it. The effort
// is selected (target, else this worktree); its tree must be clean and its Proof current (else the gate runs);
// the submission is recorded; authority is decided (consent, grant, standing scopes). A landing is a recorded
// transaction: fast-forward when the trunk has not moved, else compose in an integration worktree and gate the
// combined commit; then the Proof note, resources, worktree and branch. A call finds an interrupted
// transaction first and finishes it (the trunk already holds the commit) or rolls it back (it does not).
import { loadConfig } from '../engine/config/load.js';
import { worktreeRoot } from '../engine/efforts/start-plan.js';
import { emptyTrashSoon, moveInstallsAside } from '../engine/efforts/warm/trash.js';
import { runSetupSteps } from '../engine/efforts/setup-steps.js';
import { linkedGitDir } from '../engine/git/ref-store.js';
import { warmWorktree } from '../engine/efforts/warm/warm-worktree.js';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { basename, join } from 'node:path';
import { mkdir, rename } from 'node:fs/promises';
import type { AcceptOutcome } from '../../generated/handlers.js';
import { VERBS } from '../../generated/registry.js';
import { VERSION } from '../../generated/version.js';
import type {
  DiscernAcceptData,
  DiscernAcceptInput,
  DiscernConfig,
  DiscernGateStandard,
  DiscernProofSummary,
  DiscernStep,
} from '../../generated/types.js';
import { policyRequirements } from '../engine/notes/completion.js';
import { signedLandingNote } from '../engine/notes/landing-note.js';
import { unsignedNoteAdvisory } from '../engine/notes/signed-envelope.js';
import { mergeFetchedNotes } from '../engine/notes/fetched-notes.js';
import { decideAuthority } from '../engine/acceptance/authority.js';
import { askForConsent, asksThePerson, type LandingConsent } from './accept-consent.js';
import { deleteBranchIfLanded, destroyResources, removeWorktree } from '../engine/acceptance/cleanup.js';
import { INTEGRATION_PREFIX, listEfforts, selectEffort, type Effort } from '../engine/acceptance/efforts.js';
import { changedPaths, queueRows } from '../engine/acceptance/queue-view.js';
import {
  acceptancePaths,
  grants,
  RECORD_FORMAT,
  submissions,
  transactions,
  type AcceptancePaths,
  type Submission,
  type Transaction,
  type TransactionStep,
  type CompletionRecord,
} from '../engine/acceptance/records.js';
import { moveTrunk, trunkContains, trunkMovable } from '../engine/acceptance/trunk.js';
import { keepWhatIncomingOverwrites, trunkKeepsIgnoredFiles } from '../engine/git/incoming-overwrites.js';
import { mergeConflicts } from '../engine/efforts/incoming.js';
import { configIdentity } from '../engine/gate/canonical-json.js';
import { gateConfig } from '../engine/gate/gate-config.js';
import { markerIsCurrent, readProofMarker } from '../engine/gate/proof-records.js';
import { faultRequested } from '../engine/faults.js';
import { git, gitComplaint } from '../engine/git/git.js';
import { readWorkingState } from '../engine/git/porcelain-status.js';
import { NOTES_REF, writeProofNote, type NoteWrite } from '../engine/notes/proof-note.js';
import { resolveProject } from '../engine/project/resolve.js';
import { withRepositoryLock } from '../engine/state/repository-lock.js';
import { commandList } from '../engine/config/commands.js';
import { DEFAULT_GATE_TIMEOUT_S } from '../engine/config/gate-settings.js';
import { classify } from '../engine/scopes/index.js';
import type { ProjectVerbContext } from './context.js';
import { declarationsCurrent } from '../engine/checkpoints/store.js';
import {
  readComposition,
  removeComposition,
  writeComposition,
  COMPOSITION_FORMAT,
} from '../engine/acceptance/compositions.js';
import {
  acceptCall,
  effortVariances,
  judgeComposition,
  recordEffortDeclarations,
  type AcceptRefused,
  type CallDeclarations,
  type Variance,
} from './accept-checkpoints.js';
import { approvalArgumentProblem, standardApproval, withApprovals } from './accept-standards.js';
import {
  effortPolicyChanges,
  governingPolicy,
  policyApproval,
  policyDetails,
  policyMovedSince,
  type Governing,
  type LandingPolicy,
  withPolicy,
} from './accept-policy.js';
import { policyFacts } from './policy-facts.js';
import { acceptEmergency, wantsEmergency } from './accept-emergency.js';
import { projectSecrets } from '../engine/jobs/project-secrets.js';
import { AcceptRun } from './accept-run.js';
import { convergedReason, installDigest, writeEnsureStamp } from '../engine/efforts/warm/ensure-stamp.js';
import { keepNewestOutputs, sweepOldOutputs } from '../engine/jobs/output-dir.js';

type Env = Readonly<Record<string, string | undefined>>;

export async function accept(input: DiscernAcceptInput, ctx: ProjectVerbContext): Promise<AcceptOutcome> {
  // Emergency integration is its own flow (docs/decisions/0029): a landing without Proof, by exact approval.
  if (wantsEmergency(input)) return acceptEmergency(input, ctx);
  const { project } = ctx;
  const mcp = ctx.surface === 'mcp';
  const help = mcp ? 'the inputSchema of discern_accept in tools/list' : '`discern help accept`';
  const statusCall = mcp ? 'discern_status' : 'discern status';
  const paths = acceptancePaths(project.commonDir);
  const trunk = project.trunk.name;
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
  if (input.grant === true && ctx.surface !== 'cli') {
    return {
      refusal: {
        error: 'invalid_value',
        message: "grant is the owner's, given at the CLI (`discern accept <target> --grant`), never over MCP.",
        next: { help },
      },
    };
  }
  const approvalProblem = approvalArgumentProblem(input);
  if (approvalProblem !== undefined)
    return { refusal: { error: 'invalid_value', message: approvalProblem, next: { help } } };
  if (input.action === 'queue' && (input.confirmed === true || input.grant === true)) {
    return {
      refusal: {
        error: 'invalid_value',
        message:
          'action "queue" only records the submission: it takes no consent or grant. Use ordinary acceptance (no action) for those.',
        next: { help },
      },
    };
  }

  // The grant is the owner's act at a terminal: a CLI call whose input is not one (a pipe, `< /dev/null`) is no one's.
  if (input.grant === true && ctx.person?.via !== 'terminal') {
    return {
      refusal: {
        error: 'precondition_failed',
        message:
          'grant is given by the owner at an interactive terminal, and this call has none (its standard input or error is not a terminal): nothing was granted. Run `discern accept <target> --grant` yourself in a terminal.',
        next: { rerun: 'discern accept <target> --grant' },
      },
    };
  }
  const { mainRoot, efforts, trunkCheckout } = await listEfforts(project.root, ctx.env);
  let effort: Effort;
  if (input.target !== undefined) {
    const match = selectEffort(efforts, input.target);
    if ('none' in match) {
      // An interrupted landing that already removed the worktree is still this effort's to finish.
      const byTarget = (t: Transaction): boolean =>
        t.effort === input.target ||
        t.branch === input.target ||
        `refs/heads/${t.branch}` === input.target ||
        t.path === input.target;
      const interrupted = input.dry_run === true ? undefined : (await transactions.all(paths)).find(byTarget);
      if (interrupted !== undefined) {
        const gone: Effort = { id: interrupted.effort, branch: interrupted.branch, path: interrupted.path, gitDir: '' };
        const l: Landing = {
          ctx,
          paths,
          effort: gone,
          mainRoot,
          trunk,
          trunkCheckout: trunkCheckout(trunk),
          outputDir: landingOutputDir(project.commonDir, gone.id),
          notesMode: project.config.repository?.proof_notes ?? 'local',
          // A recovery never composes: it finishes the landing or rolls it back.
          trunkConfig: project.config,
        };
        const resumed = await withRepositoryLock(project.commonDir, 'accept', 30_000, () => recover(interrupted, l));
        if (resumed === 'busy')
          return {
            refusal: {
              error: 'incomplete',
              message:
                'Another acceptance has been landing in this repository for over 30 s; call again once it has finished.',
              next: { wait: `let the other acceptance finish (\`${statusCall}\` shows it)` },
            },
          };
        if (resumed !== 'rolled_back') return resumed;
        return {
          refusal: {
            error: 'apply_failed',
            message: `An interrupted acceptance of ${gone.branch} was rolled back (the trunk had not moved), but its worktree ${gone.path} is gone: nothing is left to land.`,
            next: { recovery: "start the work again, or restore the branch's worktree" },
          },
        };
      }
      return {
        refusal: {
          error: 'unknown_target',
          message: `"${input.target}" names no effort here (an effort is a linked worktree on a branch: its id, branch, full ref or path).${efforts.length > 0 ? ` Efforts: ${efforts.map((e) => e.id).join(', ')}.` : ' There are none.'}`,
          next: { list: statusCall },
        },
      };
    }
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
          message: `This is ${project.location === 'main' ? 'the main checkout' : "not an effort's worktree"}: name the effort to accept with target (its id, branch or path).`,
          next: { help },
        },
      };
    effort = here;
  }
  const landing: Landing = {
    ctx,
    paths,
    effort,
    mainRoot,
    trunk,
    trunkCheckout: trunkCheckout(trunk),
    outputDir: landingOutputDir(project.commonDir, effort.id),
    trunkConfig: project.config,
  };
  // An effort lands on the trunk recorded when it started, whatever this call's trunk is.
  if (effort.record?.trunk !== undefined && effort.record.trunk !== trunk)
    return {
      refusal: {
        error: 'precondition_failed',
        message: `${effort.id} lands on ${effort.record.trunk} (recorded when it started), but this call's trunk is ${trunk}${project.trunk.source === 'env' ? ' (DISCERN_TRUNK)' : ''}: an effort's trunk does not change. Accept it with ${effort.record.trunk} as the trunk.`,
        next: { rerun: mcp ? 'discern_accept' : 'discern accept' },
      },
    };
  // The trunk's policy governs: its [acceptance] and [scopes] decide authority (accept-policy.ts).
  const governed = await governingPolicy(policyFacts(ctx));
  if (!governed.ok) return governed.refusal;
  const { governing } = governed;
  landing.notesMode = governing.config.repository?.proof_notes ?? 'local';
  landing.trunkConfig = governing.config;
  if (input.dry_run === true) return acceptEffort(input, landing, efforts, governing, []);
  // The call's progress record, opened once it gates or lands (accept-run.ts), and finished with its result.
  const run = new AcceptRun(ctx, mainRoot, effort.branch);
  landing.run = run;
  let outcome: AcceptOutcome | undefined;
  try {
    outcome = await serialisedAccept(input, landing, efforts, governing);
  } finally {
    if (outcome === undefined) await run.finish(undefined);
  }
  return (await run.finish(outcome)) ?? outcome;
}

/** Landings are serialised across the repository: one moves the trunk and cleans up at a time. */
async function serialisedAccept(
  input: DiscernAcceptInput,
  landing: Landing,
  efforts: readonly Effort[],
  governing: Governing,
): Promise<AcceptOutcome> {
  const { ctx, paths, effort, mainRoot, trunk } = landing;
  const { project } = ctx;
  const mcp = ctx.surface === 'mcp';
  const statusCall = mcp ? 'discern_status' : 'discern status';
  const serialised = await withRepositoryLock(project.commonDir, 'accept', 30_000, async () => {
    // An interrupted landing of this effort comes first: finished when the trunk holds its commit, else rolled
    // back, and this call carries on as a fresh acceptance.
    const found = await transactions.read(paths, effort.id);
    // A transaction older than this effort (its task was recorded after the landing began) is another effort's
    // that had the same name: it must not act on this one.
    const stale =
      found !== undefined &&
      (found.branch !== effort.branch ||
        found.path !== effort.path ||
        (effort.record !== undefined && effort.record.created_at > found.started_at));
    if (stale) await transactions.remove(paths, effort.id);
    const pending = stale ? undefined : found;
    // The efforts as they are now, not as they were before the wait: an acceptance that held the lock meanwhile
    // may have landed this effort (its worktree and branch are gone) or others on the list.
    const live = pending === undefined ? (await listEfforts(mainRoot, ctx.env)).efforts : efforts;
    if (pending === undefined && !live.some((e) => e.path === effort.path && e.branch === effort.branch)) {
      return {
        refusal: {
          error: 'unknown_target' as const,
          message: `${effort.id} (${effort.branch}) is no longer an effort here: another acceptance landed or removed it while this call waited for the repository's accept lock. This call changed nothing.`,
          next: { list: statusCall },
        },
      };
    }
    const earlier: DiscernStep[] = [];
    if (pending !== undefined) {
      const recovered = await recover(pending, landing);
      if (recovered !== 'rolled_back') return recovered;
      earlier.push({
        kind: 'git',
        label: 'roll back an interrupted acceptance (the trunk had not moved)',
        disposition: 'run',
        outcome: 'ok',
        duration_s: 0,
      });
    }
    // The walk: submissions ahead of this one in the queue that are ready and pre-authorized land first, in
    // queue order; the first that fails stops the walk.
    const landed: NonNullable<DiscernAcceptData['landings']> = [];
    if (input.action !== 'queue') {
      const queue = await queueRows(paths, live, governing.scopes, governing.config, trunk, {
        cwd: mainRoot,
        env: ctx.env,
      });
      const mine = queue.findIndex((q) => q.effort === effort.id);
      // An effort not queued yet joins at the back: everything queued is ahead of it.
      for (const row of queue.slice(0, mine === -1 ? queue.length : mine)) {
        if (row.authority !== 'pre-authorized' || row.readiness !== 'ready') continue;
        const ahead = live.find((e) => e.id === row.effort);
        if (ahead === undefined) continue;
        const aheadLanding: Landing = {
          ...landing,
          effort: ahead,
          outputDir: landingOutputDir(project.commonDir, ahead.id),
        };
        const result = await acceptEffort({}, aheadLanding, live, governing, []);
        const entry = result.data && 'landings' in result.data ? result.data.landings?.[0] : undefined;
        if (result.refusal === undefined && entry !== undefined) {
          landed.push({ ...entry, selected: false });
          continue;
        }
        // One submission that cannot land must not block the others: it is marked, skipped until its head
        // changes, and reported.
        const reason = result.refusal?.message ?? 'it did not land';
        const submission = await submissions.read(paths, ahead.id);
        // A red composition recorded its own failure (with its failures and run): that record stays.
        const recorded = submission?.last_failure?.head === row.head && submission.last_failure.composed_with;
        if (submission && !recorded)
          await submissions.write(paths, {
            ...submission,
            last_failure: { head: row.head, reason, at: new Date().toISOString() },
          });
        landed.push({
          effort: ahead.id,
          branch: ahead.branch,
          head: row.head,
          selected: false,
          status: 'failed',
          reason,
        });
      }
    }
    const own = await acceptEffort(input, landing, live, governing, earlier);
    return landed.length === 0 ? own : withEarlierLandings(landed, own, effort, mcp);
  });
  if (serialised === 'busy')
    return {
      refusal: {
        error: 'incomplete',
        message:
          'Another acceptance has been landing in this repository for over 30 s; call again once it has finished.',
        next: { wait: `let the other acceptance finish (\`${statusCall}\` shows it)` },
      },
    };
  return serialised;
}

async function acceptEffort(
  input: DiscernAcceptInput,
  landing: Landing,
  efforts: readonly Effort[],
  governing: Governing,
  earlier: DiscernStep[],
): Promise<AcceptOutcome> {
  const { ctx, paths, effort, mainRoot, trunk } = landing;
  const { scopes } = governing;
  const { project } = ctx;
  const mcp = ctx.surface === 'mcp';
  const run = { cwd: mainRoot, env: ctx.env };

  const state = await readWorkingState(effort.path, ctx.env, ctx.signal, { submodules: 'strict' });
  if (state.detached || state.head === null || state.branch !== effort.branch) {
    return {
      refusal: {
        error: 'detached_head',
        message: `The effort's worktree (${effort.path}) is not on its branch ${effort.branch}.`,
        next: { rerun: mcp ? 'discern_accept' : 'discern accept' },
      },
    };
  }
  if (state.changed > 0) {
    return {
      refusal: {
        error: 'dirty_worktree',
        message: `The effort's worktree (${effort.path}) has ${state.changed} uncommitted change${state.changed === 1 ? '' : 's'}: acceptance takes an exact commit. Commit them, run done, then accept.`,
        next: {
          rerun: mcp ? 'discern_accept' : 'discern accept',
          standalone: mcp ? 'discern_done with standalone: true' : 'discern done --standalone',
        },
      },
    };
  }
  const head = state.head;
  // Nothing of this effort is off the trunk: there is nothing to land (and no note to write over another's).
  if (await trunkContains(run, trunk, head)) {
    return {
      refusal: {
        error: 'precondition_failed',
        message: `${effort.branch} at ${head.slice(0, 12)} is already on ${trunk}: there is nothing to land. Commit the work first, or remove the effort with \`discern worktree teardown ${effort.id}\`.`,
        next: { rerun: mcp ? 'discern_accept' : 'discern accept' },
      },
    };
  }

  // The changed paths decide standing authority; the merge-base is with the trunk as it is now.
  const changed = await changedPaths(run, trunk, head);
  // A grant counts only on the branch it was given for: the effort id alone comes from an editable record.
  const granted = await grants.read(paths, effort.id);
  const grant = granted?.branch === effort.branch ? granted : undefined;
  const verdict = decideAuthority({
    confirmed: input.confirmed === true,
    ...(grant ? { grant } : {}),
    preAuthorized: governing.preAuthorized,
    scopes,
    changed,
  });

  // Checkpoint declarations for the effort's own change are recorded first: its Proof then carries them.
  const declared: CallDeclarations | { refusal: AcceptOutcome } =
    input.dry_run === true
      ? { declarations: { met: [], unmet: [] }, given: false }
      : await recordEffortDeclarations(input, effort, head, ctx);
  if ('refusal' in declared) return declared.refusal;

  // Proof for this exact HEAD: the marker when current, else the gate runs now (not for a dry run).
  const marker = await readProofMarker(join(effort.gitDir, 'discern', 'gate-proof'), project.commonDir);
  const identity = configIdentity(project.config, trunk);
  const current =
    marker.state === 'present' &&
    markerIsCurrent(marker.marker, head, identity, VERSION) &&
    // Proof judged under another trunk policy is stale: the gate runs again under this one.
    marker.marker.policy_digest === governing.digest &&
    (await declarationsCurrent(marker.marker, effort.gitDir))
      ? marker.marker
      : undefined;
  if (current?.mode === 'report')
    return {
      refusal: {
        error: 'report_only_proof',
        message:
          "This commit's Proof was recorded in report mode (ci): it cannot authorize a landing. Run done without ci.",
        next: { rerun: mcp ? 'discern_done' : 'discern done' },
      },
    };

  const queueNow = async (submission?: Submission): Promise<NonNullable<DiscernAcceptData['queue']>> =>
    queueRows(paths, efforts, scopes, governing.config, trunk, run, submission);
  // How the effort's committed discern.toml differs from the trunk's policy, read from its commit.
  const policyChanges = await effortPolicyChanges(
    governing,
    effort.path,
    ctx.env,
    head,
    governing.tip ?? `refs/heads/${trunk}`,
    changed,
  );
  const policyData = policyChanges.length > 0 ? { policy_changes: policyChanges } : {};

  if (input.dry_run === true) {
    const planned = await submissions.read(paths, effort.id);
    const trunkTip = (await git(['rev-parse', `refs/heads/${trunk}`], run)).stdout.trim();
    const ff = (await git(['merge-base', '--is-ancestor', trunkTip, head], run)).code === 0;
    const queue = await queueNow();
    const verdictLine = !current
      ? 'the gate would run first (no current Proof for HEAD)'
      : verdict.authorized
        ? `it would land by ${ff ? 'fast-forward' : 'composing it with the moved trunk'} (${verdict.consent?.source})`
        : "it would wait for the owner's consent";
    return {
      dry_run: true,
      plan: {
        title: `accept ${effort.id} at ${head.slice(0, 12)}: ${verdictLine}`,
        details: [
          `branch ${effort.branch}`,
          `worktree ${effort.path}`,
          `${changed.length} changed path${changed.length === 1 ? '' : 's'}`,
          ...policyDetails(policyChanges),
        ],
        steps: VERBS.accept.execution.steps.map((s) => ({ kind: s.kind, label: s.label, disposition: 'run' as const })),
      },
      data: {
        revision: {
          effort: effort.id,
          path: effort.path,
          branch: effort.branch,
          head,
          ...(current ? { proof: current.proof } : {}),
        },
        submission: {
          state: 'planned',
          authority: verdict.queue,
          ...(planned?.head === head
            ? { submission_id: planned.submission_id, submitted_at: planned.submitted_at }
            : {}),
        },
        ...(queue && queue.length > 0 ? { queue } : {}),
        landing_authority: verdict.landing,
        ...policyData,
      },
    };
  }

  let proof: DiscernProofSummary;
  let standards: readonly DiscernGateStandard[];
  let validation: NonNullable<DiscernAcceptData['gate_validation']>;
  const steps: DiscernStep[] = [...earlier];
  if (current) {
    proof = current.proof;
    standards = current.standards;
    validation = { mode: 'proof', commit: head };
  } else {
    // The gate is this call's work: its handle is announced first (not for a queue-only call, whose gate is
    // done's own run with done's own handle).
    if (input.action !== 'queue') await landing.run?.open();
    const gated = await runGate(effort.path, ctx, input.action !== 'queue' ? landing.run : undefined);
    if ('refusal' in gated) return gated.refusal;
    proof = gated.proof;
    standards = gated.standards;
    steps.push(...gated.steps);
    validation = { mode: 'rerun', commit: head };
  }

  const scopesChanged = classify(
    changed.map((path) => ({ path })),
    scopes,
  ).scopes;

  // Record (or keep) the submission: the same revision keeps its place in the queue.
  const previous = await submissions.read(paths, effort.id);
  const submission: Submission =
    previous?.head === head
      ? previous
      : {
          format: RECORD_FORMAT,
          submission_id: `S-${randomBytes(6).toString('hex')}`,
          effort: effort.id,
          branch: effort.branch,
          path: effort.path,
          head,
          submitted_at: new Date().toISOString(),
        };
  if (submission !== previous) await submissions.write(paths, submission);
  const revision = { effort: effort.id, path: effort.path, branch: effort.branch, head, proof };
  const submissionData = {
    state: 'queued' as const,
    submission_id: submission.submission_id,
    submitted_at: submission.submitted_at,
    authority: verdict.queue,
    ...(previous && previous.head !== head ? { replaces: previous.head } : {}),
  };

  if (input.action === 'queue') {
    // Queueing is the acceptance this call asked for: its required outcome is the recorded submission.
    return {
      ...(steps.length > 0 ? { steps } : {}),
      held: ['accept-landing'],
      data: {
        revision,
        submission: submissionData,
        queue: await queueNow(submission),
        landing_authority: verdict.landing,
      },
      hints: [VERBS.accept.hints.queued.replace('{target}', effort.id)],
    };
  }

  // A change to the trunk's policy lands only with the owner's approval of it (accept-policy.ts).
  const personAsked = asksThePerson(ctx, input);
  const policy = policyApproval(input, policyChanges, effort, head, trunk, mcp, personAsked);
  if (!policy.ok) {
    return {
      ...(steps.length > 0 ? { steps } : {}),
      data: {
        revision,
        submission: submissionData,
        queue: await queueNow(submission),
        landing_authority: verdict.landing,
        policy_changes: policyChanges,
      },
      refusal: {
        error: 'awaiting_policy_approval',
        message: policy.message,
        next: { call: mcp ? 'discern_accept' : `discern accept ${effort.id}` },
      },
    };
  }
  const policyFact = {
    policy: { digest: governing.digest, tip: governing.tip, changes: policyChanges, approved: policy.approved },
    // What the landing's Proof note records as completed, decided now (the note is written after the move).
    completion: {
      candidate_id: submission.submission_id,
      policy: governing.digest,
      requirements: policyRequirements(governing.config),
      readings: Object.fromEntries(standards.map((s) => [s.name, s.value ?? null])),
    },
  };
  // Loosened standards the Proof passed under land only with the owner's approval (accept-standards.ts).
  const approval = standardApproval(input, proof, effort, head, mcp);
  if (!approval.ok) {
    return {
      ...(steps.length > 0 ? { steps } : {}),
      data: {
        revision,
        submission: submissionData,
        queue: await queueNow(submission),
        landing_authority: verdict.landing,
        standard_approvals_required: approval.required,
      },
      refusal: { error: 'awaiting_standard_approval', message: approval.message, next: {} },
    };
  }
  // An unmet stop checkpoint lands only with the owner's variance.
  const judged = effortVariances(input, proof, ctx, { revision, submission: submissionData });
  if ('refusal' in judged) return { ...(steps.length > 0 ? { steps } : {}), ...judged.refusal };
  const checkpointFacts = { input, declared, variances: judged.variances };

  if (input.grant === true) {
    const granted = {
      format: RECORD_FORMAT,
      effort: effort.id,
      branch: effort.branch,
      granted_at: new Date().toISOString(),
    } as const;
    await grants.write(paths, granted);
    return withApprovals(
      withPolicy(
        await land(landing, {
          head,
          proof,
          validation,
          steps,
          consent: { source: 'grant' },
          revision,
          submissionData: { ...submissionData, authority: 'pre-authorized' },
          changedScopes: scopesChanged,
          ...checkpointFacts,
          ...policyFact,
        }),
        policyFact.policy,
      ),
      approval.approvals,
    );
  }
  // A client that can ask the person does: their answer, not the agent's confirmed, is the consent (and their
  // approval of the policy changes the form lists).
  let consent: LandingConsent | undefined = verdict.consent;
  if (personAsked && verdict.authorized && (verdict.consent?.source === 'conversation' || policy.approved)) {
    const asked = await askForConsent(
      ctx,
      { branch: effort.branch, head, trunk, proofLine: proof.line, policyChanges, changedPaths: changed.length },
      effort.id,
    );
    if (!asked.ok)
      return {
        ...(steps.length > 0 ? { steps } : {}),
        data: {
          revision,
          submission: submissionData,
          queue: await queueNow(submission),
          landing_authority: verdict.landing,
          ...policyData,
        },
        refusal: asked.refusal,
      };
    // Standing authority stays the landing's authority; the person's answer approved its policy changes.
    if (verdict.consent?.source === 'conversation') consent = asked.consent;
  }
  if (!verdict.authorized || consent === undefined) {
    return {
      ...(steps.length > 0 ? { steps } : {}),
      data: {
        revision,
        submission: submissionData,
        queue: await queueNow(submission),
        landing_authority: verdict.landing,
      },
      refusal: {
        error: 'awaiting_consent',
        message: `Landing ${effort.branch} at ${head.slice(0, 12)} needs the owner's consent: no grant covers it${verdict.landing.uncovered_total ? ` (${verdict.landing.uncovered_total} changed path${verdict.landing.uncovered_total === 1 ? ' is' : 's are'} outside every pre_authorized scope)` : ''}. It waits in the landing queue. Relay this Proof line to the owner and ask: ${proof.line}`,
        next: {},
      },
    };
  }
  return withApprovals(
    withPolicy(
      await land(landing, {
        head,
        proof,
        validation,
        steps,
        consent,
        revision,
        submissionData,
        changedScopes: scopesChanged,
        ...checkpointFacts,
        ...policyFact,
      }),
      policyFact.policy,
    ),
    approval.approvals,
  );
}

/** The selected effort's own outcome, with the submissions landed ahead of it in this call. */
function withEarlierLandings(
  landed: NonNullable<DiscernAcceptData['landings']>,
  own: AcceptOutcome,
  effort: Effort,
  mcp: boolean,
): AcceptOutcome {
  const ownData = own.data && !('issues' in own.data) ? own.data : {};
  const mine = ownData.landings?.[0] ?? {
    effort: effort.id,
    branch: effort.branch,
    head: ownData.revision?.head ?? '',
    selected: true,
    status: 'refused' as const,
    ...(own.refusal ? { reason: own.refusal.message } : {}),
  };
  const data = { ...ownData, landings: [...landed, mine] };
  const ahead = landed.filter((l) => l.status === 'landed');
  if (own.refusal === undefined || own.refusal.error === 'awaiting_consent' || ahead.length === 0)
    return { ...own, data };
  return {
    ...own,
    data,
    refusal: {
      error: 'partial_acceptance',
      message: `Landed ${ahead.map((l) => l.effort).join(', ')} ahead of it, then ${effort.id} did not land: ${own.refusal.message}`,
      next: {
        recovery: mcp
          ? 'read data.landings, fix what stopped it, then call discern_accept again'
          : 'read data.landings, fix what stopped it, then run `discern accept` again',
      },
    },
  };
}

interface Landing {
  ctx: ProjectVerbContext;
  paths: AcceptancePaths;
  effort: Effort;
  mainRoot: string;
  trunk: string;
  trunkCheckout: string | undefined;
  outputDir: string;
  /** [repository] proof_notes of the policy the landing is under: with fetch, fetched notes are merged. */
  notesMode?: 'local' | 'fetch';
  /**
   * The trunk's configuration the landing is decided under (its tip's, never the change's): what an integration
   * worktree is set up with — its copies, ensure and setup commands are policy, and a change must not choose which
   * of the main checkout's ignored directories reach the checkout its own jobs run in.
   */
  trunkConfig: DiscernConfig;
  /** The call's progress record (absent for a dry run and a recovery). */
  run?: AcceptRun;
}

interface LandingFacts {
  head: string;
  proof: DiscernProofSummary;
  validation: NonNullable<DiscernAcceptData['gate_validation']>;
  steps: DiscernStep[];
  consent: LandingConsent;
  revision: NonNullable<DiscernAcceptData['revision']>;
  submissionData: NonNullable<DiscernAcceptData['submission']>;
  changedScopes?: string[] | undefined;
  /** Checkpoints: the call (its receipt and variance), its declarations, and the variances granted so far. */
  input?: DiscernAcceptInput;
  declared?: CallDeclarations;
  variances?: Variance[];
  /** The trunk's policy the landing was decided under, and the changes to it the landing carries. */
  policy?: LandingPolicy;
  /** What the Proof note records as the landing's completion (transaction completion_facts). */
  completion?: CompletionRecord;
}

/** A deterministic kill at a named landing step, for the crash tests (docs/decisions/0007). */
function crashPoint(env: Env, step: string): void {
  if (faultRequested(env, `accept:${step}`)) process.kill(process.pid, 'SIGKILL');
}

async function land(l: Landing, f: LandingFacts): Promise<AcceptOutcome> {
  const { ctx, paths, effort, mainRoot, trunk } = l;
  const run = { cwd: mainRoot, env: ctx.env };
  const mcp = ctx.surface === 'mcp';
  const steps = f.steps;
  const trunkBefore = (await git(['rev-parse', `refs/heads/${trunk}`], run)).stdout.trim();
  // The decision was made under the trunk's policy at its tip then: a trunk moved since must hold the same policy.
  const policyMoved = await policyMovedSince(f.policy, trunkBefore, policyFacts(ctx));
  if (policyMoved !== undefined)
    return {
      steps,
      data: { revision: f.revision, submission: f.submissionData },
      refusal: {
        error: 'precondition_failed',
        message: `${policyMoved} Nothing moved; call again to judge ${effort.branch} under the trunk's policy as it is now.`,
        next: { rerun: mcp ? 'discern_accept' : 'discern accept' },
      },
    };
  const fastForward = (await git(['merge-base', '--is-ancestor', trunkBefore, f.head], run)).code === 0;

  // A dirty checkout of the trunk refuses before anything moves.
  const movable = await trunkMovable(run, trunk, trunkBefore, l.trunkCheckout);
  if (!movable.ok && movable.reason === 'operation_in_progress')
    return {
      steps,
      data: { revision: f.revision, submission: f.submissionData },
      refusal: {
        error: 'precondition_failed',
        message: `${movable.message}.`,
        next: { rerun: mcp ? 'discern_accept' : 'discern accept' },
      },
    };
  if (!movable.ok)
    return {
      steps,
      data: { revision: f.revision, submission: f.submissionData },
      refusal: {
        error: 'dirty_worktree',
        message: `${movable.message}.`,
        next: {
          rerun: mcp ? 'discern_accept' : 'discern accept',
          standalone: mcp ? 'discern_done with standalone: true' : 'discern done --standalone',
        },
      },
    };

  if (fastForward && f.input?.composition_receipt !== undefined) {
    await removeComposition(ctx.project.commonDir, effort.id);
    return {
      steps,
      data: { revision: f.revision, submission: f.submissionData },
      refusal: {
        error: 'precondition_failed',
        message: `composition_receipt "${f.input.composition_receipt}" names a composition, but ${trunk} has not moved since ${effort.branch}'s Proof: nothing is composed, and answers bound to that receipt would answer nothing. Call again without composition_receipt.`,
        next: { rerun: mcp ? 'discern_accept' : 'discern accept' },
      },
    };
  }
  const tx: Transaction = {
    format: RECORD_FORMAT,
    effort: effort.id,
    branch: effort.branch,
    path: effort.path,
    head: f.head,
    trunk,
    trunk_before: trunkBefore,
    ...(fastForward ? { landing: f.head, proof: f.proof } : {}),
    step: 'started',
    started_at: new Date().toISOString(),
    consent: f.consent,
    ...(f.variances && f.variances.length > 0 ? { variances: f.variances } : {}),
    ...(f.completion ? { completion_facts: f.completion } : {}),
  };
  await l.run?.open();
  l.run?.phase(
    'land',
    fastForward
      ? `landing ${effort.branch} on ${trunk} by fast-forward`
      : `composing ${effort.branch} with the moved ${trunk}`,
  );
  await transactions.write(paths, tx);
  crashPoint(ctx.env, 'started');

  let landingCommit = f.head;
  let proof = f.proof;
  let validation = f.validation;
  if (!fastForward) {
    const composed = await compose(l, f, tx, trunkBefore);
    if ('refusal' in composed) return composed.refusal;
    landingCommit = composed.commit;
    proof = composed.proof;
    // Kept before the trunk moves, so a landing resumed after a kill still writes the composed Proof's note.
    await advance(paths, tx, 'composed', { landing: landingCommit, proof, proof_line: proof.line });
    validation = { mode: 'rerun', composed: true, commit: composed.commit };
    steps.push(...composed.steps);
  }

  // The trunk's checkout is about to move: what it ignores and the landing starts tracking is saved first.
  if (l.trunkCheckout !== undefined) {
    const guarded = await keepWhatIncomingOverwrites(
      l.trunkCheckout,
      trunkBefore,
      landingCommit,
      ctx.env,
      await trunkKeepsIgnoredFiles(mainRoot, trunkBefore, ctx.env),
    );
    if (!guarded.ok) {
      await rollBack(l, tx);
      await transactions.remove(paths, effort.id);
      const untracked = guarded.reason === 'untracked';
      return {
        steps,
        data: { revision: f.revision, submission: f.submissionData },
        refusal: untracked
          ? {
              error: 'dirty_worktree',
              message: `Nothing landed: ${trunk}'s checkout at ${l.trunkCheckout} has untracked ${guarded.paths.length === 1 ? 'file' : 'files'} that the landing would overwrite: ${guarded.paths.slice(0, 5).join(', ')}${guarded.paths.length > 5 ? ', …' : ''}. Commit, move or ignore ${guarded.paths.length === 1 ? 'it' : 'them'} there first.`,
              next: {
                rerun: mcp ? 'discern_accept' : 'discern accept',
                standalone: mcp ? 'discern_done with standalone: true' : 'discern done --standalone',
              },
            }
          : {
              error: 'apply_failed',
              message: `Nothing landed: the files ${trunk}'s checkout would lose could not be checked (${guarded.message}).`,
              next: {
                recovery: `fix what git names, then ${mcp ? 'call discern_accept again' : 'run `discern accept` again'}`,
              },
            },
      };
    }
    if (guarded.kept.length > 0) {
      await advance(paths, tx, tx.step, { ignored_kept: guarded.kept });
      steps.push({
        kind: 'git',
        label: `save ${guarded.kept.length} ignored file${guarded.kept.length === 1 ? '' : 's'} the landing replaces in ${trunk}'s checkout`,
        disposition: 'run',
        note: guarded.kept.map((k) => k.path).join(', '),
        outcome: 'ok',
        duration_s: 0,
      });
    }
  }
  const moved = await moveTrunk(run, trunk, trunkBefore, landingCommit, l.trunkCheckout);
  // git can report a failure after the ref moved (a checkout that could not follow, a re-read that raced):
  // the trunk is the truth, and once it holds the landing commit the landing happened.
  const landedAnyway = !moved.ok && (await trunkContains(run, trunk, landingCommit));
  steps.push({
    kind: 'git',
    label: `${fastForward ? 'fast-forward' : 'move'} ${trunk} to ${landingCommit.slice(0, 12)}`,
    disposition: 'run',
    ...(landedAnyway ? { note: `${trunk} holds it, although git reported: ${moved.ok ? '' : moved.message}` } : {}),
    outcome: moved.ok || landedAnyway ? 'ok' : 'failed',
    duration_s: 0,
  });
  if (!moved.ok && !landedAnyway) {
    await rollBack(l, tx);
    await transactions.remove(paths, effort.id);
    return {
      steps,
      data: { revision: f.revision, submission: f.submissionData },
      refusal: {
        error: 'apply_failed',
        message: `Nothing landed: ${moved.message}.`,
        next: {
          recovery: mcp
            ? 'call discern_accept again (it composes with the new trunk)'
            : 'run `discern accept` again (it composes with the new trunk)',
        },
      },
    };
  }
  try {
    await advance(paths, tx, 'trunk_landed', { landing: landingCommit, proof, proof_line: proof.line });
    crashPoint(ctx.env, 'trunk_landed');
    return await finish(l, tx, {
      steps,
      proof,
      validation,
      submissionData: f.submissionData,
      revision: f.revision,
      recovered: false,
      fastForward,
      changedScopes: f.changedScopes,
    });
  } catch (error) {
    return landedUnfinished(l, tx, steps, landingCommit, error);
  }
}

/**
 * The trunk moved, then a required step of the landing's record keeping failed: never apply_failed (the work
 * is on the trunk), but partial_acceptance, with what is true and the call that finishes the rest.
 */
function landedUnfinished(
  l: Landing,
  tx: Transaction,
  steps: DiscernStep[],
  landed: string,
  error: unknown,
): AcceptOutcome {
  const mcp = l.ctx.surface === 'mcp';
  const why = error instanceof Error ? error.message : String(error);
  return {
    steps,
    data: {
      revision: { effort: l.effort.id, path: l.effort.path, branch: l.effort.branch, head: tx.head },
      landing: {
        recovery_performed: false,
        trunk_landed: true,
        landed_commit: landed,
        worktree_removed: !existsSync(l.effort.path),
        branch_deleted: false,
      },
      root: l.mainRoot,
    },
    refusal: {
      error: 'partial_acceptance',
      message: `${l.trunk} now holds ${landed.slice(0, 12)} (${l.effort.branch} landed), but finishing the landing failed: ${why}.`,
      next: {
        recovery: mcp
          ? `call discern_accept with target "${l.effort.id}" again: it finds the landing on ${l.trunk} and finishes it`
          : `run \`discern accept ${l.effort.id}\` again: it finds the landing on ${l.trunk} and finishes it`,
      },
    },
  };
}

/** The result's proof_note.write: how the write went, and the signature the note carries or why it has none. */
function noteWriteData(
  note: NoteWrite | { status: 'missing_proof'; ref: string; commit: string },
  signed: Transaction['note'],
): NonNullable<DiscernAcceptData['proof_note']>['write'] {
  const written = note.status !== 'record_failed' && note.status !== 'missing_proof';
  const unsigned = written && signed?.unsigned !== undefined;
  return {
    // A note written without a signature says so first: it records the landing but never verifies.
    status: unsigned ? 'unsigned' : note.status,
    ref: note.ref,
    commit: note.commit,
    ...('reason' in note ? { reason: note.reason } : {}),
    ...(note.status === 'replaced' ? { reason: replacedNoteReason(note.commit, note.previous) } : {}),
    ...(unsigned ? { reason: signed?.unsigned ?? '' } : {}),
    ...(written && signed?.signature ? { signature: signed.signature } : {}),
  };
}

/** What the result says about a note this landing replaced: that it did, and the note itself (capped). */
function replacedNoteReason(commit: string, previous: string): string {
  const shown = previous.length > 2000 ? `${previous.slice(0, 2000)}…` : previous;
  return `${commit.slice(0, 12)} already carried a note discern did not write; it was replaced by this landing's Proof note. It read: ${shown}`;
}

async function advance(
  paths: AcceptancePaths,
  tx: Transaction,
  step: TransactionStep,
  extra: Partial<Transaction> = {},
): Promise<void> {
  Object.assign(tx, extra, { step });
  await transactions.write(paths, tx);
}

interface Finishing {
  steps: DiscernStep[];
  proof: DiscernProofSummary | undefined;
  validation?: NonNullable<DiscernAcceptData['gate_validation']>;
  submissionData?: NonNullable<DiscernAcceptData['submission']>;
  revision?: NonNullable<DiscernAcceptData['revision']>;
  recovered: boolean;
  recoveredFrom?: TransactionStep;
  fastForward?: boolean;
  changedScopes?: string[] | undefined;
}

/** Everything after the trunk holds the commit: the note, resources, worktree, branch, records. */
async function finish(l: Landing, tx: Transaction, f: Finishing): Promise<AcceptOutcome> {
  l.run?.phase('finish', `${l.trunk} holds the landing: writing its Proof note and removing ${l.effort.id}'s worktree`);
  const { ctx, paths, effort, mainRoot, trunk } = l;
  const env = ctx.env;
  const landed = tx.landing ?? tx.head;
  const steps = f.steps;
  const proofLine = tx.proof_line ?? f.proof?.line ?? `discern Proof: ${trunk} @ ${landed.slice(0, 12)}`;

  // Notes fetched from the remotes join the local ones first ([repository] proof_notes = "fetch").
  const fetched =
    l.notesMode === 'fetch' ? await mergeFetchedNotes(l.ctx.project.commonDir, { cwd: mainRoot, env }) : undefined;
  let note: NoteWrite | { status: 'missing_proof'; ref: string; commit: string };
  let signed: NonNullable<Transaction['note']> | undefined = tx.note;
  if (f.proof !== undefined) {
    // The body is signed once and kept: a landing resumed after a kill writes exactly the same note.
    if (signed === undefined) {
      const made = await signedLandingNote({
        cwd: mainRoot,
        env,
        trunk,
        source: { id: effort.id, branch: effort.branch, head: tx.head },
        landed,
        predecessor: tx.trunk_before,
        proof: f.proof,
        sourceProof: f.revision?.proof,
        line: proofLine,
        acceptance: {
          consent: tx.consent,
          ...(tx.variances && tx.variances.length > 0 ? { variances: tx.variances } : {}),
        },
        decided: tx.completion_facts,
      });
      signed = {
        body: made.body,
        ...(made.signature ? { signature: made.signature } : {}),
        ...(made.unsigned !== undefined ? { unsigned: made.unsigned } : {}),
      };
      await advance(paths, tx, tx.step, { note: signed });
    }
    // A note on the landing commit that this landing did not write is replaced; its body is kept first.
    note = await writeProofNote(l.ctx.project.commonDir, { cwd: mainRoot, env }, landed, signed.body, (previous) =>
      advance(paths, tx, tx.step, { replaced_note: { ref: NOTES_REF, body: previous } }),
    );
  } else {
    note = { status: 'missing_proof', ref: 'refs/notes/discern', commit: landed };
  }
  steps.push({
    kind: 'git',
    label: 'write the Proof note',
    disposition: 'run',
    note: note.ref,
    outcome: note.status === 'record_failed' ? 'skipped' : 'ok',
    duration_s: 0,
  });
  await advance(paths, tx, 'note_written');
  crashPoint(env, 'note_written');

  const advisories: NonNullable<AcceptOutcome['advisories']> = [];
  if (note.status === 'record_failed' || note.status === 'missing_proof') {
    advisories.push({
      kind: 'proof-recording-unavailable',
      evidence: [
        `the Proof note on ${landed.slice(0, 12)} was not written: ${'reason' in note ? note.reason : 'no Proof was at hand'}`,
      ],
      next_action:
        'The landing stands; the note is a record only. Check `git notes --ref=refs/notes/discern` when convenient.',
    });
  } else if (signed?.unsigned !== undefined) {
    advisories.push(unsignedNoteAdvisory(landed, signed.unsigned));
  }

  let destroyed: string[] = [];
  let removed = !existsSync(effort.path);
  // The worktree is checked again now: after a recovery, or while earlier landings ran, its agent may have kept
  // working in it. Work there is never removed; the landing stands and the worktree stays.
  // A read that fails is not a clean worktree: what cannot be seen is kept.
  const looked = removed
    ? undefined
    : await readWorkingState(effort.path, env).then(
        (state) => ({ state }),
        (error: unknown) => ({ unreadable: error instanceof Error ? error.message : String(error) }),
      );
  const now = looked !== undefined && 'state' in looked ? looked.state : undefined;
  const unreadable = looked !== undefined && 'unreadable' in looked ? looked.unreadable : undefined;
  if (unreadable !== undefined)
    advisories.push({
      kind: 'acceptance-cleanup-incomplete',
      evidence: [`the state of the worktree ${effort.path} could not be read (${unreadable}): it was kept`],
      next_action: `Look at ${effort.path}; remove it with \`discern worktree teardown ${effort.id}\` when its work is done.`,
    });
  const busy = unreadable !== undefined || (now !== undefined && (now.changed > 0 || now.head !== tx.head));
  if (busy && now !== undefined) {
    advisories.push({
      kind: 'acceptance-cleanup-incomplete',
      evidence: [
        `the worktree ${effort.path} has ${now.changed > 0 ? 'uncommitted changes' : 'moved on to another commit'}: it was kept`,
      ],
      next_action: `Look at ${effort.path}; remove it with \`discern worktree teardown ${effort.id}\` when its work is done.`,
    });
  }
  if (!removed && !busy) {
    const resources = await destroyResources(
      effort.record,
      effort.path,
      env,
      l.outputDir,
      steps,
      projectSecrets(ctx.project),
      l.run?.listener,
    );
    destroyed = resources.destroyed;
    await advance(paths, tx, 'resources_destroyed');
    crashPoint(env, 'resources_destroyed');
    await moveInstallsAside(l.trunkConfig, ctx.project.commonDir, effort.path, env);
    removed = await removeWorktree(mainRoot, effort.path, env, steps);
    await emptyTrashSoon(ctx.project.commonDir, mainRoot, env);
    if (removed) await advance(paths, tx, 'worktree_removed');
    crashPoint(env, 'worktree_removed');
    if (resources.failed.length > 0)
      advisories.push({
        kind: 'acceptance-cleanup-incomplete',
        evidence: resources.failed.map((r) => `resource ${r} could not be destroyed`) as [string, ...string[]],
        next_action: `Destroy ${resources.failed.join(', ')} by hand; the landing stands.`,
      });
  }
  // A branch still checked out in a kept worktree stays with it.
  const branch = removed
    ? await deleteBranchIfLanded(mainRoot, effort.branch, trunk, env, steps)
    : { deleted: false, reason: 'its worktree was kept' };
  if (branch.deleted) await advance(paths, tx, 'branch_deleted');
  crashPoint(env, 'branch_deleted');
  if (!removed && !busy)
    advisories.push({
      kind: 'acceptance-cleanup-incomplete',
      evidence: [`the worktree ${effort.path} could not be removed`],
      next_action: `Remove it by hand (\`git worktree remove --force ${effort.path}\`); the landing stands.`,
    });
  if (!branch.deleted && removed)
    advisories.push({
      kind: 'acceptance-cleanup-incomplete',
      evidence: [`branch ${effort.branch} was kept: ${branch.reason ?? 'unknown'}`],
      next_action: `Look at ${effort.branch}: it holds work the trunk does not.`,
    });
  if (tx.integration) await dropIntegration(mainRoot, tx.integration, env, trunkSide(l));

  await submissions.remove(paths, effort.id);
  await grants.remove(paths, effort.id);
  await transactions.remove(paths, effort.id);
  await removeComposition(ctx.project.commonDir, effort.id);

  // The checkout that follows the trunk now holds the landed tree: it converges ([repository] ensure), so what
  // runs there next (and the next effort's copy of its installed dependencies) matches the trunk. The landing
  // stands whatever ensure does; a failure is an advisory with its output.
  if (l.trunkCheckout !== undefined) {
    // The trunk's configuration now: the landed commit's, which the trunk checkout holds (a change to ensure is a
    // policy change, landed only with the owner's approval). One that does not load runs nothing.
    const landedConfig = await loadConfig(join(l.trunkCheckout, 'discern.toml'));
    const trunkNow = landedConfig.ok ? landedConfig.config : {};
    const trunkEnsure = commandList(trunkNow.repository?.ensure);
    if (trunkEnsure.length > 0) l.run?.phase('ensure', `converging ${trunk}'s checkout ([repository] ensure)`);
    // A landing that changed no lockfile or manifest leaves the install ensure converged last time as it was.
    const converged = await convergedReason(
      ctx.project.commonDir,
      l.trunkCheckout,
      l.trunkCheckout,
      await installDigest(l.trunkCheckout, trunkNow, trunkEnsure, env),
    );
    const ensured = await runSetupSteps({
      id: '',
      branch: trunk,
      path: l.trunkCheckout,
      mainRoot,
      env,
      signal: ctx.signal,
      outputDir: l.outputDir,
      envFiles: [],
      ensure: trunkEnsure,
      ...(converged !== undefined ? { ensureConverged: converged } : {}),
      ensureTimeoutS: trunkNow.gate?.timeout ?? DEFAULT_GATE_TIMEOUT_S,
      resources: [],
      ...(l.run ? { listener: l.run.listener } : {}),
      secrets: projectSecrets(ctx.project, l.trunkCheckout),
    });
    steps.push(...ensured.steps);
    // What this ensure converged is stamped: the next composition's copy, and the next landing, can rely on it.
    if (ensured.ok && converged === undefined) {
      const digest = await installDigest(l.trunkCheckout, trunkNow, trunkEnsure, env);
      if (digest !== undefined) await writeEnsureStamp(ctx.project.commonDir, l.trunkCheckout, digest);
    }
    if (!ensured.ok)
      advisories.push({
        kind: 'ensure-failed-after-landing',
        evidence: [
          `in ${l.trunkCheckout}: ${ensured.message}`,
          ...ensured.steps.flatMap((s) =>
            s.outcome === 'ok' || s.output_path === undefined ? [] : [`output: ${s.output_path}`],
          ),
        ],
        next_action: `The landing stands. Fix the ensure command, then run it in ${l.trunkCheckout} (\`discern worktree ensure\` covers efforts' worktrees).`,
      });
  }
  await sweepLandingOutputs(ctx.project.commonDir, basename(l.outputDir));

  const hint =
    ctx.surface === 'mcp' ? VERBS.accept.hints.landed_mcp.replace('{root}', mainRoot) : VERBS.accept.hints.landed;
  return {
    steps,
    ...(advisories.length > 0 ? { advisories } : {}),
    held: ['accept-landing'],
    data: {
      revision: f.revision ?? { effort: effort.id, path: effort.path, branch: effort.branch, head: tx.head },
      ...(f.submissionData ? { submission: f.submissionData } : {}),
      landings: [
        {
          effort: effort.id,
          branch: effort.branch,
          head: tx.head,
          selected: true,
          status: 'landed',
          landed_commit: landed,
          proof_line: proofLine,
        },
      ],
      consent: tx.consent as LandingConsent,
      ...(tx.variances && tx.variances.length > 0 ? { variances: tx.variances } : {}),
      ...(f.changedScopes ? { scopes_changed: f.changedScopes } : {}),
      ...(f.validation ? { gate_validation: f.validation } : {}),
      landing: {
        recovery_performed: f.recovered,
        ...(f.recoveredFrom ? { recovered_from: f.recoveredFrom } : {}),
        trunk_landed: true,
        landed_commit: landed,
        ...(f.fastForward !== undefined ? { fast_forward: f.fastForward } : {}),
        worktree_removed: removed,
        branch_deleted: branch.deleted,
        ...(destroyed.length > 0 ? { resources_destroyed: destroyed } : {}),
      },
      root: mainRoot,
      ...(tx.ignored_kept && tx.ignored_kept.length > 0 ? { ignored_file_changes: tx.ignored_kept } : {}),
      proof_line: proofLine,
      ...(f.proof ? { proof: { ...f.proof, line: proofLine } } : {}),
      proof_note: {
        write: noteWriteData(note, signed),
        ...(fetched
          ? {
              fetch: {
                status:
                  fetched.failed !== undefined ? 'failed' : fetched.merged.length > 0 ? 'merged' : 'nothing_fetched',
                merged_refs: fetched.merged,
                ...(fetched.failed !== undefined ? { reason: fetched.failed } : {}),
              },
            }
          : {}),
      },
    },
    hints: [
      ...(tx.ignored_kept && tx.ignored_kept.length > 0
        ? [
            `The landing replaced ${tx.ignored_kept.length} ignored file${tx.ignored_kept.length === 1 ? '' : 's'} in ${trunk}'s checkout (${tx.ignored_kept.map((k) => k.path).join(', ')}); each was saved first, and data.ignored_file_changes has the command that restores it.`,
          ]
        : []),
      hint,
    ],
  };
}

/** Trunk + branch composed in an integration worktree under the git common dir, and the gate run there. */
async function compose(
  l: Landing,
  f: LandingFacts,
  tx: Transaction,
  trunkTip: string,
): Promise<{ commit: string; proof: DiscernProofSummary; steps: DiscernStep[] } | { refusal: AcceptOutcome }> {
  const { ctx, paths, effort, mainRoot, trunk } = l;
  const env = ctx.env;
  const run = { cwd: mainRoot, env };
  const mcp = ctx.surface === 'mcp';
  const steps: DiscernStep[] = [];
  const back = async (outcome: AcceptOutcome): Promise<{ refusal: AcceptOutcome }> => {
    await rollBack(l, tx);
    await transactions.remove(paths, effort.id);
    await removeComposition(ctx.project.commonDir, effort.id);
    return { refusal: outcome };
  };
  const conflicts = await mergeConflicts(run, trunkTip, f.head);
  steps.push({
    kind: 'merge-check',
    label: `${effort.branch} merges cleanly with ${trunk} (${trunkTip.slice(0, 12)})`,
    disposition: 'gate',
    outcome: conflicts.length === 0 ? 'ok' : 'failed',
    duration_s: 0,
  });
  if (conflicts.length > 0) {
    return back({
      steps: [...f.steps, ...steps],
      data: { revision: f.revision, submission: f.submissionData },
      refusal: {
        error: 'conflict',
        message: `${trunk} moved since this Proof and the two conflict in ${conflicts.join(', ')}; the trunk is untouched. Run \`${mcp ? 'discern_update' : 'discern update'}\` in the effort's worktree (it shows the conflict), resolve, commit, run done, then accept again.`,
        next: {},
      },
    });
  }
  // A composition kept for checkpoint answers continues when it is still this head over this trunk tip.
  const kept = await readComposition(ctx.project.commonDir, effort.id);
  const integration = { path: integrationPath(l, kept), branch: `${INTEGRATION_PREFIX}${effort.id}` };
  const keptHead =
    kept && existsSync(kept.integration.path)
      ? (await git(['rev-parse', 'HEAD'], { cwd: kept.integration.path, env }).catch(() => undefined))?.stdout.trim()
      : undefined;
  const reuse =
    kept !== undefined &&
    kept.head === f.head &&
    kept.trunk_tip === trunkTip &&
    keptHead === kept.commit &&
    kept.integration.path === integration.path;
  let commit: string;
  if (reuse) {
    commit = kept.commit;
    await advance(paths, tx, 'started', { integration });
    steps.push({
      kind: 'git',
      label: `continue the kept composition of ${effort.branch} with ${trunk}`,
      disposition: 'run',
      note: integration.path,
      outcome: 'ok',
      duration_s: 0,
    });
  } else {
    if (kept) await removeComposition(ctx.project.commonDir, effort.id);
    await dropIntegration(mainRoot, integration, env, trunkSide(l));
    const added = await git(['worktree', 'add', '-q', '-b', integration.branch, integration.path, trunkTip], run);
    if (added.code !== 0)
      return back({
        steps: [...f.steps, ...steps],
        refusal: {
          error: 'apply_failed',
          message: `The integration worktree could not be created: ${gitComplaint(added)}. Nothing landed.`,
          next: { recovery: 'fix what git names, then accept again' },
        },
      });
    await advance(paths, tx, 'started', { integration });
    const merged = await git(['merge', '--no-ff', '--no-edit', '-m', `Merge ${effort.branch} into ${trunk}`, f.head], {
      cwd: integration.path,
      env,
    });
    steps.push({
      kind: 'git',
      label: `compose ${effort.branch} with ${trunk} in an integration worktree`,
      disposition: 'run',
      note: integration.path,
      outcome: merged.code === 0 ? 'ok' : 'failed',
      duration_s: 0,
    });
    if (merged.code !== 0)
      return back({
        steps: [...f.steps, ...steps],
        refusal: {
          error: 'apply_failed',
          message: `The composition could not be made: ${gitComplaint(merged)}. Nothing landed.`,
          next: { recovery: 'fix what git names, then accept again' },
        },
      });
    commit = (await git(['rev-parse', 'HEAD'], { cwd: integration.path, env })).stdout.trim();
  }
  await advance(paths, tx, 'composed', { landing: commit });
  crashPoint(env, 'composed');
  // Checkpoints of the trunk's config on the composed change, before anything runs there.
  const composition = { effort, head: f.head, trunk, trunkTip, commit, integration };
  const judged = await judgeComposition(
    f.input ?? {},
    composition,
    f.declared ?? { declarations: { met: [], unmet: [] }, given: false },
    f.variances ?? [],
    ctx,
    { revision: f.revision, submission: f.submissionData },
  );
  const stale = f.input?.composition_receipt !== undefined && !(reuse && f.input.composition_receipt === kept.receipt);
  if (!judged.proceed || stale) {
    const base = judged.proceed ? undefined : judged.outcome;
    const waiting = !judged.proceed;
    // Kept: the trunk is untouched and the landing is not in flight; the next call names the receipt.
    await transactions.remove(paths, effort.id);
    if (waiting) {
      await writeComposition(ctx.project.commonDir, {
        format: COMPOSITION_FORMAT,
        receipt: judged.receipt,
        effort: effort.id,
        branch: effort.branch,
        head: f.head,
        trunk_tip: trunkTip,
        commit,
        integration,
        questions: judged.questions,
        created_at: new Date().toISOString(),
      });
    } else {
      await dropIntegration(mainRoot, integration, env, trunkSide(l));
      await removeComposition(ctx.project.commonDir, effort.id);
    }
    if (stale) {
      const why = `composition_receipt "${f.input?.composition_receipt ?? ''}" does not match the composition now (${kept === undefined ? 'none was kept' : kept.head !== f.head ? `${effort.branch} moved to ${f.head.slice(0, 12)}` : kept.trunk_tip !== trunkTip ? `${trunk} moved to ${trunkTip.slice(0, 12)}` : 'it names another composition'}): nothing it answered was recorded`;
      const fresh = !waiting
        ? '; a fresh composition raises no checkpoint question — call again without composition_receipt'
        : reuse
          ? `; the kept composition (${commit.slice(0, 12)}) still waits — answer its questions naming composition_receipt "${judged.receipt}"`
          : `; a fresh composition (${commit.slice(0, 12)}) was made and kept — answer its questions naming composition_receipt "${judged.receipt}"`;
      return {
        refusal: {
          steps: [...f.steps, ...steps],
          ...(base?.data ? { data: base.data } : { data: { revision: f.revision, submission: f.submissionData } }),
          refusal: {
            error: 'precondition_failed',
            message: `${why}${fresh}. The trunk is untouched.`,
            next: { rerun: mcp ? 'discern_accept' : 'discern accept' },
          },
        },
      };
    }
    if (base) return { refusal: { ...base, steps: [...f.steps, ...steps] } };
  }
  if (judged.proceed && judged.variances.length > 0) {
    tx.variances = [...(tx.variances ?? []), ...judged.variances];
    await transactions.write(paths, tx);
  }
  // The combined tree needs what the effort's own worktree had: the main checkout's installed dependencies where
  // they are the same install, then the ensure commands over them.
  const ensure = commandList(l.trunkConfig.repository?.ensure);
  const listening = l.run ? { listener: l.run.listener } : {};
  l.run?.phase('setup', `setting up the integration worktree ${integration.path}`);
  const warm = await warmWorktree({
    commonDir: ctx.project.commonDir,
    config: l.trunkConfig,
    mainRoot,
    target: integration.path,
    gitDir: linkedGitDir(integration.path) ?? join(paths.integration, `.${effort.id}-staging`),
    ensure,
    env,
    signal: ctx.signal,
    ...listening,
    deferSpares: true,
  });
  steps.push(...warm.steps);
  // The spare is made once the call has its answer, not beside the composed gate (accept-run.ts).
  if (warm.spareOrder) l.run?.afterward(warm.spareOrder);
  // Packages copied from a main checkout whose install discern converged to these same files need no install.
  const converged = await convergedReason(
    ctx.project.commonDir,
    mainRoot,
    integration.path,
    await installDigest(integration.path, l.trunkConfig, ensure, env),
  );
  const ensured = await runSetupSteps({
    id: effort.id,
    branch: integration.branch,
    path: integration.path,
    mainRoot,
    env,
    signal: ctx.signal,
    outputDir: l.outputDir,
    envFiles: [],
    ensure,
    ...(converged !== undefined ? { ensureConverged: converged } : {}),
    setupSteps: commandList(l.trunkConfig.worktree?.setup?.steps),
    setupEnsure: commandList(l.trunkConfig.worktree?.setup?.ensure),
    ensureTimeoutS: l.trunkConfig.gate?.timeout ?? DEFAULT_GATE_TIMEOUT_S,
    resources: [],
    secrets: projectSecrets(ctx.project, integration.path),
    ...listening,
  });
  steps.push(...ensured.steps);
  if (!ensured.ok)
    return back({
      steps: [...f.steps, ...steps],
      ...(ensured.diagnostics.length > 0 ? { diagnostics: ensured.diagnostics } : {}),
      refusal: {
        error: 'apply_failed',
        message: `ensure failed in the integration worktree (${ensured.message}). Nothing landed.`,
        next: { recovery: 'fix the ensure command, then accept again' },
      },
    });
  l.run?.phase('gate', `running the gate on ${effort.branch} composed with ${trunk} (${commit.slice(0, 12)})`);
  const gated = await runGate(integration.path, ctx, l.run);
  if ('refusal' in gated) {
    // The red run's outputs live in the integration worktree's git dir, which goes: they are kept first, and the
    // result names where they are now, so its diagnostics can still be read.
    const failed = await keepGateOutputs(gated.refusal, integration.path, ctx.project.commonDir, effort.id, l.run);
    if (failed.refusal.error === 'gate_failed')
      await recordRedComposition(l, f.head, trunkTip, failed).catch(() => undefined);
    return back({
      ...failed,
      steps: [...f.steps, ...steps, ...(failed.steps ?? [])],
      data: {
        revision: f.revision,
        submission: f.submissionData,
        gate_validation: { mode: 'rerun', composed: true, commit },
      },
      ...(failed.refusal
        ? {
            refusal:
              failed.refusal.error === 'gate_failed'
                ? {
                    ...failed.refusal,
                    message: `The gate failed on ${effort.branch} composed with the moved ${trunk} (${commit.slice(0, 12)}); the trunk is untouched. ${failed.refusal.message}`,
                  }
                : failed.refusal,
          }
        : {}),
    });
  }
  // Green now: an earlier red composition of this head no longer describes it (whatever stops the landing next).
  await clearRedComposition(l).catch(() => undefined);
  // A green run's outputs are kept too: the record of this run names them, and they outlive the worktree.
  steps.push(...(await keepGateOutputs(gated.steps, integration.path, ctx.project.commonDir, effort.id, l.run)));
  // The gate ran on the integration branch; the Proof is for the effort's work composed with the trunk.
  const line = gated.proof.line.replace(`${integration.branch} @`, `${effort.branch} + ${trunk} @`);
  return { commit, proof: { ...gated.proof, branch: effort.branch, line }, steps };
}

const KEPT_INTEGRATION_OUTPUTS = 20;

/** Landings' outputs are kept as a run's are: a day, and at most the newest few (jobs/output-dir.ts). */
async function sweepLandingOutputs(commonDir: string, current: string): Promise<void> {
  const kept = join(commonDir, 'discern', 'integration-output');
  await sweepOldOutputs(kept).catch(() => 0);
  await keepNewestOutputs(kept, KEPT_INTEGRATION_OUTPUTS - 1, current).catch(() => undefined);
}

/**
 * Where a landing's own commands write (setup, ensure, resource destroys, the ensure after the landing): the
 * common dir, beside the composed gate's outputs, because the checkout accept was called from may be the
 * worktree the landing removes, and the run's record must still point at files that exist.
 */
function landingOutputDir(commonDir: string, effortId: string): string {
  return join(
    commonDir,
    'discern',
    'integration-output',
    `${new Date().toISOString().replace(/[:.]/g, '-')}-${effortId}-landing`,
  );
}

async function clearRedComposition(l: Landing): Promise<void> {
  const submission = await submissions.read(l.paths, l.effort.id);
  if (submission?.last_failure?.composed_with === undefined) return;
  const { last_failure: _red, ...rest } = submission;
  await submissions.write(l.paths, rest);
}

/**
 * The effort's submission remembers that this head composed with this trunk tip failed the gate, with the first
 * failures and the run that found them: the queue shows it red, and `await --green` is not met by its own Proof.
 */
async function recordRedComposition(l: Landing, head: string, trunkTip: string, failed: AcceptRefused): Promise<void> {
  const submission = await submissions.read(l.paths, l.effort.id);
  if (submission === undefined || submission.head !== head) return;
  const failures = (failed.diagnostics ?? []).slice(0, 5).map((d) => ({
    tool: d.tool,
    message: d.message.length > 500 ? `${d.message.slice(0, 499)}…` : d.message,
    ...(d.file !== undefined ? { file: d.file } : {}),
    ...(d.line !== undefined ? { line: d.line } : {}),
    reproduce_cmd: d.reproduce_cmd,
    ...(d.output_path !== undefined ? { output_path: d.output_path } : {}),
  }));
  const handle = l.run?.handle;
  await submissions.write(l.paths, {
    ...submission,
    last_failure: {
      head,
      reason: failed.refusal.message,
      at: new Date().toISOString(),
      composed_with: trunkTip,
      failures,
      ...(handle !== undefined ? { handle } : {}),
    },
  });
}

/** Moves the integration gate's outputs to the common dir and points the outcome's paths at them. */
async function keepGateOutputs<T>(
  outcome: T,
  integrationPath: string,
  commonDir: string,
  id: string,
  run?: AcceptRun,
): Promise<T> {
  const gitDir = linkedGitDir(integrationPath);
  if (gitDir === undefined) return outcome;
  const from = join(gitDir, 'discern', 'output');
  // Their own directory: the common dir's discern/output is the main checkout's runs, swept by its own rules.
  const kept = join(commonDir, 'discern', 'integration-output');
  const to = join(kept, `${new Date().toISOString().replace(/[:.]/g, '-')}-${id}`);
  try {
    await mkdir(kept, { recursive: true });
    await rename(from, to);
  } catch {
    return outcome;
  }
  run?.relocate(from, to);
  await sweepLandingOutputs(commonDir, basename(to));
  const quoted = (path: string): string => JSON.stringify(path).slice(1, -1);
  return JSON.parse(JSON.stringify(outcome).split(quoted(from)).join(quoted(to))) as T;
}

/**
 * One path for every composition, so tools that key their caches by the project's absolute path (jest's haste
 * map and transforms, for one) find them warm from the last landing instead of starting cold; acceptance is
 * serialised, so one path serves them in turn. A composition kept for checkpoint answers keeps its own path, and
 * while something holds the shared one (a kept composition, or what a killed run left) the effort's id is used.
 */
function integrationPath(l: Landing, kept: { integration: { path: string } } | undefined): string {
  if (kept !== undefined) return kept.integration.path;
  const shared = join(integrationDir(l), '_compose'); // no effort id has an underscore (slugs)
  return existsSync(shared) ? join(integrationDir(l), l.effort.id) : shared;
}

/**
 * Where integration worktrees go: beside efforts' worktrees (`<root>/.discern-integration/`, a name no effort can
 * take), not under .git, whose path tools skip (jest finds no test in a project under a `.git` directory). A
 * worktree root inside the checkout would make the main checkout look changed: there they stay under .git.
 */
function integrationDir(l: Landing): string {
  const rooted = worktreeRoot(l.trunkConfig, l.mainRoot);
  return rooted.ok && !rooted.inside ? join(rooted.root, '.discern-integration') : l.paths.integration;
}

/** Runs the gate (done) in a checkout and returns its Proof, or accept's refusal carrying done's facts. */
async function runGate(
  path: string,
  ctx: ProjectVerbContext,
  run?: AcceptRun,
): Promise<
  { proof: DiscernProofSummary; standards: DiscernGateStandard[]; steps: DiscernStep[] } | { refusal: AcceptRefused }
> {
  const resolution = await resolveProject({
    path,
    pathFrom: 'argument',
    requireTrunk: true,
    env: ctx.env,
    signal: ctx.signal,
  });
  if (!resolution.ok)
    return {
      refusal: {
        refusal: {
          error: 'apply_failed',
          message: `The checkout at ${path} cannot be gated: ${resolution.refusal.message}`,
          next: { recovery: 'fix what the message names, then accept again' },
        },
      },
    };
  const { done } = await import('./done.js');
  // Inside an accept run the gate reports into its record; the live view hears the gate's own producers.
  const shared = run?.shared;
  const outcome = await done(
    {},
    { ...ctx, target: path, project: resolution.project, ...(shared ? { operation: shared } : {}) },
  );
  const steps = outcome.steps ?? [];
  if (outcome.refusal === undefined && outcome.data && 'proof' in outcome.data && outcome.data.proof)
    return { proof: outcome.data.proof, standards: outcome.data.standards ?? [], steps };
  const r = outcome.refusal;
  // done's open checkpoint questions are answered through accept too (met/unmet in the follow-up call).
  const questions = r?.error === 'awaiting_declaration' ? pendingQuestions(outcome) : undefined;
  if (r?.error === 'awaiting_declaration')
    return {
      refusal: {
        steps,
        ...(questions ? { data: { checkpoints: questions } } : {}),
        refusal: {
          ...r,
          message: r.message.replace('Answer in the same call', 'Answer in the next accept call'),
          next: { call: acceptCall(ctx) },
        },
      },
    };
  const mapped: AcceptRefused =
    r &&
    (r.error === 'gate_failed' ||
      r.error === 'incomplete' ||
      r.error === 'dirty_worktree' ||
      r.error === 'detached_head' ||
      r.error === 'write_denied' ||
      r.error === 'invalid_config' ||
      r.error === 'apply_failed')
      ? { steps, ...(outcome.diagnostics ? { diagnostics: outcome.diagnostics } : {}), refusal: r }
      : {
          steps,
          ...(outcome.diagnostics ? { diagnostics: outcome.diagnostics } : {}),
          refusal: {
            error: 'apply_failed',
            message: `The gate did not produce Proof: ${r?.message ?? 'no Proof was recorded'}`,
            next: { recovery: "run done in the effort's worktree, then accept again" },
          },
        };
  return { refusal: mapped };
}

function pendingQuestions(
  outcome: Awaited<ReturnType<typeof import('./done.js').done>>,
): NonNullable<DiscernAcceptData['checkpoints']> | undefined {
  const cp = outcome.data && 'gate_ran' in outcome.data ? outcome.data.checkpoints : undefined;
  if (!cp) return undefined;
  return {
    ...(cp.outstanding ? { outstanding: cp.outstanding } : {}),
    ...(cp.advise ? { advise: cp.advise } : {}),
    ...(cp.drops ? { drops: cp.drops } : {}),
  };
}

/** An interrupted landing: finished when the trunk already holds its commit, rolled back otherwise. */
async function recover(tx: Transaction, l: Landing): Promise<AcceptOutcome | 'rolled_back'> {
  const run = { cwd: l.mainRoot, env: l.ctx.env };
  // The trunk is the truth: it holds the landing commit (the landing happened) or it does not (roll back).
  if (tx.landing !== undefined && (await trunkContains(run, tx.trunk, tx.landing))) {
    return finish(l, tx, {
      steps: [
        {
          kind: 'git',
          label: `resume an interrupted acceptance (it had reached ${tx.step}): the trunk already holds its commit`,
          disposition: 'run',
          outcome: 'ok',
          duration_s: 0,
        },
      ],
      proof: tx.proof,
      recovered: true,
      recoveredFrom: tx.step,
    });
  }
  await rollBack(l, tx);
  await transactions.remove(l.paths, l.effort.id);
  return 'rolled_back';
}

async function rollBack(l: Landing, tx: Transaction): Promise<void> {
  if (tx.integration) await dropIntegration(l.mainRoot, tx.integration, l.ctx.env, trunkSide(l));
}

function trunkSide(l: Landing): { config: DiscernConfig; commonDir: string } {
  return { config: l.trunkConfig, commonDir: l.ctx.project.commonDir };
}

async function dropIntegration(
  mainRoot: string,
  integration: { path: string; branch: string },
  env: Env,
  project: { config: DiscernConfig; commonDir: string },
): Promise<void> {
  // Its installs are set aside first and deleted after the answer: removing thousands of files is most of the cost.
  if (existsSync(integration.path)) {
    await moveInstallsAside(project.config, project.commonDir, integration.path, env);
    await emptyTrashSoon(project.commonDir, mainRoot, env);
  }
  await git(['worktree', 'remove', '--force', '--force', integration.path], { cwd: mainRoot, env });
  await git(['worktree', 'prune'], { cwd: mainRoot, env });
  await git(['branch', '-D', integration.branch], { cwd: mainRoot, env });
}
