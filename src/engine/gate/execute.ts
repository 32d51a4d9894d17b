// Applies a gate plan: runs each group in order, a serial group one producer at a time and a parallel group up
// to [gate] concurrency at once. A failure with fail_fast cancels the group's running siblings (cancelled) and
// leaves its queued ones unstarted (skipped); later groups never start (skipped). After every group the
// working tree is compared with before it (drift). The caller's signal cancels everything that runs.
import { join } from 'node:path';
import type { DiscernFailedStage } from '../../../generated/types.js';
import { runJob, type JobRunResult } from '../jobs/run-job.js';
import { outputFileName } from '../jobs/output-dir.js';
import type { GateSettings } from '../config/gate-settings.js';
import type { GateListener } from './events.js';
import { judgeDrift, type DriftVerdict, type GeneratedPaths } from './drift.js';
import { newlyDirty } from './dirty-set.js';
import { failedStageOf, type GatePlan, type StageGroup } from './plan.js';
import type { Producer } from './producers.js';
import type { StandardJudgement } from './standard-verdict.js';

export type ProducerOutcome = 'ok' | 'failed' | 'cancelled' | 'skipped';

export interface ProducerRun {
  producer: Producer;
  group: StageGroup;
  outcome: ProducerOutcome;
  result?: JobRunResult;
  standard?: StandardJudgement;
}

export interface TestSlot {
  release(): Promise<void>;
}

export type SlotAcquirer = (
  signal: AbortSignal,
  listener: GateListener,
) => Promise<{ slot?: TestSlot; waitedMs: number; unavailable?: string }>;

export interface ExecuteOptions {
  plan: GatePlan;
  cwd: string;
  env: Readonly<Record<string, string | undefined>>;
  signal: AbortSignal;
  settings: GateSettings;
  /** This run's output directory; each producer writes <label>.log there. */
  outputDir: string;
  listener: GateListener;
  readDirty: () => Promise<Set<string>>;
  /** The dirty set before the first stage when the caller already knows it (a clean tree: empty). */
  initialDirty?: Set<string>;
  generated: GeneratedPaths;
  /** Takes one of the repository's test slots for a group that holds one. */
  acquireTestSlot?: SlotAcquirer;
  /** Judges a standard producer's metrics after its command succeeded. */
  judgeStandard?: (producer: Producer, result: JobRunResult) => Promise<StandardJudgement>;
  /** Masked as `***` in every producer's captured output (engine/jobs/redaction.ts). */
  secrets?: readonly string[];
  /**
   * Emit a producer-line event per output line. Only when someone shows them ([gate] stream on a surface that
   * streams): otherwise no per-line callback is installed at all.
   */
  streamLines?: boolean;
}

export interface GateRun {
  runs: ProducerRun[];
  failedStage: DiscernFailedStage | null;
  drift?: DriftVerdict;
  waitedMs: number;
  cancelled: boolean;
  /** Why the test-slot cap could not be applied, when it could not (the run went ahead without it). */
  capUnavailable?: string;
  /** The dirty set read after the last group that ran, so the caller need not read it again; absent when cancelled. */
  dirtyAfter?: Set<string>;
}

export async function executeGate(options: ExecuteOptions): Promise<GateRun> {
  const { plan, listener, signal } = options;
  const runs: ProducerRun[] = [];
  let failedStage: DiscernFailedStage | null = null;
  let drift: DriftVerdict | undefined;
  let waitedMs = 0;
  let capUnavailable: string | undefined;
  let before = options.initialDirty ?? (await options.readDirty());

  for (const group of plan.groups) {
    if (failedStage !== null || signal.aborted) {
      for (const producer of group.producers) {
        runs.push({ producer, group, outcome: 'skipped' });
        listener({ type: 'producer-end', label: producer.label, outcome: 'skipped', durationMs: 0 });
      }
      continue;
    }
    let slot: TestSlot | undefined;
    if (group.holdsTestSlot && options.acquireTestSlot) {
      const taken = await options.acquireTestSlot(signal, listener);
      waitedMs += taken.waitedMs;
      slot = taken.slot;
      if (taken.unavailable !== undefined) capUnavailable = taken.unavailable;
      if (signal.aborted) {
        await slot?.release();
        for (const producer of group.producers) runs.push({ producer, group, outcome: 'skipped' });
        continue;
      }
    }
    listener({ type: 'group-start', group: group.name, producers: group.producers.map((p) => p.label) });
    let groupRuns: ProducerRun[];
    try {
      groupRuns = await runGroup(group, options);
    } finally {
      await slot?.release();
    }
    runs.push(...groupRuns);
    const failed = groupRuns.filter((r) => r.outcome === 'failed');
    if (failed.length > 0)
      failedStage = failedStageOf(
        group,
        failed.map((r) => r.producer),
      );
    // Drift is judged even after a failure: a fixer that rewrote files and then failed still wrote them.
    if (!signal.aborted) {
      const after = await options.readDirty();
      const verdict = judgeDrift(plan.mode, group, newlyDirty(before, after), options.generated);
      before = after;
      if (verdict && failedStage === null) {
        drift = verdict;
        failedStage = verdict.failedStage;
      }
    }
  }
  return {
    runs,
    failedStage,
    ...(drift ? { drift } : {}),
    waitedMs,
    cancelled: signal.aborted,
    ...(capUnavailable !== undefined ? { capUnavailable } : {}),
    ...(signal.aborted ? {} : { dirtyAfter: before }),
  };
}

async function runGroup(group: StageGroup, options: ExecuteOptions): Promise<ProducerRun[]> {
  const { listener, settings } = options;
  // The group's own controller: fail_fast aborts it without touching the caller's signal.
  const controller = new AbortController();
  const onOuterAbort = (): void => controller.abort(options.signal.reason);
  options.signal.addEventListener('abort', onOuterAbort, { once: true });
  const results: (ProducerRun | undefined)[] = new Array(group.producers.length);
  let next = 0;
  let stopped = false;
  const width = group.parallel ? Math.max(1, settings.concurrency) : 1;

  const worker = async (): Promise<void> => {
    while (next < group.producers.length) {
      const index = next++;
      const producer = group.producers[index] as Producer;
      if (stopped || controller.signal.aborted) {
        results[index] = { producer, group, outcome: 'skipped' };
        listener({ type: 'producer-end', label: producer.label, outcome: 'skipped', durationMs: 0 });
        continue;
      }
      const run = await runProducer(producer, group, controller.signal, options);
      results[index] = run;
      if (run.outcome === 'failed' && (settings.failFast || !group.parallel)) {
        // A serial group stops at its first failure whatever fail_fast says: later fixers would work on a
        // tree the failed one may have half-written.
        stopped = true;
        if (settings.failFast) controller.abort(new Error(`${producer.label} failed`));
      }
    }
  };
  try {
    await Promise.all(Array.from({ length: Math.min(width, group.producers.length) }, worker));
  } finally {
    options.signal.removeEventListener('abort', onOuterAbort);
  }
  return results.map((r, i) => r ?? { producer: group.producers[i] as Producer, group, outcome: 'skipped' });
}

async function runProducer(
  producer: Producer,
  group: StageGroup,
  signal: AbortSignal,
  options: ExecuteOptions,
): Promise<ProducerRun> {
  const { listener } = options;
  listener({ type: 'producer-start', label: producer.label, group: group.name });
  const result = await runJob({
    label: producer.label,
    commands: producer.commands,
    cwd: options.cwd,
    env: options.env,
    timeoutS: producer.timeoutS,
    timeoutKey: producer.timeoutKey,
    outputPath: join(options.outputDir, outputFileName(producer.label)),
    signal,
    ...(options.secrets ? { secrets: options.secrets } : {}),
    ...(options.streamLines === true
      ? { onLine: (text: string) => listener({ type: 'producer-line', label: producer.label, text }) }
      : {}),
    onProgress: (fact) => listener({ type: 'producer-progress', label: producer.label, fact }),
    onProcessGroup: (event, pgid) => listener({ type: 'producer-pgid', label: producer.label, event, pgid }),
    onOutput: (counts) =>
      listener({
        type: 'producer-output',
        label: producer.label,
        lines: counts.lines,
        errorLikeLines: counts.errorLikeLines,
      }),
  });
  let outcome: ProducerOutcome = result.outcome;
  let standard: StandardJudgement | undefined;
  if (outcome === 'ok' && producer.standard && options.judgeStandard) {
    standard = await options.judgeStandard(producer, result);
    if (!standard.ok || standard.verdict === 'regressed') outcome = 'failed';
  }
  listener({
    type: 'producer-end',
    label: producer.label,
    outcome,
    durationMs: result.durationMs,
    outputPath: result.outputPath,
    ...(standard?.ok ? { detail: `measured ${standard.value}` } : {}),
  });
  return { producer, group, outcome, result, ...(standard ? { standard } : {}) };
}
