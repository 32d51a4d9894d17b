// setup done: prove the setup branch. In the main checkout on the setup branch with everything committed, run
// doctor's checks, then the first gate on the branch's tip — done's own run (its lock, journal, Proof marker),
// never a second gate — and, when it is green, record the setup as done for that exact commit. The result
// carries Proof, the inventory the proven configuration derives, and one next action: setup accept.
import { mkdir, readFile } from 'node:fs/promises';
import { basename, dirname } from 'node:path';
import { gateStatePaths } from '../engine/gate/state-paths.js';
import { writeFileAtomic } from '../engine/state/atomic-write.js';
import type { SetupDoneOutcome } from '../../generated/handlers.js';
import { VERBS } from '../../generated/registry.js';
import type {
  DiscernConfig,
  DiscernDoctorCheck,
  DiscernSetupDoneData,
  DiscernSetupDoneInput,
  DiscernStep,
} from '../../generated/types.js';
import { configuredJobs } from '../engine/config/jobs.js';
import { scopeDefinitions } from '../engine/config/scope-definitions.js';
import { readWorkingState } from '../engine/git/porcelain-status.js';
import { commitMachinery } from '../engine/setup/machinery.js';
import { DEFAULT_AGENTS } from '../engine/setup/proposal.js';
import { setupStatePath, writeSetupState, type SetupState } from '../engine/setup/state.js';
import { probeWrites } from '../engine/state/write-probe.js';
import { git } from '../engine/git/git.js';
import { inFreshWorktree } from '../engine/setup/fresh-proof.js';
import { resolveProject } from '../engine/project/resolve.js';
import { DEFAULT_GATE_TIMEOUT_S } from '../engine/config/gate-settings.js';
import type { DoneOutcome } from '../../generated/handlers.js';
import type { InspectVerbContext, ProjectVerbContext } from './context.js';
import { onSetupBranch, setupInProgress, setupPlace, uncommitted } from './setup-context.js';

const RERUN = 'discern setup done';
/** The instruction sources [instructions] reads when it names none (spec/config.schema.json). */
const DEFAULT_INSTRUCTION_SOURCES = ['discern/instructions.md'];

export async function setupDone(input: DiscernSetupDoneInput, ctx: InspectVerbContext): Promise<SetupDoneOutcome> {
  const place = setupPlace(ctx);
  if ('refusal' in place) return place;
  const current = await setupInProgress(place);
  if ('refusal' in current) return current;
  const { state } = current;
  const off = await onSetupBranch(place, state, RERUN);
  if (off) return { refusal: off };
  const tree = await readWorkingState(place.checkout.root, ctx.env, ctx.signal);
  if (tree.changed > 0) {
    return {
      refusal: {
        error: 'dirty_worktree',
        message: `The setup branch has ${uncommitted(tree)}. Proof covers one commit: commit what belongs to the setup (\`git add discern.toml && git commit\`), then prove it.`,
        next: { rerun: RERUN, standalone: 'discern setup verify' },
      },
    };
  }
  const { resolution } = ctx;
  if (!resolution.ok) {
    const [firstIssue, ...moreIssues] = resolution.partial.configIssues ?? [];
    const refusal = resolution.refusal;
    // Resolution's own slugs, each of which setup done may answer with; the checks below never see them.
    if (refusal.error === 'invalid_arguments' || refusal.error === 'no_project') {
      return {
        refusal: {
          error: 'precondition_failed',
          message: `${refusal.message} Setup's draft is gone from the setup branch: restore discern.toml there and commit it.`,
          next: { rerun: RERUN },
        },
      };
    }
    return { ...(firstIssue !== undefined ? { data: { issues: [firstIssue, ...moreIssues] } } : {}), refusal };
  }
  const project = resolution.project;
  const trunk = project.trunk.name;
  const base = { phase: state.phase, branch: state.branch, trunk } as const;
  // What setup done writes itself, probed before anything runs (the gate probes its own state directory).
  const statePath = setupStatePath(place.checkout.commonDir);
  const probed = await probeWrites([statePath]);
  if (!probed.ok)
    return {
      refusal: {
        error: 'write_denied',
        message: `Setup done records its phase in ${statePath}, and ${probed.path} cannot be written (${probed.reason}). Nothing ran.`,
        next: { target: probed.path, access: 'writable' },
      },
    };

  // doctor's checks, as doctor reports them: a failed check stops here with its fix.
  const { doctor } = await import('./doctor.js');
  // The agents' wiring is what setup writes next (commitMachinery): integration health is not asked of it
  // here; `discern doctor` after setup reports it.
  const checked = await doctor({}, ctx, { wiring: false });
  const checks: DiscernDoctorCheck[] = checked.data && 'checks' in checked.data ? checked.data.checks : [];
  const doctorWarnings = (checked.advisories ?? []).map((a) => ({ ...a, kind: 'doctor-warning' as const }));
  if (checked.refusal) {
    const failed = checks.find((c) => c.status === 'fail');
    return {
      data: { ...base, checks },
      ...(doctorWarnings.length > 0 ? { advisories: doctorWarnings } : {}),
      refusal: {
        error: 'precondition_failed',
        message: `${checked.refusal.message}${failed?.fix ? ` ${failed.fix}` : ''}`,
        next: { rerun: RERUN },
      },
    };
  }

  // What refresh writes for this configuration, committed on the setup branch so the proven commit holds it.
  const started = Date.now();
  const machinery = await commitMachinery(project, ctx.env);
  if (!machinery.ok) {
    const data: DiscernSetupDoneData = { ...base, checks };
    if (machinery.kind === 'write_denied')
      return {
        data,
        refusal: {
          error: 'write_denied',
          message: `Setup done writes the agents' files before the gate, and ${machinery.path} cannot be written (${machinery.message}).`,
          next: { target: machinery.path, access: 'writable' },
        },
      };
    const wrote = machinery.written.length > 0 ? ` It wrote ${machinery.written.join(', ')}.` : '';
    return {
      data,
      refusal: {
        error: 'apply_failed',
        message: `The agents' files for this configuration could not be ${machinery.kind === 'commit' ? 'committed' : 'written'}: ${machinery.message}.${wrote}`,
        next: { recovery: `run \`discern refresh\`, commit what it writes, then \`${RERUN}\`` },
      },
    };
  }
  const ignoredNote =
    machinery.ignored && machinery.ignored.length > 0
      ? `; written but not committed, the ignore rules cover them: ${machinery.ignored.join(', ')}`
      : '';
  const machineryStep: DiscernStep[] =
    machinery.written.length > 0 || ignoredNote !== ''
      ? [
          {
            kind: 'refresh',
            label: `write and commit the agents' files (${machinery.written.length})`,
            disposition: 'run',
            note: `${machinery.written.join(', ')}${ignoredNote}`,
            outcome: 'ok',
            duration_s: Math.round((Date.now() - started) / 1000),
          },
        ]
      : [];

  // The first gate, as start will use the draft: ensure and done's own run in a fresh worktree of the setup
  // commit (fresh-proof.ts); then done here replays that evidence, so this checkout holds the Proof accept reads.
  const { done } = await import('./done.js');
  const projectCtx: ProjectVerbContext = { ...ctx, project };
  const proved = await proveFresh(projectCtx, input.rerun === true);
  const gated = proved.ok ? await done({}, projectCtx) : proved.outcome;
  const gateData = gated.data && 'gate_ran' in gated.data ? gated.data : undefined;
  const steps: DiscernStep[] = [...machineryStep, ...proved.steps, ...(proved.ok ? (gated.steps ?? []) : [])];
  // done's advisories that mean something here (see the policy in spec/verbs/setup-done/verb.yaml).
  const advisories = [
    ...doctorWarnings,
    ...(gated.advisories ?? []).filter(
      (a): a is typeof a & { kind: 'execution-cap-unavailable' | 'proof-recording-unavailable' } =>
        VERBS.setupDone.policy.optional_advisories.includes(a.kind as never),
    ),
  ];
  const evidence = {
    ...(steps.length > 0 ? { steps } : {}),
    ...(gated.diagnostics ? { diagnostics: gated.diagnostics } : {}),
    ...(advisories.length > 0 ? { advisories } : {}),
  };
  if (gated.refusal !== undefined || gateData?.proof === undefined) {
    // done is itself setup-gated, but only before its handler: here it never answers setup_unfinished.
    const raw = gated.refusal?.error === 'setup_unfinished' ? undefined : gated.refusal;
    // Checkpoint questions are answered through done (met/unmet), which setup done does not take: its gate failed.
    const refusal =
      raw?.error === 'awaiting_declaration' || raw?.error === 'checkpoint_evidence_unavailable'
        ? {
            error: 'gate_failed' as const,
            message: `${raw.message} Setup done takes no declarations: run \`discern done\` with them on the setup branch first.`,
            next: { rerun: RERUN },
          }
        : raw;
    const data: DiscernSetupDoneData = {
      ...base,
      checks,
      ...(gateData ? { failed_stage: gateData.failed_stage } : {}),
    };
    if (refusal === undefined)
      return {
        ...evidence,
        data,
        refusal: {
          error: 'apply_failed',
          message: 'The gate recorded no Proof for the setup branch.',
          next: { recovery: `run \`${RERUN}\` again` },
        },
      };
    // done's refusal, with its reruns pointing at setup done: done itself waits for setup to land.
    const next =
      'rerun' in refusal.next
        ? { ...refusal.next, rerun: refusal.error === 'unchanged_tree_rerun' ? `${RERUN} --rerun` : RERUN }
        : refusal.next;
    return { ...evidence, data, refusal: { ...refusal, next } as typeof refusal };
  }

  const proof = gateData.proof;
  const proven: SetupState = {
    ...state,
    phase: 'done',
    proven: {
      commit: proof.commit,
      ...(proof.proof_id ? { proof_id: proof.proof_id } : {}),
      at: new Date().toISOString(),
    },
  };
  const recorded = await writeSetupState(place.checkout.commonDir, proven).then(
    () => true,
    () => false,
  );
  steps.push({
    kind: 'setup-step',
    label: 'record the setup as done',
    disposition: 'run',
    note: statePath,
    outcome: recorded ? 'ok' : 'failed',
    duration_s: 0,
  });
  const data: DiscernSetupDoneData = {
    ...base,
    phase: recorded ? 'done' : state.phase,
    checks,
    failed_stage: null,
    completion: { status: 'proven', commit: proof.commit, ...(proof.proof_id ? { proof_id: proof.proof_id } : {}) },
    proof,
    inventory: inventory(project.config, { root: place.checkout.root, trunk, ecosystems: state.facts.ecosystems }),
  };
  if (!recorded) {
    return {
      ...evidence,
      steps,
      data,
      refusal: {
        error: 'write_denied',
        message: `The gate passed and its Proof is recorded, but the setup's phase could not be written to ${statePath}.`,
        next: { target: statePath, access: 'writable' },
      },
    };
  }
  return { ...evidence, steps, data, held: ['setup-completion'], hints: [VERBS.setupDone.hints.accept] };
}

function inventory(
  config: DiscernConfig,
  context: { root: string; trunk: string; ecosystems: readonly string[] },
): NonNullable<DiscernSetupDoneData['inventory']> {
  const slug = config.project?.slug;
  return {
    jobs: configuredJobs(config).map((job) => ({ name: job.name, stage: job.stage, commands: job.commands })),
    scopes: scopeDefinitions(config).map(({ name, paths, neutral }) => ({ name, paths: [...paths], neutral })),
    agents: [...(config.project?.agents ?? DEFAULT_AGENTS)],
    project_context: {
      name: config.project?.name ?? basename(context.root),
      ...(slug !== undefined ? { slug } : {}),
      trunk: context.trunk,
      ecosystems: [...context.ecosystems],
      instruction_sources: [...(config.instructions?.sources ?? DEFAULT_INSTRUCTION_SOURCES)],
    },
  };
}

/**
 * done in a fresh worktree of this checkout's tip, made ready as start makes one. ok when it recorded Proof; else
 * its outcome (or the worktree's failure as one), which setup done reports as the gate's.
 */
async function proveFresh(
  ctx: ProjectVerbContext,
  rerun: boolean,
): Promise<{ ok: true; steps: DiscernStep[] } | { ok: false; steps: DiscernStep[]; outcome: DoneOutcome }> {
  const { project } = ctx;
  const { done } = await import('./done.js');
  const tip = (await git(['rev-parse', 'HEAD'], { cwd: project.root, env: ctx.env })).stdout.trim();
  const fresh = await inFreshWorktree(
    {
      mainRoot: project.root,
      commonDir: project.commonDir,
      gitDir: project.gitDir,
      config: project.config,
      env: ctx.env,
      signal: ctx.signal,
      ensureTimeoutS: project.config.gate?.timeout ?? DEFAULT_GATE_TIMEOUT_S,
    },
    tip,
    async (path): Promise<DoneOutcome> => {
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
            error: 'apply_failed',
            message: `The fresh worktree of the setup commit cannot be gated: ${resolution.refusal.message}`,
            next: { recovery: `fix what the message names, then run \`${RERUN}\` again` },
          },
        };
      // The last run's verdict travels with the proof: a red tree proven again unchanged is refused as done
      // refuses it, and the verdict outlives the worktree.
      const here = gateStatePaths(project.gitDir, project.commonDir).lastRun;
      const there = gateStatePaths(resolution.project.gitDir, resolution.project.commonDir).lastRun;
      await carry(here, there);
      const outcome = await done(rerun ? { rerun: true } : {}, { ...ctx, target: path, project: resolution.project });
      await carry(there, here);
      return outcome;
    },
  );
  if (!fresh.ok)
    return {
      ok: false,
      steps: fresh.steps,
      outcome: {
        ...(fresh.diagnostics.length > 0 ? { diagnostics: fresh.diagnostics } : {}),
        refusal:
          fresh.stage === 'ensure'
            ? {
                error: 'gate_failed',
                message: `In a fresh worktree of the setup commit, as start will make one, ${fresh.message} The draft's [repository] ensure must work on a clone that has only what is committed.`,
                next: { rerun: RERUN },
              }
            : { error: 'apply_failed', message: fresh.message, next: { recovery: `run \`${RERUN}\` again` } },
      },
    };
  const outcome = fresh.value;
  const proven = outcome.refusal === undefined && outcome.data !== undefined && 'proof' in outcome.data;
  // The gate's steps are reported here, in the order they ran: before the worktree's removal.
  const { steps: ran, ...rest } = outcome as DoneOutcome & { steps?: DiscernStep[] };
  const steps = [...fresh.steps.slice(0, -1), ...(ran ?? []), ...fresh.steps.slice(-1)];
  return proven ? { ok: true, steps } : { ok: false, steps, outcome: rest as DoneOutcome };
}

/** Copies a sealed gate record from one checkout's state to another's (same repository, same key); none, none. */
async function carry(from: string, to: string): Promise<void> {
  const bytes = await readFile(from).catch(() => undefined);
  if (bytes === undefined) return;
  await mkdir(dirname(to), { recursive: true });
  await writeFileAtomic(to, bytes).catch(() => undefined);
}
