// Stopping a job means stopping everything it started. Each command leads its own process group (spawned with
// `detached: true`), so one signal to -pgid reaches the shell, the tools it ran and their background children,
// however deep. Processes that left the group on purpose (setsid daemons) are out of reach by design.
import { readdirSync, readFileSync } from 'node:fs';

/** How long the group gets to exit on SIGTERM (test runners flush reports, compilers remove temp files). */
export const KILL_GRACE_MS = 2000;
/** After SIGKILL only the kernel is involved; this merely bounds the wait for it to finish. */
const AFTER_KILL_WAIT_MS = 1000;

/** Sends `signal` to every process in the group; false when the group no longer exists. */
export function signalGroup(pgid: number, signal: NodeJS.Signals): boolean {
  try {
    process.kill(-pgid, signal);
    return true;
  } catch {
    return false;
  }
}

/**
 * Whether any process of the group is still running. kill(-pgid, 0) alone is not enough: it also succeeds for
 * zombies, and an orphaned grandchild's zombie may never be reaped when PID 1 is not a real init (containers,
 * microVMs). On Linux, /proc tells running members from zombies; elsewhere the kill answer stands.
 */
export function groupHasLiveMembers(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
  } catch {
    // ESRCH: no such group. EPERM: members we may not signal, so waiting for them is pointless.
    return false;
  }
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return true;
  }
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, 'latin1');
    } catch {
      continue; // exited while we looked
    }
    // "pid (comm) state ppid pgrp …": comm may contain spaces and parentheses, so parse after the last ')'.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (Number(fields[2]) === pgid && fields[0] !== 'Z' && fields[0] !== 'X') return true;
  }
  return false;
}

/** Polls until the group has no running member or `ms` passes; true when it is empty. */
export async function waitForGroupExit(pgid: number, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  let interval = 10;
  for (;;) {
    if (!groupHasLiveMembers(pgid)) return true;
    const left = deadline - Date.now();
    if (left <= 0) return false;
    await new Promise((resolve) => setTimeout(resolve, Math.min(interval, left)));
    interval = Math.min(interval * 2, 100);
  }
}

/**
 * SIGTERM to the group, SIGKILL to whatever is still running after `graceMs`. Resolves once the group is empty
 * (or, for a process stuck in uninterruptible sleep, after a bounded wait): never hangs. 'empty' means there
 * was nothing to stop.
 */
export async function terminateGroup(
  pgid: number,
  graceMs = KILL_GRACE_MS,
): Promise<'empty' | 'terminated' | 'killed' | 'stuck'> {
  if (!groupHasLiveMembers(pgid)) return 'empty';
  signalGroup(pgid, 'SIGTERM');
  // A stopped member (^Z, a debugger) keeps SIGTERM pending until it runs again.
  signalGroup(pgid, 'SIGCONT');
  if (await waitForGroupExit(pgid, graceMs)) return 'terminated';
  signalGroup(pgid, 'SIGKILL');
  return (await waitForGroupExit(pgid, AFTER_KILL_WAIT_MS)) ? 'killed' : 'stuck';
}
