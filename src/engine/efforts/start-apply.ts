// Carries out a start plan: the branch and worktree (parallel checkout), the task record, env files, ensure
// commands and resources, in that order. Anything that fails — a command, a write, a cancellation — undoes
// what was created, in reverse: resources destroyed, then the worktree removed and the branch deleted (it
// holds no commit of its own yet, so nothing is lost). Every step, undo steps included, is reported.
import { availableParallelism } from 'node:os';
import { copyFile, mkdir, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { DiscernAdvisory, DiscernDiagnostic, DiscernStep } from '../../../generated/types.js';
import { commandList } from '../config/commands.js';
import { diagnoseOutput } from '../diagnostics/index.js';
import { faultRequested } from '../faults.js';
import { git, gitComplaint } from '../git/git.js';
import { linkedGitDir } from '../git/ref-store.js';
import { outputFileName } from '../jobs/output-dir.js';
import { runJob, type JobRunResult } from '../jobs/run-job.js';
import type { PlannedResource, StartPlan } from './start-plan.js';
import { taskRecordPath, writeTaskRecord, TASK_RECORD_FORMAT } from './task-record.js';

export interface StartRun {
  plan: StartPlan;
  mainRoot: string;
  env: Readonly<Record<string, string | undefined>>;
  signal: AbortSignal;
  /** Where this start's command outputs go: outside the new worktree, so an undo keeps them readable. */
  outputDir: string;
}

export type StartApplied =
  | { ok: true; steps: DiscernStep[]; worktreeGitDir: string; resources: string[]; advisories: DiscernAdvisory[] }
  | { ok: false; stage: 'checkout' | 'setup'; steps: DiscernStep[]; diagnostics: DiscernDiagnostic[]; message: string; undone: boolean };

/**
 * Creates the branch and worktree: the step that claims the name, so the caller holds the repository's start
 * lock around planning and this. On failure whatever git left behind is removed.
 */
export async function createWorktree(run: StartRun): Promise<{ ok: true; steps: DiscernStep[] } | Extract<StartApplied, { ok: false }>> {
  const { plan } = run;
  const steps: DiscernStep[] = [];
  const began = performance.now();

  await mkdir(plan.root, { recursive: true });
  // Parallel checkout: git's default checks files out one at a time, several times slower on a large tree.
  const workers = Math.max(4, Math.min(availableParallelism() * 2, 16));
  const added = await git(['-c', `checkout.workers=${workers}`, 'worktree', 'add', '-b', plan.branch, plan.path, plan.from.commit], { cwd: run.mainRoot, env: run.env });
  steps.push({ kind: 'git', label: `create branch ${plan.branch} and its worktree`, disposition: 'run', note: plan.path, outcome: added.code === 0 ? 'ok' : 'failed', duration_s: seconds(began) });
  if (added.code !== 0) {
    // worktree add creates the branch before checking out; a failed checkout can leave both behind.
    const undone = await removeWorktreeAndBranch(run, steps);
    return { ok: false, stage: 'checkout', steps, diagnostics: [], message: `git could not create the worktree: ${gitComplaint(added)}.`, undone };
  }
  return { ok: true, steps };
}

/** Everything after the worktree exists: the task record, env files, ensure commands and resources. */
export async function setUpWorktree(run: StartRun, created: readonly DiscernStep[]): Promise<StartApplied> {
  const { plan } = run;
  const steps: DiscernStep[] = [...created];
  const fail = async (message: string, diagnostics: DiscernDiagnostic[], made: readonly PlannedResource[]): Promise<StartApplied> => {
    await destroyResources(run, made, steps);
    const undone = await removeWorktreeAndBranch(run, steps);
    return { ok: false, stage: 'setup', steps, diagnostics, message, undone };
  };

  // The new worktree's git dir, from its .git file (git may have suffixed the admin directory's name).
  const worktreeGitDir = linkedGitDir(plan.path);
  if (worktreeGitDir === undefined) return fail(`the new worktree's git dir could not be read from ${plan.path}/.git.`, [], []);

  const recordStart = performance.now();
  try {
    if (faultRequested(run.env, 'start:task-metadata')) throw new Error('fault injected at start:task-metadata (DISCERN_FAULT)');
    await writeTaskRecord(worktreeGitDir, {
      format: TASK_RECORD_FORMAT,
      id: plan.id,
      branch: plan.branch,
      path: plan.path,
      from: plan.from,
      ...plan.task,
      created_at: new Date().toISOString(),
      resources: [],
    });
    steps.push({ kind: 'task-metadata', label: 'record the task', disposition: 'run', note: taskRecordPath(worktreeGitDir), outcome: 'ok', duration_s: seconds(recordStart) });
  } catch (error) {
    steps.push({ kind: 'task-metadata', label: 'record the task', disposition: 'run', outcome: 'failed', duration_s: seconds(recordStart) });
    return fail(`the task record could not be written: ${(error as Error).message}.`, [], []);
  }

  for (const file of plan.envFiles) {
    const at = performance.now();
    try {
      const target = join(plan.path, file);
      await mkdir(dirname(target), { recursive: true });
      await copyFile(join(run.mainRoot, file), target);
      steps.push({ kind: 'env', label: `copy ${file}`, disposition: 'run', outcome: 'ok', duration_s: seconds(at) });
    } catch (error) {
      steps.push({ kind: 'env', label: `copy ${file}`, disposition: 'run', outcome: 'failed', duration_s: seconds(at) });
      return fail(`${file} could not be copied from the main checkout: ${(error as Error).message}.`, [], []);
    }
  }

  // Outputs go to the calling checkout's git dir: they must outlive a worktree that is undone.
  const outputDir = run.outputDir;
  const commandEnv = { ...run.env, DISCERN_EFFORT: plan.id, DISCERN_BRANCH: plan.branch, DISCERN_WORKTREE: plan.path };
  for (const [i, command] of plan.ensure.entries()) {
    const result = await runJob({ label: 'ensure', commands: [command], cwd: plan.path, env: commandEnv, timeoutS: plan.ensureTimeoutS, timeoutKey: '[gate] timeout', outputPath: join(outputDir, outputFileName(`ensure-${i + 1}`)), signal: run.signal });
    steps.push(jobStep('repository-ensure', 'ensure', command, result));
    if (result.outcome !== 'ok') return fail(failureMessage(`[repository] ensure command "${command}"`, result), await diagnose(result, 'ensure', command, plan.path), []);
  }

  const made: PlannedResource[] = [];
  const advisories: DiscernAdvisory[] = [];
  for (const resource of plan.resources) {
    let result: JobRunResult | undefined;
    for (let attempt = 0; attempt <= resource.retries; attempt++) {
      result = await runJob({ label: `resource:${resource.name}`, commands: commandList(resource.create), cwd: plan.path, env: commandEnv, timeoutS: resource.timeoutS, timeoutKey: `[worktree.resources.${resource.name}] timeout`, outputPath: join(outputDir, outputFileName(`resource-${resource.name}-${attempt + 1}`)), signal: run.signal });
      if (result.outcome !== 'failed') break;
    }
    if (result === undefined) continue;
    const step = jobStep('resource-create', `resource:${resource.name}`, resource.create, result);
    if (result.outcome === 'ok') {
      made.push(resource);
      steps.push(step);
      continue;
    }
    if (!resource.required && result.outcome === 'failed') {
      const advisory: DiscernAdvisory = {
        kind: 'optional-resource-unavailable',
        evidence: [`resource:${resource.name} failed: ${failureMessage('its create command', result)}`, `output: ${result.outputPath}`],
        next_action: `Create it by hand in ${plan.path} (\`${resource.create}\`) if the task needs it; it is optional ([worktree.resources.${resource.name}] required = false).`,
      };
      // Its create failed and start carried on without it: skipped, with the advisory saying why.
      steps.push({ ...step, outcome: 'skipped', advisory });
      advisories.push(advisory);
      continue;
    }
    steps.push(step);
    return fail(failureMessage(`[worktree.resources.${resource.name}] create`, result), await diagnose(result, `resource:${resource.name}`, resource.create, plan.path), made);
  }

  if (made.length > 0) {
    await writeTaskRecord(worktreeGitDir, {
      format: TASK_RECORD_FORMAT,
      id: plan.id,
      branch: plan.branch,
      path: plan.path,
      from: plan.from,
      ...plan.task,
      created_at: new Date().toISOString(),
      resources: made.map((r) => ({ name: r.name, ...(r.destroy !== undefined ? { destroy: r.destroy } : {}) })),
    });
  }
  return { ok: true, steps, worktreeGitDir, resources: made.map((r) => r.name), advisories };
}

function jobStep(kind: 'repository-ensure' | 'resource-create' | 'resource-destroy', label: string, command: string, result: JobRunResult): DiscernStep {
  return {
    kind,
    label,
    disposition: 'run',
    note: command,
    outcome: result.outcome,
    duration_s: Math.round(result.durationMs / 1000),
    output_path: result.outputPath,
    output_lines: result.outputLines,
    error_like_lines: result.errorLikeLines,
  };
}

function failureMessage(what: string, result: JobRunResult): string {
  const f = result.failure;
  if (result.outcome === 'cancelled') return `${what} was cancelled`;
  if (f === undefined) return `${what} failed`;
  switch (f.kind) {
    case 'exit':
      return `${what} exited with status ${f.code}`;
    case 'signal':
      return `${what} was killed by ${f.signal}`;
    case 'timeout':
      return `${what} ran past ${f.seconds} s (${f.key})`;
    case 'spawn':
      return `${what} could not start: ${f.message}`;
  }
}

async function diagnose(result: JobRunResult, tool: string, command: string, cwd: string): Promise<DiscernDiagnostic[]> {
  if (result.outcome === 'cancelled') return [];
  return (await diagnoseOutput({ tool, reproduce_cmd: command, output_path: result.outputPath, cwd })).diagnostics;
}

async function destroyResources(run: StartRun, created: readonly PlannedResource[], steps: DiscernStep[]): Promise<void> {
  const { plan } = run;
  const env = { ...run.env, DISCERN_EFFORT: plan.id, DISCERN_BRANCH: plan.branch, DISCERN_WORKTREE: plan.path };
  for (const resource of [...created].reverse()) {
    if (resource.destroy === undefined) continue;
    // Undoing runs to the end even when the call was cancelled: it is what leaves nothing behind.
    const result = await runJob({ label: `resource:${resource.name}`, commands: commandList(resource.destroy), cwd: plan.path, env, timeoutS: resource.timeoutS, timeoutKey: `[worktree.resources.${resource.name}] timeout`, outputPath: join(run.outputDir, outputFileName(`destroy-${resource.name}`)) });
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
  if (registered) await git(['worktree', 'remove', '--force', '--force', plan.path], { cwd: run.mainRoot, env: run.env });
  await git(['worktree', 'prune'], { cwd: run.mainRoot, env: run.env });
  // The branch was created at the starting commit by this call and holds nothing else: delete only if it still
  // points there, so nothing anyone committed meanwhile is lost.
  const tip = await git(['rev-parse', '--verify', '--quiet', `refs/heads/${plan.branch}`], { cwd: run.mainRoot, env: run.env });
  if (tip.code === 0 && tip.stdout.trim() === plan.from.commit) await git(['update-ref', '-d', `refs/heads/${plan.branch}`, plan.from.commit], { cwd: run.mainRoot, env: run.env });
  const pathGone = await stat(plan.path).then(
    () => false,
    () => true,
  );
  const branchGone = (await git(['rev-parse', '--verify', '--quiet', `refs/heads/${plan.branch}`], { cwd: run.mainRoot, env: run.env })).code !== 0;
  const undone = pathGone && branchGone;
  steps.push({ kind: 'git', label: `remove the worktree and branch ${plan.branch}`, disposition: 'run', note: plan.path, outcome: undone ? 'ok' : 'failed', duration_s: Math.round((performance.now() - at) / 1000) });
  return undone;
}

function seconds(since: number): number {
  return Math.round((performance.now() - since) / 1000);
}
