// Every child process discern starts is registered here, so a signal that ends discern (SIGINT, SIGHUP,
// SIGTERM) stops them first instead of leaving orphans behind; the process groups of jobs are also given to a
// watchdog, which stops them when discern dies by a signal it cannot handle (SIGKILL).
import type { ChildProcess } from 'node:child_process';
import { unwatchGroup, watchGroup } from './watchdog.js';

const live = new Set<ChildProcess>();
const groupLeaders = new WeakSet<ChildProcess>();

/**
 * Registers a child until it exits. `groupLeader` marks one started with `detached: true`: it leads its own
 * process group, and stopping the group stops its descendants too.
 */
export function trackChild(child: ChildProcess, groupLeader = false): void {
  live.add(child);
  const pgid = groupLeader ? child.pid : undefined;
  if (groupLeader) groupLeaders.add(child);
  // A SIGKILL of discern leaves no handler to stop the group: the watchdog does (watchdog.ts).
  if (pgid !== undefined) watchGroup(pgid);
  const forget = (): void => {
    live.delete(child);
    if (pgid !== undefined) unwatchGroup(pgid);
  };
  child.once('exit', forget);
  child.once('error', forget);
}

/** Sends `signal` to every live child; returns how many were signalled. */
export function stopChildren(signal: NodeJS.Signals = 'SIGTERM'): number {
  let count = 0;
  for (const child of live) {
    const pid = child.pid;
    if (pid === undefined) continue;
    try {
      process.kill(groupLeaders.has(child) ? -pid : pid, signal);
      count++;
    } catch {
      // Already gone.
    }
  }
  return count;
}
