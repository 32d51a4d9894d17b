// Every child process discern starts is registered here, so a signal that ends discern (SIGINT, SIGHUP,
// SIGTERM) stops them first instead of leaving orphans behind.
import type { ChildProcess } from 'node:child_process';

const live = new Set<ChildProcess>();
const groupLeaders = new WeakSet<ChildProcess>();

/**
 * Registers a child until it exits. `groupLeader` marks one started with `detached: true`: it leads its own
 * process group, and stopping the group stops its descendants too.
 */
export function trackChild(child: ChildProcess, groupLeader = false): void {
  live.add(child);
  if (groupLeader) groupLeaders.add(child);
  const forget = (): void => {
    live.delete(child);
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
