// `discern queue -- <command>...`: runs any command holding one of the repository's test slots, so ad-hoc test
// runs in several worktrees respect [gate] concurrent_test_runs like discern's own. The command runs directly
// (no shell) with this terminal's stdio; discern adds nothing but a wait notice on stderr, and exits with the
// command's own status (128 + n when a signal ended it). With no cap configured it just runs the command.
import { constants } from 'node:os';
import { gateSettings } from '../../engine/config/gate-settings.js';
import { gateStatePaths } from '../../engine/gate/state-paths.js';
import { resolveProject } from '../../engine/project/resolve.js';
import { workingDirectory } from '../../engine/process/working-directory.js';
import { startRenewal } from '../../engine/state/lease-lock.js';
import { acquireSlot, type Slot } from '../../engine/state/slots.js';
import { FORWARDED, runInherited } from './child.js';
import { EXIT } from './exit-codes.js';
import { releaseSignals } from './signals.js';

const LEASE_MS = 60_000;
const RENEW_MS = 20_000;

export async function queue(command: string[]): Promise<number> {
  // queue's signals belong to its command: discern's own wind-down would exit before the command does.
  releaseSignals();
  const [program, ...args] = command;
  if (program === undefined)
    return fail('give the command after --, for example `discern queue -- npm test`.', EXIT.usage);
  const cwd = workingDirectory();
  const resolution = await resolveProject({
    path: cwd,
    pathFrom: 'working-directory',
    requireTrunk: false,
    env: process.env,
  });
  if (!resolution.ok) return fail(resolution.refusal.message, EXIT.failure);
  const { project } = resolution;
  const capacity = gateSettings(project.config).concurrentTestRuns;
  const controller = new AbortController();
  // While waiting for a slot there is no command yet: a signal ends the wait with the usual status.
  const stopWaiting = (signal: NodeJS.Signals): void => {
    controller.abort();
    process.exit(128 + (constants.signals[signal] ?? 0));
  };
  for (const signal of FORWARDED) process.once(signal, stopWaiting);
  let slot: Slot | undefined;
  let stopRenewal: (() => void) | undefined;
  if (capacity > 0) {
    try {
      const taken = await acquireSlot(gateStatePaths(project.gitDir, project.commonDir).testSlots, capacity, {
        leaseMs: LEASE_MS,
        holder: { verb: 'queue', checkout: project.root, command: command.join(' ').slice(0, 200) },
        signal: controller.signal,
        onWait: (info) =>
          process.stderr.write(
            `discern queue: waiting for a test slot (${info.held} of ${info.capacity} in use across the repository's worktrees)\n`,
          ),
      });
      slot = taken.slot;
      stopRenewal = startRenewal(slot, RENEW_MS);
      if (taken.waitedMs > 250)
        process.stderr.write(`discern queue: got a test slot after ${(taken.waitedMs / 1000).toFixed(1)} s\n`);
    } catch (error) {
      if (controller.signal.aborted) return EXIT.SIGINT;
      process.stderr.write(
        `discern queue: the test-slot cap cannot be applied (${error instanceof Error ? error.message : String(error)}); running without it\n`,
      );
    }
  }
  for (const signal of FORWARDED) process.removeListener(signal, stopWaiting);
  try {
    return await runInherited(program, args, cwd, 'discern queue');
  } finally {
    stopRenewal?.();
    slot?.release();
  }
}

function fail(message: string, code: number): number {
  process.stderr.write(`discern queue: ${message}\n`);
  return code;
}
