// done: prove the committed tip. With a clean committed tree: current Proof comes back at once; a proven
// (tree, config) replays for a new commit; an unchanged red tree is refused unless rerun; otherwise the
// preconditions and the gate run and, when green, Proof is recorded for that exact commit. standalone gives
// diagnostics on any tree without Proof; ci reports without landing Proof; dry_run returns the plan.
import { resolve } from 'node:path';
import type { DoneOutcome } from '../../generated/handlers.js';
import type { DiscernDoneData, DiscernDoneInput } from '../../generated/types.js';
import { VERSION } from '../../generated/version.js';
import { readWorkingState, workingStateFrom } from '../engine/git/porcelain-status.js';
import { readHeadIds, resolvesToCommit } from '../engine/git/head.js';
import { configIdentity } from '../engine/gate/canonical-json.js';
import { markerIsCurrent, readProofMarker, type EvidenceKey } from '../engine/gate/proof-records.js';
import { gateStatePaths } from '../engine/gate/state-paths.js';
import { declarationsFrom } from '../engine/checkpoints/declarations.js';
import { declarationsCurrent } from '../engine/checkpoints/store.js';
import { argumentsHelp, type ProjectVerbContext } from './context.js';
import type { DoneRun, EarlyGateReads } from './done-facts.js';
import { git } from '../engine/git/git.js';
import { fetchedTrunk, shallowGap } from '../engine/gate/ci-checkout.js';
import { missingTrunkMessage } from '../engine/project/resolve.js';
import { policyFacts } from './policy-facts.js';
import { policyStillCurrent } from '../engine/policy/still-current.js';

export async function done(input: DiscernDoneInput, ctx: ProjectVerbContext): Promise<DoneOutcome> {
  const { project } = ctx;
  const rerunCall = ctx.surface === 'mcp' ? 'discern_done' : 'discern done';
  const standalone = input.standalone === true;
  const ci = input.ci === true;
  if (input.policy_base !== undefined && !(ci && standalone)) {
    return invalid(
      ctx,
      'policy_base is only accepted together with ci and standalone (a hosted report against a fetched ref).',
    );
  }
  if (input.policy_base !== undefined && !(await resolvesToCommit(input.policy_base, project.root, ctx.env))) {
    return invalid(
      ctx,
      `policy_base "${input.policy_base}" names no commit here; fetch it first (for example \`git fetch origin main\`) and pass the fetched ref.`,
    );
  }

  // The base: the trunk's local branch; on a hosted CI checkout, which has none, the fetched trunk stands in
  // (ci-checkout.ts); policy_base names one itself.
  let baseRef = input.policy_base ?? `refs/heads/${project.trunk.name}`;
  let baseName = input.policy_base ?? project.trunk.name;
  const reads = { cwd: project.root, env: ctx.env };
  if (!project.trunk.exists && input.policy_base === undefined) {
    const fetched = ci ? await fetchedTrunk(project.trunk.name, reads) : undefined;
    if (fetched === undefined) return { refusal: missingTrunk(project.trunk, ci) };
    baseRef = fetched;
    baseName = fetched.replace(/^refs\/remotes\//, '');
  }
  // The SARIF file --sarif asks for is written after the run (surfaces/cli/ci-host.ts): a place it cannot be
  // written is refused now, before anything runs.
  if (input.sarif !== undefined) {
    const target = resolve(ctx.target, input.sarif);
    const { sarifTargetProblem } = await import('../engine/gate/sarif.js');
    const problem = await sarifTargetProblem(target);
    if (problem !== undefined)
      return {
        refusal: {
          error: 'write_denied',
          message: `The SARIF file ${target} cannot be written: ${problem}. Nothing ran.`,
          next: { target, access: 'writable' },
        },
      };
  }
  // A shallow clone that does not reach the merge-base cannot say what the change is: say what to fetch.
  const gap = await shallowGap(project.commonDir, baseRef, reads);
  if (gap !== undefined)
    return { refusal: { error: 'precondition_failed', message: gap.message, next: { rerun: rerunCall } } };

  // Checkpoint declarations are part of the Proof: they are recorded by a strict run only.
  const declared = declarationsFrom(input);
  if (!declared.ok)
    return {
      refusal: { error: 'invalid_arguments', message: declared.message, next: { help: argumentsHelp(ctx, 'done') } },
    };
  if (declared.given && (ci || standalone)) {
    return {
      refusal: {
        error: 'invalid_arguments',
        message: `met and unmet record checkpoint conclusions for Proof; ${ci ? 'ci reports checkpoint review without declarations' : 'standalone records nothing'}, so they cannot be combined.`,
        next: { help: argumentsHelp(ctx, 'done') },
      },
    };
  }

  // CI may take a verified Proof note instead of running the gate again, when the trunk's policy says so.
  let notTaken: string | undefined;
  if (ci && input.rerun !== true && input.dry_run !== true && project.config.repository?.trust_notes === true) {
    const { trustedNote } = await import('./done-trusted-note.js');
    const trusted = await trustedNote(ctx, baseRef);
    if ('outcome' in trusted) return trusted.outcome;
    notTaken = trusted.notTaken;
  }

  const strict = !standalone && !ci;
  // When the fast path below cannot answer, the gate's machinery is certain to be needed unless a check refuses:
  // its modules compile while git reads the status, instead of after. A module loads all at once when asked for
  // (dist/ is CommonJS, docs/decisions/0042), so it is asked for on the event loop's next turn, once the reads
  // below have started their git processes.
  const reusable = strict && input.rerun !== true && input.dry_run !== true && !declared.given;
  const machinery = reusable
    ? undefined
    : nextTurn().then(() => Promise.all([import('./done-run.js'), import('../engine/gate/config-digest.js')]));
  machinery?.catch(() => undefined);
  // HEAD's ids are read beside the status then too (the fast path needs only the status). With the logbook on,
  // invoke() already started both reads for its first look: they are taken from it, not asked again.
  const look = ctx.looks?.first;
  const headRead = look ? look.ids : reusable ? undefined : readHeadIds(project.root, ctx.env, ctx.signal);
  headRead?.catch(() => undefined);
  // The gate's first reads need nothing the status says (the merge-base with the base, the index's hidden flags):
  // when the gate is certain to be wanted they start now too.
  const early = reusable ? undefined : startGateReads(project.root, ctx, baseRef, standalone);
  // Proof is for the committed tree: a submodule away from its gitlink is a change whatever .gitmodules says.
  // And so is a file's mode, where the filesystem keeps exec bits, whatever core.fileMode says (git/file-modes.ts).
  const paths = gateStatePaths(project.gitDir, project.commonDir);
  const submodules = {
    submodules: standalone ? ('configured' as const) : ('strict' as const),
    compareModesIn: paths.checkoutDir,
  };
  const state = look
    ? await workingStateFrom(await look.status, project.root, ctx.env, ctx.signal, submodules)
    : await readWorkingState(project.root, ctx.env, ctx.signal, submodules);
  const identity = configIdentity(project.config, project.trunk.name);

  // The fast path first: an unchanged, clean HEAD whose Proof is current gets that Proof back. It needs only
  // the status already read and one small file, so it answers in about the time the process takes to start.
  if (reusable && state.changed === 0 && !state.detached && state.head !== null) {
    const marker = await readProofMarker(paths.proofMarker, paths.commonDir);
    // A changed checkpoint declaration makes the Proof stale like a new commit does (the store is one small file).
    if (
      marker.state === 'present' &&
      marker.marker.mode === 'strict' &&
      markerIsCurrent(marker.marker, state.head, identity, VERSION) &&
      (await declarationsCurrent(marker.marker, project.gitDir)) &&
      (await policyStillCurrent(marker.marker, policyFacts(ctx)))
    ) {
      const m = marker.marker;
      const data: DiscernDoneData = {
        mode: 'strict',
        gate_ran: false,
        failed_stage: null,
        scopes_changed: Array.isArray(m.scopes_changed) ? m.scopes_changed : [],
        proof: m.proof,
        standards: m.standards,
        gate_proof: { status: 'reused', path: paths.proofMarker },
        completion: {
          kind: 'complete',
          ...(m.proof.proof_id ? { proof_id: m.proof.proof_id } : {}),
          pending_reasons: [],
        },
        producer_executions: {},
        ...(m.handle ? { handle: m.handle } : {}),
        ...(m.policy_changes && m.policy_changes.length > 0 ? { policy_changes: m.policy_changes } : {}),
      };
      return {
        data,
        held: ['gate-finish'],
        hints: [
          ctx.surface === 'mcp'
            ? 'Proof for this commit is current: nothing ran. Relay the Proof line; rerun: true measures it again.'
            : 'Proof for this commit is current: nothing ran. Relay the Proof line; `discern done --rerun` measures it again.',
        ],
      };
    }
  }

  const head = await (headRead ?? readHeadIds(project.root, ctx.env, ctx.signal));
  if (head === undefined || state.unborn) {
    return {
      refusal: {
        error: 'dirty_worktree',
        message: 'HEAD has no commit yet: there is nothing committed to prove.',
        next: { rerun: rerunCall, standalone: standaloneCall(ctx) },
      },
    };
  }
  if (!standalone && state.changed > 0) {
    return {
      refusal: {
        error: 'dirty_worktree',
        message: `The worktree has ${state.changed} uncommitted change${state.changed === 1 ? '' : 's'}${state.untracked > 0 ? ` (${state.untracked} untracked)` : ''}: Proof covers exactly one commit, so commit (or stash) them first.`,
        next: { rerun: rerunCall, standalone: standaloneCall(ctx) },
      },
    };
  }
  if (!standalone && !ci && state.detached) {
    return {
      refusal: {
        error: 'detached_head',
        message:
          "HEAD is detached: Proof is recorded for a branch's commit, so check out the branch this work belongs to.",
        next: { rerun: rerunCall },
      },
    };
  }

  // Hashing (node:crypto) loads only past the reuse path.
  const { configDigest } = await import('../engine/gate/config-digest.js');
  const key: EvidenceKey = {
    tree: head.tree,
    configDigest: configDigest(project.config, project.trunk.name),
    version: VERSION,
  };

  const run: DoneRun = {
    input,
    ctx,
    paths,
    key,
    head,
    branch: state.branch,
    mode: ci ? 'report' : 'strict',
    standalone,
    base: baseName,
    // git resolves a bare name as a tag before a branch: the trunk is named by its full ref in every git call.
    baseRef,
    rerunCall,
    declarations: declared.declarations,
    // The status just read listed no untracked file: the change set need not list them again.
    ...(state.untracked === 0 ? { untracked: [] } : {}),
    ...(early ? { early } : {}),
  };
  // The gate's machinery (executor, journal, diagnostics) loads only when something will run.
  const { runDoneGate } = await import('./done-run.js');
  const outcome = await runDoneGate(run);
  return notTaken === undefined ? outcome : { ...outcome, hints: [...(outcome.hints ?? []), notTaken] };
}

/** No local trunk outside CI (or no fetched one in CI): what resolving the project refused with before. */
function missingTrunk(trunk: ProjectVerbContext['project']['trunk'], ci: boolean): NonNullable<DoneOutcome['refusal']> {
  const { name } = trunk;
  // An effort's trunk is the one it started from: fetching another changes nothing (missingTrunkMessage says so).
  const fetch =
    trunk.source === 'effort'
      ? ''
      : ci
        ? ` No remote-tracking ref of it was fetched either: fetch it (\`git fetch origin ${name}\`, or actions/checkout with \`fetch-depth: 0\`) and run done again.`
        : ` On a CI checkout without it, run \`discern done --ci\`, which uses the fetched trunk (origin/${name}).`;
  return { error: 'no_trunk', message: `${missingTrunkMessage(trunk)}${fetch}`, next: { trunk: name } };
}

function invalid(ctx: ProjectVerbContext, message: string): DoneOutcome {
  return {
    refusal: {
      error: 'invalid_value',
      message,
      next: { help: ctx.surface === 'mcp' ? 'the inputSchema of discern_done in tools/list' : '`discern help done`' },
    },
  };
}

function standaloneCall(ctx: ProjectVerbContext): string {
  return ctx.surface === 'mcp' ? 'discern_done with standalone: true' : 'discern done --standalone';
}

/** The gate's first git reads, started before it is certain the gate runs (a refusal leaves them unread). */
function startGateReads(root: string, ctx: ProjectVerbContext, baseRef: string, standalone: boolean): EarlyGateReads {
  const options = { cwd: root, env: ctx.env, signal: ctx.signal };
  const headMergeBase = git(['merge-base', baseRef, 'HEAD'], options);
  headMergeBase.catch(() => undefined);
  if (standalone) return { headMergeBase };
  // Without the signal, as the gate itself reads it: a cancelled call is answered by the gate's own checks.
  const indexFlags = git(['ls-files', '-v', '-z'], { cwd: root, env: ctx.env });
  indexFlags.catch(() => undefined);
  return { headMergeBase, indexFlags };
}

/** Resolves on the event loop's next turn: after the git processes started now are on their way. */
function nextTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
