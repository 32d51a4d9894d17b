// What done, prepare and test share around a gate run: the checkout's operation lock (a 60 s lease renewed
// every 20 s, so a second writer in the same checkout is refused instead of racing), the progress journal with
// its R1 handle, the listeners that carry events to the journal and the caller's live channel, the test-slot
// cap, and the run's output directory.
import { join } from 'node:path';
import { acquireLease, startRenewal, type HolderInfo, type Lease } from '../engine/state/lease-lock.js';
import { acquireSlot } from '../engine/state/slots.js';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { openOperation, type FinishOptions, type OperationWriter } from '../engine/journal/index.js';
import { keepNewestOutputs, sweepOldOutputs } from '../engine/jobs/output-dir.js';
import { fanOut, type GateListener } from '../engine/gate/events.js';
import { journalListener } from '../engine/gate/journal-listener.js';
import { reapOrphans } from '../engine/gate/reap.js';
import { liveSummary } from '../engine/gate/live-summary.js';
import { streamListener, type LineSink } from '../engine/gate/stream-listener.js';
import type { GateSettings } from '../engine/config/gate-settings.js';
import type { SlotAcquirer } from '../engine/gate/execute.js';
import { gateStatePaths, type GateStatePaths } from '../engine/gate/state-paths.js';
import {
  preconditionChecks,
  runPreconditions,
  type PreconditionContext,
  type PreconditionOutcome,
} from '../engine/gate/preconditions.js';
import type { Project } from '../engine/project/resolve.js';
import type { LiveProgress, Surface, VerbContext } from './context.js';

export const LEASE_MS = 60_000;
export const RENEW_MS = 20_000;

export function statePathsOf(project: Project): GateStatePaths {
  return gateStatePaths(project.gitDir, project.commonDir);
}

/** How a caller reads an operation back, on its surface. */
export function readBackCommand(surface: Surface, handle: string): string {
  return surface === 'mcp' ? `discern_progress with handle "${handle}"` : `discern progress ${handle}`;
}

export type OperationLock =
  | { held: Lease; stop: () => void }
  | { busy: HolderInfo | null }
  | { denied: PreconditionOutcome & { failure: NonNullable<PreconditionOutcome['failure']> } };

/**
 * Takes the checkout's operation lock. The lock lives in discern's state directory, so a directory that cannot
 * be written is found here first: it is reported as the write probe reports it (write_denied), never as a crash.
 */
export async function takeOperationLock(
  paths: GateStatePaths,
  holder: { verb: string; attempt: string; [key: string]: unknown },
  probe: PreconditionContext,
): Promise<OperationLock> {
  let result: ReturnType<typeof acquireLease>;
  try {
    result = acquireLease(paths.operationLock, { leaseMs: LEASE_MS, holder });
  } catch (error) {
    const denied = await runPreconditions(
      preconditionChecks({ mergeCheck: false, standards: false, trackedArtifacts: false }),
      probe,
    );
    if (denied.failure) return { denied: { ...denied, failure: denied.failure } };
    throw error;
  }
  if ('held' in result) return { busy: result.held };
  const lease = result.acquired;
  return { held: lease, stop: startRenewal(lease, RENEW_MS) };
}

export function releaseOperationLock(lock: OperationLock): void {
  if ('held' in lock) {
    lock.stop();
    lock.held.release();
  }
}

export interface Journal {
  writer: OperationWriter;
  handle: string;
  readBack: string;
  /** Finishes the record and clears the checkout's running marker; never throws. */
  finish: (options: FinishOptions) => Promise<void>;
}

export async function openJournal(
  paths: GateStatePaths,
  verb: string,
  project: Project,
  branch: string | null,
  surface: Surface,
  options: { root?: string } = {},
): Promise<Journal> {
  // Jobs a killed discern left running in this checkout would compete with this run: stop them first.
  await reapOrphans(paths, project.root).catch(() => []);
  const writer = await openOperation(paths.repositoryDir, {
    verb,
    checkout: project.root,
    branch,
    ...(options.root !== undefined ? { root: options.root } : {}),
  });
  // A marker for status and reaping: they find this checkout's running operations without reading the store.
  const running = join(paths.runningOperations, writer.handle);
  await mkdir(paths.runningOperations, { recursive: true })
    .then(() => writeFile(running, ''))
    .catch(() => undefined);
  return {
    writer,
    handle: writer.handle,
    readBack: readBackCommand(surface, writer.handle),
    finish: async (options) => {
      await writer.finish(options).catch(() => undefined);
      await rm(running, { force: true }).catch(() => undefined);
    },
  };
}

/**
 * The listener a run reports to: the journal (when the verb keeps one), the caller's live channel, which
 * learns the run's producers (labels in plan order) up front so a view can show the pending ones too, and the
 * sink of streamed output lines when the run streams (lineSink).
 */
export function runListener(
  journal: Journal | undefined,
  progress: LiveProgress | undefined,
  producers: readonly string[],
  lines?: LineSink,
): GateListener {
  return fanOut(
    journal ? journalListener(journal.writer, journal.readBack) : undefined,
    progress ? liveSummary(producers, progress) : undefined,
    lines ? streamListener(lines, producers) : undefined,
  );
}

/**
 * Where a run streams its jobs' lines: the caller's sink under [gate] stream. None without the key or without a
 * sink (MCP has none: its stdout is the protocol and its stderr the host's log), and then the executor installs
 * no per-line callback.
 */
export function lineSink(settings: GateSettings, ctx: Pick<VerbContext, 'output'>): LineSink | undefined {
  return settings.stream ? ctx.output : undefined;
}

/**
 * The caller's live channel for a verb that runs setup commands and copies rather than a gate (start, worktree
 * setup): each copy and command is a row on a terminal and a progress notification over MCP.
 */
export function liveListener(progress: LiveProgress | undefined): GateListener | undefined {
  return progress ? liveSummary([], progress) : undefined;
}

/** The labels of a plan's producers, in the order the plan runs them. */
export function producerLabels(plan: { groups: readonly { producers: readonly { label: string }[] }[] }): string[] {
  return plan.groups.flatMap((g) => g.producers.map((p) => p.label));
}

/** Run directories kept per checkout beyond the age sweep. */
const OUTPUT_RUNS_KEPT = 20;

export interface RunOutput {
  /** This run's output directory (the jobs create it). */
  dir: string;
  /** Older runs' directories going: those older than a day, and all but the newest. Never rejects. */
  housekept: Promise<void>;
}

/**
 * A fresh output directory for this run. The older ones are swept while the jobs run, not before them: the sweep
 * is a file system walk the jobs need not wait for, and it never touches this run's directory. The caller
 * awaits `housekept` once the jobs are done, so nothing is left half-removed when the process exits.
 */
export function runOutput(paths: GateStatePaths, id: string): RunOutput {
  const name = `${new Date().toISOString().replace(/[:.]/g, '-')}-${id}`;
  const housekept = (async () => {
    await sweepOldOutputs(paths.outputs).catch(() => 0);
    await keepNewestOutputs(paths.outputs, OUTPUT_RUNS_KEPT - 1, name);
  })().catch(() => undefined);
  return { dir: join(paths.outputs, name), housekept };
}

/** Takes one of the repository's test slots ([gate] concurrent_test_runs); the wait is reported as it happens. */
export function testSlotAcquirer(
  paths: GateStatePaths,
  capacity: number,
  holder: Record<string, unknown>,
): SlotAcquirer | undefined {
  if (capacity <= 0) return undefined;
  return async (signal, listener) => {
    const waitId = 'test-slot';
    let waiting = false;
    try {
      const { slot, waitedMs } = await acquireSlot(paths.testSlots, capacity, {
        leaseMs: LEASE_MS,
        holder,
        signal,
        onWait: (info) => {
          waiting = true;
          listener({
            type: 'wait-start',
            id: waitId,
            reason: `all ${info.capacity} test slots are in use`,
            capacity: info.capacity,
            inUse: info.held,
          });
        },
      });
      if (waiting) listener({ type: 'wait-end', id: waitId, waitedMs });
      const stop = startRenewal(slot, RENEW_MS);
      return {
        slot: {
          release: async () => {
            stop();
            slot.release();
          },
        },
        waitedMs,
      };
    } catch (error) {
      if (signal.aborted) return { waitedMs: 0 };
      // The cap is a courtesy to other worktrees: when its directory cannot be used the run goes ahead uncapped
      // and says so (execution-cap-unavailable).
      return {
        waitedMs: 0,
        unavailable: `the test-slot directory ${paths.testSlots} cannot be used (${error instanceof Error ? error.message : String(error)})`,
      };
    }
  };
}
