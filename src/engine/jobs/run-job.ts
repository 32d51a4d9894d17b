// Runs one job of the gate: its commands in order through the user's shell, each in its own process group,
// their combined output streamed to one file, stopping at the first failure. The result is a plain record the
// verbs turn into steps and diagnostics; whatever the job does (fails, hangs, floods, vanishes), runJob resolves.
import { stat } from 'node:fs/promises';
import type { DiscernProgressLine } from '../../../generated/types.js';
import { OutputCapture, type OutputCounts } from './output-capture.js';
import { emptyMergedProgress, type MergedProgress } from './progress-merge.js';
import { runCommand } from './run-command.js';
import { jobEnvironment, selectShell } from './shell.js';

export interface JobSpec {
  /** e.g. 'lint', 'generated:types', 'scope:docs', 'standard:coverage'. */
  label: string;
  /** Run in order through the shell; the first failure stops the job. */
  commands: string[];
  cwd: string;
  env: Readonly<Record<string, string | undefined>>;
  /** Per command; 0 = no timeout. */
  timeoutS: number;
  /** The config key that set the timeout, e.g. '[jobs.test] timeout': named in the failure and the output. */
  timeoutKey: string;
  /** Combined stdout and stderr; parent directories are created. */
  outputPath: string;
  /** Abort → the running command's whole process tree is killed, outcome 'cancelled'. */
  signal?: AbortSignal;
  /** Each valid DISCERN_PROGRESS object, as it arrives. */
  onProgress?: (fact: DiscernProgressLine) => void;
  /** Each command's process group, so the caller can journal pgids and reap them after a crash. */
  onProcessGroup?: (event: 'start' | 'end', pgid: number) => void;
  /** Live counts, at most 4 times a second. */
  onOutput?: (counts: OutputCounts) => void;
  /** Each whole, redacted line of the output as it arrives; given only when the caller streams it. */
  onLine?: (text: string) => void;
  /** Values from the project's env files, masked as `***` in everything captured (redaction.ts). */
  secrets?: readonly string[];
}

export type JobFailure =
  | { kind: 'exit'; code: number; command: string }
  | { kind: 'signal'; signal: string; command: string }
  | { kind: 'timeout'; seconds: number; key: string; command: string }
  | { kind: 'spawn'; message: string; command: string };

export interface JobRunResult {
  label: string;
  outcome: 'ok' | 'failed' | 'cancelled';
  failure?: JobFailure;
  durationMs: number;
  outputPath: string;
  /** Bytes in the output file: the job's output plus any line discern appended (timeout, cancellation). */
  outputBytes: number;
  outputLines: number;
  errorLikeLines: number;
  /** The last `DISCERN_METRIC <metric> <number>` value per metric name. */
  metrics: Record<string, number>;
  progress: MergedProgress;
}

export type { OutputCounts } from './output-capture.js';
export type { MergedProgress } from './progress-merge.js';

export async function runJob(spec: JobSpec): Promise<JobRunResult> {
  // process.hrtime, not the performance global: its first use loads perf_hooks (about 1.5 ms) while jobs wait.
  const started = process.hrtime.bigint();
  const finish = (
    outcome: JobRunResult['outcome'],
    failure: JobFailure | undefined,
    capture: OutputCapture | undefined,
  ): JobRunResult => {
    const counts = capture?.outputCounts ?? { lines: 0, bytes: 0, errorLikeLines: 0 };
    const result: JobRunResult = {
      label: spec.label,
      outcome,
      durationMs: Math.round(Number(process.hrtime.bigint() - started) / 1e6),
      outputPath: spec.outputPath,
      outputBytes: counts.bytes,
      outputLines: counts.lines,
      errorLikeLines: counts.errorLikeLines,
      metrics: capture?.metrics ?? {},
      progress: capture?.progress ?? emptyMergedProgress(),
    };
    if (failure !== undefined) result.failure = failure;
    return result;
  };

  let capture: OutputCapture;
  try {
    capture = await OutputCapture.open(spec.outputPath, {
      onProgress: spec.onProgress,
      onOutput: spec.onOutput,
      onLine: spec.onLine,
      secrets: spec.secrets,
    });
  } catch (error) {
    const message = `cannot write the output file ${spec.outputPath}: ${error instanceof Error ? error.message : String(error)}`;
    return finish('failed', { kind: 'spawn', message, command: spec.commands[0] ?? '' }, undefined);
  }

  try {
    const [outcome, failure] = await runCommands(spec, capture);
    await capture.finish();
    return finish(outcome, failure, capture);
  } catch (error) {
    // Only a bug in discern gets here; the job's record still says what happened instead of rejecting.
    await capture.finish();
    const message = `internal error while running the job: ${error instanceof Error ? error.message : String(error)}`;
    return finish('failed', { kind: 'spawn', message, command: spec.commands[0] ?? '' }, capture);
  }
}

async function runCommands(
  spec: JobSpec,
  capture: OutputCapture,
): Promise<[JobRunResult['outcome'], JobFailure | undefined]> {
  if (spec.commands.length === 0) return ['ok', undefined];
  const shell = selectShell(spec.env);
  const env = jobEnvironment(spec.env, spec.label);

  // Checked up front because spawn reports a missing cwd as "spawn /bin/sh ENOENT", which blames the shell.
  const cwdProblem = await directoryProblem(spec.cwd);
  if (cwdProblem !== undefined) {
    const message = `working directory ${spec.cwd} ${cwdProblem}`;
    capture.note(`discern: ${spec.label} could not start: ${message}`);
    return ['failed', { kind: 'spawn', message, command: spec.commands[0] ?? '' }];
  }

  for (const command of spec.commands) {
    if (spec.signal?.aborted === true) {
      capture.note(`discern: ${spec.label} was cancelled`);
      return ['cancelled', undefined];
    }
    const outcome = await runCommand({
      command,
      shell,
      cwd: spec.cwd,
      env,
      timeoutS: spec.timeoutS,
      signal: spec.signal,
      capture,
      onProcessGroup: spec.onProcessGroup,
    });
    switch (outcome.kind) {
      case 'exit':
        if (outcome.code !== 0) return ['failed', { kind: 'exit', code: outcome.code, command }];
        break;
      case 'signal':
        return ['failed', { kind: 'signal', signal: outcome.signal, command }];
      case 'timeout':
        capture.note(
          `discern: ${spec.label} timed out after ${spec.timeoutS} s (${spec.timeoutKey}); its process group was killed`,
        );
        return ['failed', { kind: 'timeout', seconds: spec.timeoutS, key: spec.timeoutKey, command }];
      case 'cancelled':
        capture.note(`discern: ${spec.label} was cancelled; its process group was killed`);
        return ['cancelled', undefined];
      case 'spawn':
        capture.note(`discern: ${spec.label} could not start: ${outcome.message}`);
        return ['failed', { kind: 'spawn', message: outcome.message, command }];
    }
  }
  return ['ok', undefined];
}

async function directoryProblem(path: string): Promise<string | undefined> {
  try {
    return (await stat(path)).isDirectory() ? undefined : 'is not a directory';
  } catch {
    return 'does not exist';
  }
}
