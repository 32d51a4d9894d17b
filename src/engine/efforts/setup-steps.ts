// The setup steps a worktree gets after it exists, in this order: env files copied from the main checkout, PORT
// and the inherited variables written into the first of them ([worktree] port, inherit_env), the
// [repository] ensure commands, [worktree.setup] steps (only when the worktree is new) and ensure, the
// [worktree.resources] create commands (with retries; an optional one that fails is an advisory) each followed by
// its ensure, and the ensure of the resources made on an earlier pass. Shared by start, `worktree setup`,
// `worktree ensure` and update. It never removes the worktree: on a failure it reports what it made, and the
// caller decides what to undo.
import { copyFile, mkdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { DiscernAdvisory, DiscernConfig, DiscernDiagnostic, DiscernStep } from '../../../generated/types.js';
import { commandList } from '../config/commands.js';
import { diagnoseOutput } from '../diagnostics/index.js';
import { outputFileName } from '../jobs/output-dir.js';
import { runJob, type JobRunResult, type JobSpec } from '../jobs/run-job.js';
import type { GateListener } from '../gate/events.js';
import type { PlannedResource } from './start-plan.js';
import { writeEnvValues, type EnvWrite } from './env-write.js';

export interface SetupRun {
  id: string;
  branch: string;
  path: string;
  mainRoot: string;
  env: Readonly<Record<string, string | undefined>>;
  signal: AbortSignal;
  /** Where command outputs go: outside the worktree, so they stay readable whatever happens to it. */
  outputDir: string;
  envFiles: readonly string[];
  /** [worktree] port and inherit_env: written after the copies, on every pass over an effort's worktree. */
  envWrite?: EnvWrite;
  ensure: readonly string[];
  /** Why the ensure commands have nothing to do (ensure-stamp.ts): they are reported skipped, not run. */
  ensureConverged?: string;
  /** [worktree.setup] steps: given only when the worktree is new. */
  setupSteps?: readonly string[];
  /** [worktree.setup] ensure: given only for a linked worktree. */
  setupEnsure?: readonly string[];
  ensureTimeoutS: number;
  resources: readonly PlannedResource[];
  /** Resources made on an earlier pass whose ensure runs now, each under the names it was created with. */
  existing?: readonly ExistingResource[];
  /** Called with everything made so far right after each resource is created, so it is recorded before anything
   *  else happens: a start killed later still leaves a record teardown can destroy it by. */
  onMade?: (made: readonly PlannedResource[]) => Promise<void>;
  /** Masked as `***` in the commands' captured output (jobs/redaction.ts). */
  secrets?: readonly string[];
  /** Told as each command starts, reports and ends: a live view's rows, an accept run's journal. */
  listener?: GateListener;
}

export interface ExistingResource {
  name: string;
  ensure: string;
  timeoutS: number;
  env: Readonly<Record<string, string>>;
}

export type SetupResult =
  | { ok: true; steps: DiscernStep[]; made: PlannedResource[]; advisories: DiscernAdvisory[] }
  | { ok: false; steps: DiscernStep[]; made: PlannedResource[]; diagnostics: DiscernDiagnostic[]; message: string };

export async function runSetupSteps(run: SetupRun): Promise<SetupResult> {
  const steps: DiscernStep[] = [];
  const made: PlannedResource[] = [];
  const advisories: DiscernAdvisory[] = [];
  const fail = (message: string, diagnostics: DiscernDiagnostic[]): SetupResult => ({
    ok: false,
    steps,
    made,
    diagnostics,
    message,
  });
  const plan = run;
  for (const file of plan.envFiles) {
    const at = performance.now();
    try {
      const target = join(plan.path, file);
      await mkdir(dirname(target), { recursive: true });
      await copyFile(join(run.mainRoot, file), target);
      steps.push({ kind: 'env', label: `copy ${file}`, disposition: 'run', outcome: 'ok', duration_s: seconds(at) });
    } catch (error) {
      steps.push({
        kind: 'env',
        label: `copy ${file}`,
        disposition: 'run',
        outcome: 'failed',
        duration_s: seconds(at),
      });
      return fail(`${file} could not be copied from the main checkout: ${(error as Error).message}.`, []);
    }
  }

  if (plan.envWrite !== undefined && (plan.envWrite.port !== undefined || plan.envWrite.inherit.length > 0)) {
    const written = await writeEnvValues(plan.envWrite, plan.path, run.mainRoot, run.env);
    steps.push(written.step);
    if (!written.ok) return fail(`${written.message}.`, []);
  }

  const outputDir = run.outputDir;
  const commandEnv = { ...run.env, DISCERN_EFFORT: plan.id, DISCERN_BRANCH: plan.branch, DISCERN_WORKTREE: plan.path };
  for (const [i, command] of plan.ensure.entries()) {
    if (plan.ensureConverged !== undefined) {
      steps.push({
        kind: 'repository-ensure',
        label: 'ensure',
        disposition: 'skip',
        note: `${command}: nothing to do — ${plan.ensureConverged}`,
        outcome: 'skipped',
        duration_s: 0,
      });
      run.listener?.({ type: 'producer-end', label: `ensure: ${command}`, outcome: 'skipped', durationMs: 0 });
      continue;
    }
    const result = await reported(run, `ensure: ${command}`, {
      label: 'ensure',
      commands: [command],
      cwd: plan.path,
      env: commandEnv,
      timeoutS: plan.ensureTimeoutS,
      timeoutKey: '[gate] timeout',
      outputPath: join(outputDir, outputFileName(`ensure-${i + 1}`)),
      signal: run.signal,
      ...(run.secrets ? { secrets: run.secrets } : {}),
    });
    steps.push(jobStep('repository-ensure', 'ensure', command, result));
    if (result.outcome !== 'ok')
      return fail(
        failureMessage(`[repository] ensure command "${command}"`, result),
        await diagnose(result, 'ensure', command, plan.path),
      );
  }

  const passes: { kind: 'worktree-setup-step' | 'worktree-ensure'; key: string; commands: readonly string[] }[] = [
    { kind: 'worktree-setup-step', key: '[worktree.setup] steps', commands: plan.setupSteps ?? [] },
    { kind: 'worktree-ensure', key: '[worktree.setup] ensure', commands: plan.setupEnsure ?? [] },
  ];
  for (const { kind, key, commands } of passes)
    for (const [i, command] of commands.entries()) {
      const result = await reported(
        run,
        `${kind === 'worktree-ensure' ? 'worktree ensure' : 'worktree setup'}: ${command}`,
        {
          label: kind === 'worktree-ensure' ? 'worktree-ensure' : 'worktree-setup',
          commands: [command],
          cwd: plan.path,
          env: commandEnv,
          timeoutS: plan.ensureTimeoutS,
          timeoutKey: '[gate] timeout',
          outputPath: join(outputDir, outputFileName(`${kind}-${i + 1}`)),
          signal: run.signal,
          ...(run.secrets ? { secrets: run.secrets } : {}),
        },
      );
      steps.push(
        jobStep(kind, kind === 'worktree-ensure' ? 'worktree ensure' : 'worktree setup step', command, result),
      );
      if (result.outcome !== 'ok')
        return fail(
          failureMessage(`${key} command "${command}"`, result),
          await diagnose(result, kind, command, plan.path),
        );
    }

  for (const resource of plan.resources) {
    let result: JobRunResult | undefined;
    for (let attempt = 0; attempt <= resource.retries; attempt++) {
      result = await reported(run, `resource ${resource.name}${attempt > 0 ? ` (attempt ${attempt + 1})` : ''}`, {
        label: `resource:${resource.name}`,
        commands: commandList(resource.create),
        cwd: plan.path,
        env: commandEnv,
        timeoutS: resource.timeoutS,
        timeoutKey: `[worktree.resources.${resource.name}] timeout`,
        outputPath: join(outputDir, outputFileName(`resource-${resource.name}-${attempt + 1}`)),
        signal: run.signal,
        ...(run.secrets ? { secrets: run.secrets } : {}),
      });
      if (result.outcome !== 'failed') break;
    }
    if (result === undefined) continue;
    const step = jobStep('resource-create', `resource:${resource.name}`, resource.create, result);
    if (result.outcome === 'ok') {
      made.push(resource);
      steps.push(step);
      await run.onMade?.(made);
      if (resource.ensure === undefined) continue;
      const ensured = await ensureResource(run, commandEnv, resource.name, resource.ensure, resource.timeoutS);
      steps.push(ensured.step);
      if (ensured.ok) continue;
      return fail(ensured.message, ensured.diagnostics);
    }
    if (!resource.required && result.outcome === 'failed') {
      const advisory: DiscernAdvisory = {
        kind: 'optional-resource-unavailable',
        evidence: [
          `resource:${resource.name} failed: ${failureMessage('its create command', result)}`,
          `output: ${result.outputPath}`,
        ],
        next_action: `Create it by hand in ${plan.path} (\`${resource.create}\`) if the task needs it; it is optional ([worktree.resources.${resource.name}] required = false).`,
      };
      // Its create failed and start carried on without it: skipped, with the advisory saying why.
      steps.push({ ...step, outcome: 'skipped', advisory });
      advisories.push(advisory);
      continue;
    }
    steps.push(step);
    return fail(
      failureMessage(`[worktree.resources.${resource.name}] create`, result),
      await diagnose(result, `resource:${resource.name}`, resource.create, plan.path),
    );
  }

  for (const resource of plan.existing ?? []) {
    const ensured = await ensureResource(
      run,
      { ...commandEnv, ...resource.env },
      resource.name,
      resource.ensure,
      resource.timeoutS,
    );
    steps.push(ensured.step);
    if (!ensured.ok) return fail(ensured.message, ensured.diagnostics);
  }

  return { ok: true, steps, made, advisories };
}

async function ensureResource(
  run: SetupRun,
  env: Readonly<Record<string, string | undefined>>,
  name: string,
  command: string,
  timeoutS: number,
): Promise<
  { ok: true; step: DiscernStep } | { ok: false; step: DiscernStep; message: string; diagnostics: DiscernDiagnostic[] }
> {
  const result = await reported(run, `ensure resource ${name}`, {
    label: `resource:${name}`,
    commands: commandList(command),
    cwd: run.path,
    env,
    timeoutS,
    timeoutKey: `[worktree.resources.${name}] timeout`,
    outputPath: join(run.outputDir, outputFileName(`resource-${name}-ensure`)),
    signal: run.signal,
    ...(run.secrets ? { secrets: run.secrets } : {}),
  });
  const step = jobStep('resource-ensure', `ensure resource:${name}`, command, result);
  if (result.outcome === 'ok') return { ok: true, step };
  return {
    ok: false,
    step,
    message: failureMessage(`[worktree.resources.${name}] ensure`, result),
    diagnostics: await diagnose(result, `resource:${name}`, command, run.path),
  };
}

/**
 * Runs one setup command and tells the run's listener about it as a producer of its own: its start, the
 * DISCERN_PROGRESS lines and output counts it writes, and its end. An ensure that installs for minutes is then
 * a row on a terminal and a progress notification over MCP, not a silent wait.
 */
async function reported(run: SetupRun, label: string, spec: JobSpec): Promise<JobRunResult> {
  const tell = run.listener;
  if (tell === undefined) return runJob(spec);
  tell({ type: 'producer-start', label, group: 'setup' });
  const result = await runJob({
    ...spec,
    onProgress: (fact) => tell({ type: 'producer-progress', label, fact }),
    onOutput: (counts) =>
      tell({ type: 'producer-output', label, lines: counts.lines, errorLikeLines: counts.errorLikeLines }),
    onProcessGroup: (event, pgid) => tell({ type: 'producer-pgid', label, event, pgid }),
  });
  tell({
    type: 'producer-end',
    label,
    outcome: result.outcome,
    durationMs: result.durationMs,
    outputPath: result.outputPath,
  });
  return result;
}

export function jobStep(
  kind:
    | 'repository-ensure'
    | 'worktree-setup-step'
    | 'worktree-ensure'
    | 'resource-create'
    | 'resource-ensure'
    | 'resource-destroy',
  label: string,
  command: string,
  result: JobRunResult,
): DiscernStep {
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

export function failureMessage(what: string, result: JobRunResult): string {
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

async function diagnose(
  result: JobRunResult,
  tool: string,
  command: string,
  cwd: string,
): Promise<DiscernDiagnostic[]> {
  if (result.outcome === 'cancelled') return [];
  return (await diagnoseOutput({ tool, reproduce_cmd: command, output_path: result.outputPath, cwd })).diagnostics;
}

function seconds(since: number): number {
  return Math.round((performance.now() - since) / 1000);
}

/** The resources a task record says were made, whose configured ensure runs on this pass. */
export function existingResources(
  config: DiscernConfig,
  recorded: readonly { name: string; env?: Readonly<Record<string, string | undefined>> }[],
  defaultTimeoutS: number,
): ExistingResource[] {
  return recorded.flatMap((made) => {
    const configured = config.worktree?.resources?.[made.name];
    const ensure = configured?.ensure;
    if (ensure === undefined || commandList(ensure).length === 0) return [];
    const env: Record<string, string> = {};
    for (const [key, value] of Object.entries(made.env ?? {})) if (value !== undefined) env[key] = value;
    return [{ name: made.name, ensure, timeoutS: configured?.timeout ?? defaultTimeoutS, env }];
  });
}
