// The setup steps a worktree gets after it exists — env files copied from the main checkout, the [repository]
// ensure commands, the [worktree.resources] create commands (with retries; an optional one that fails is an
// advisory) — shared by start and `worktree setup`. It never removes the worktree: on a failure it reports what
// it made, and the caller decides what to undo.
import { copyFile, mkdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { DiscernAdvisory, DiscernDiagnostic, DiscernStep } from '../../../generated/types.js';
import { commandList } from '../config/commands.js';
import { diagnoseOutput } from '../diagnostics/index.js';
import { outputFileName } from '../jobs/output-dir.js';
import { runJob, type JobRunResult } from '../jobs/run-job.js';
import type { PlannedResource } from './start-plan.js';

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
  ensure: readonly string[];
  ensureTimeoutS: number;
  resources: readonly PlannedResource[];
  /** Called with everything made so far right after each resource is created, so it is recorded before anything
   *  else happens: a start killed later still leaves a record teardown can destroy it by. */
  onMade?: (made: readonly PlannedResource[]) => Promise<void>;
  /** Masked as `***` in the commands' captured output (jobs/redaction.ts). */
  secrets?: readonly string[];
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

  const outputDir = run.outputDir;
  const commandEnv = { ...run.env, DISCERN_EFFORT: plan.id, DISCERN_BRANCH: plan.branch, DISCERN_WORKTREE: plan.path };
  for (const [i, command] of plan.ensure.entries()) {
    const result = await runJob({
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

  for (const resource of plan.resources) {
    let result: JobRunResult | undefined;
    for (let attempt = 0; attempt <= resource.retries; attempt++) {
      result = await runJob({
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
      continue;
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

  return { ok: true, steps, made, advisories };
}

export function jobStep(
  kind: 'repository-ensure' | 'resource-create' | 'resource-destroy',
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
