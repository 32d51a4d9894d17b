// Carries out a start plan: the branch and worktree (parallel checkout), the task record, env files, ensure
// commands and resources, in that order. Anything that fails — a command, a write, a cancellation — undoes
// what was created, in reverse: resources destroyed, then the worktree removed and the branch deleted (it
// holds no commit of its own yet, so nothing is lost). Every step, undo steps included, is reported.
import { makeSparesInBackground } from './warm/spare-background.js';
import type { GateListener } from '../gate/events.js';
import { availableParallelism } from 'node:os';
import { mkdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type {
  DiscernAdvisory,
  DiscernConfig,
  DiscernDiagnostic,
  DiscernStep,
  DiscernWorktreeCopy,
} from '../../../generated/types.js';
import { commandList } from '../config/commands.js';
import { faultRequested, killAt } from '../faults.js';
import { git, gitComplaint } from '../git/git.js';
import { linkedGitDir } from '../git/ref-store.js';
import { outputFileName } from '../jobs/output-dir.js';
import { runJob } from '../jobs/run-job.js';
import type { PlannedResource, StartPlan } from './start-plan.js';
import { jobStep, runSetupSteps } from './setup-steps.js';
import { recordedCopies, warmWorktree } from './warm/warm-worktree.js';
import {
  recordResources,
  taskRecordPath,
  writeTaskRecord,
  TASK_RECORD_FORMAT,
  type TaskRecord,
} from './task-record.js';

export interface StartRun {
  plan: StartPlan;
  /** The configuration start runs under: [worktree] copy. */
  config: DiscernConfig;
  /** The git common dir: where spare installs wait. */
  commonDir: string;
  mainRoot: string;
  env: Readonly<Record<string, string | undefined>>;
  signal: AbortSignal;
  /** Where this start's command outputs go: outside the new worktree, so an undo keeps them readable. */
  outputDir: string;
  /** Masked as `***` in every command's captured output (jobs/redaction.ts). */
  secrets?: readonly string[];
  /** Told as copies and setup commands start, advance and end: the caller's live view. */
  listener?: GateListener;
}

export type StartApplied =
  | {
      ok: true;
      steps: DiscernStep[];
      worktreeGitDir: string;
      resources: string[];
      advisories: DiscernAdvisory[];
      copies: DiscernWorktreeCopy[];
    }
  | {
      ok: false;
      stage: 'checkout' | 'setup';
      steps: DiscernStep[];
      diagnostics: DiscernDiagnostic[];
      message: string;
      undone: boolean;
    };

/**
 * Creates the branch and worktree: the step that claims the name, so the caller holds the repository's start
 * lock around planning and this. On failure whatever git left behind is removed.
 */
export async function createWorktree(
  run: StartRun,
): Promise<{ ok: true; steps: DiscernStep[] } | Extract<StartApplied, { ok: false }>> {
  const { plan } = run;
  const steps: DiscernStep[] = [];
  const began = performance.now();

  await mkdir(plan.root, { recursive: true });
  // Parallel checkout: git's default checks files out one at a time, several times slower on a large tree. The
  // workers mostly wait on the disk, so there are more of them than cores.
  const workers = Math.min(16, Math.max(8, availableParallelism() * 4));
  const added = await git(
    ['-c', `checkout.workers=${workers}`, 'worktree', 'add', '-b', plan.branch, plan.path, plan.from.commit],
    { cwd: run.mainRoot, env: run.env },
  );
  steps.push({
    kind: 'git',
    label: `create branch ${plan.branch} and its worktree`,
    disposition: 'run',
    note: plan.path,
    outcome: added.code === 0 ? 'ok' : 'failed',
    duration_s: seconds(began),
  });
  if (added.code !== 0) {
    // worktree add creates the branch before checking out; a failed checkout can leave both behind.
    const undone = await removeWorktreeAndBranch(run, steps);
    return {
      ok: false,
      stage: 'checkout',
      steps,
      diagnostics: [],
      message: `git could not create the worktree: ${gitComplaint(added)}.`,
      undone,
    };
  }
  if (plan.port !== undefined) {
    // The port is claimed before the caller releases the start lock: the next start reads the held ports from
    // the task records (ports.ts), so this one's record must already name it.
    const gitDir = linkedGitDir(plan.path);
    const claimed =
      gitDir !== undefined &&
      (await writeTaskRecord(gitDir, initialRecord(plan)).then(
        () => true,
        () => false,
      ));
    if (!claimed) {
      const undone = await removeWorktreeAndBranch(run, steps);
      return {
        ok: false,
        stage: 'checkout',
        steps,
        diagnostics: [],
        message: `the task record that claims port ${plan.port} could not be written in the new worktree's git dir.`,
        undone,
      };
    }
  }
  return { ok: true, steps };
}

function initialRecord(plan: StartPlan): TaskRecord {
  return {
    format: TASK_RECORD_FORMAT,
    id: plan.id,
    branch: plan.branch,
    path: plan.path,
    from: plan.from,
    trunk: plan.trunk,
    ...plan.task,
    created_at: new Date().toISOString(),
    ...(plan.port !== undefined ? { port: plan.port } : {}),
    resources: [],
  };
}

/** Everything after the worktree exists: the task record, env files, ensure commands and resources. */
export async function setUpWorktree(run: StartRun, created: readonly DiscernStep[]): Promise<StartApplied> {
  const { plan } = run;
  const steps: DiscernStep[] = [...created];
  const fail = async (
    message: string,
    diagnostics: DiscernDiagnostic[],
    made: readonly PlannedResource[],
  ): Promise<StartApplied> => {
    await destroyResources(run, made, steps);
    const undone = await removeWorktreeAndBranch(run, steps);
    return { ok: false, stage: 'setup', steps, diagnostics, message, undone };
  };

  // The new worktree's git dir, from its .git file (git may have suffixed the admin directory's name).
  const worktreeGitDir = linkedGitDir(plan.path);
  if (worktreeGitDir === undefined)
    return fail(`the new worktree's git dir could not be read from ${plan.path}/.git.`, [], []);

  const recordStart = performance.now();
  const record = initialRecord(plan);
  try {
    if (faultRequested(run.env, 'start:task-metadata'))
      throw new Error('fault injected at start:task-metadata (DISCERN_FAULT)');
    await writeTaskRecord(worktreeGitDir, record);
    steps.push({
      kind: 'task-metadata',
      label: 'record the task',
      disposition: 'run',
      note: taskRecordPath(worktreeGitDir),
      outcome: 'ok',
      duration_s: seconds(recordStart),
    });
    killAt(run.env, 'start:task-recorded');
  } catch (error) {
    steps.push({
      kind: 'task-metadata',
      label: 'record the task',
      disposition: 'run',
      outcome: 'failed',
      duration_s: seconds(recordStart),
    });
    return fail(`the task record could not be written: ${(error as Error).message}.`, [], []);
  }

  // The main checkout's installed dependencies, where they are the install this worktree would make.
  const warm = await warmWorktree({
    commonDir: run.commonDir,
    config: run.config,
    mainRoot: run.mainRoot,
    target: plan.path,
    gitDir: worktreeGitDir,
    patterns: plan.copy,
    ensure: plan.ensure,
    env: run.env,
    signal: run.signal,
    ...(run.listener ? { listener: run.listener } : {}),
    deferSpares: true,
  });
  steps.push(...warm.steps);
  const copies = recordedCopies(warm.copies);
  if (copies.length > 0) {
    record.copies = copies;
    await writeTaskRecord(worktreeGitDir, record).catch(() => undefined);
  }

  // Each resource is recorded as soon as it exists, so a start killed later leaves nothing teardown cannot destroy.
  const recordMade = (made: readonly PlannedResource[]): Promise<void> =>
    writeTaskRecord(worktreeGitDir, {
      ...record,
      resources: recordResources(made, { id: plan.id, branch: plan.branch, path: plan.path }),
    });
  const setup = await runSetupSteps({
    id: plan.id,
    branch: plan.branch,
    path: plan.path,
    mainRoot: run.mainRoot,
    env: run.env,
    signal: run.signal,
    outputDir: run.outputDir,
    envFiles: plan.envFiles,
    envWrite: plan.envWrite,
    ensure: plan.ensure,
    setupSteps: plan.setupSteps,
    setupEnsure: plan.setupEnsure,
    ensureTimeoutS: plan.ensureTimeoutS,
    resources: plan.resources,
    ...(run.listener ? { listener: run.listener } : {}),
    onMade: recordMade,
    ...(run.secrets ? { secrets: run.secrets } : {}),
  });
  steps.push(...setup.steps);
  // The next start's spare is made once ensure is done, not beside it (warm-worktree.ts, deferSpares).
  if (warm.spareOrder && !run.signal.aborted) makeSparesInBackground(warm.spareOrder, run.env);
  if (!setup.ok) return fail(setup.message, setup.diagnostics, setup.made);
  const { made, advisories } = setup;
  killAt(run.env, 'start:setup-done');
  return { ok: true, steps, worktreeGitDir, resources: made.map((r) => r.name), advisories, copies: warm.copies };
}

async function destroyResources(
  run: StartRun,
  created: readonly PlannedResource[],
  steps: DiscernStep[],
): Promise<void> {
  const { plan } = run;
  const env = { ...run.env, DISCERN_EFFORT: plan.id, DISCERN_BRANCH: plan.branch, DISCERN_WORKTREE: plan.path };
  for (const resource of [...created].reverse()) {
    if (resource.destroy === undefined) continue;
    // Undoing runs to the end even when the call was cancelled: it is what leaves nothing behind.
    const result = await runJob({
      label: `resource:${resource.name}`,
      commands: commandList(resource.destroy),
      cwd: plan.path,
      env,
      timeoutS: resource.timeoutS,
      timeoutKey: `[worktree.resources.${resource.name}] timeout`,
      outputPath: join(run.outputDir, outputFileName(`destroy-${resource.name}`)),
      ...(run.secrets ? { secrets: run.secrets } : {}),
    });
    steps.push(jobStep('resource-destroy', `destroy resource:${resource.name}`, resource.destroy, result));
  }
}

/** Removes the new worktree and its branch; true when both are gone. */
async function removeWorktreeAndBranch(run: StartRun, steps: DiscernStep[]): Promise<boolean> {
  const { plan } = run;
  const at = performance.now();
  const registered = await stat(plan.path).then(
    () => true,
    () => false,
  );
  if (registered)
    await git(['worktree', 'remove', '--force', '--force', plan.path], { cwd: run.mainRoot, env: run.env });
  await git(['worktree', 'prune'], { cwd: run.mainRoot, env: run.env });
  // The branch was created at the starting commit by this call and holds nothing else: delete only if it still
  // points there, so nothing anyone committed meanwhile is lost.
  const tip = await git(['rev-parse', '--verify', '--quiet', `refs/heads/${plan.branch}`], {
    cwd: run.mainRoot,
    env: run.env,
  });
  if (tip.code === 0 && tip.stdout.trim() === plan.from.commit)
    await git(['update-ref', '-d', `refs/heads/${plan.branch}`, plan.from.commit], { cwd: run.mainRoot, env: run.env });
  const pathGone = await stat(plan.path).then(
    () => false,
    () => true,
  );
  const branchGone =
    (await git(['rev-parse', '--verify', '--quiet', `refs/heads/${plan.branch}`], { cwd: run.mainRoot, env: run.env }))
      .code !== 0;
  const undone = pathGone && branchGone;
  steps.push({
    kind: 'git',
    label: `remove the worktree and branch ${plan.branch}`,
    disposition: 'run',
    note: plan.path,
    outcome: undone ? 'ok' : 'failed',
    duration_s: Math.round((performance.now() - at) / 1000),
  });
  return undone;
}

function seconds(since: number): number {
  return Math.round((performance.now() - since) / 1000);
}
