// Is the process that wrote a lock or a journal record still there? Signal 0 asks the kernel to check that a
// signal could be delivered without delivering one, so probing never disturbs the process. A pid only means
// something on the machine (and in the pid namespace) that wrote it: holderState compares those first.
import { readFileSync, readlinkSync } from 'node:fs';
import { hostname } from 'node:os';

export type ProcessState = 'running' | 'gone' | 'unknown';

export function processState(pid: number): ProcessState {
  // kill(0, …) and kill(-n, …) address process groups (0 is our own): never probe those, and never let a
  // garbled file make us ask about something other than one process.
  if (!Number.isSafeInteger(pid) || pid <= 0) return 'unknown';
  if (pid === process.pid) return 'running';
  try {
    process.kill(pid, 0);
  } catch (error) {
    const code =
      typeof error === 'object' && error !== null && 'code' in error ? (error as { code: unknown }).code : undefined;
    if (code === 'ESRCH') return 'gone';
    // The process exists but belongs to someone else: it is running, we just may not signal it.
    if (code === 'EPERM') return 'running';
    return 'unknown';
  }
  return isZombie(pid) ? 'gone' : 'running';
}

/**
 * A killed process whose parent has not reaped it yet still answers signal 0. It will never release anything
 * again, and in a container whose init never reaps, it can stay that way indefinitely — so on Linux a zombie
 * counts as gone. Elsewhere (no /proc) the answer stands as "running" and the lease expiry takes over.
 */
function isZombie(pid: number): boolean {
  if (process.platform !== 'linux') return false;
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return false;
  }
  // The command name in parentheses may itself contain spaces and parentheses: the state follows the last ')'.
  const state = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
  return state === 'Z' || state === 'X';
}

/**
 * When a process started, in clock ticks since boot (Linux /proc/<pid>/stat field 22); undefined elsewhere. A
 * pid recorded with its start time is recognised as reused when another process now carries it.
 */
export function processStartTime(pid: number): number | undefined {
  if (process.platform !== 'linux') return undefined;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ticks = Number(fields[19]);
    return Number.isFinite(ticks) ? ticks : undefined;
  } catch {
    return undefined;
  }
}

/** Who we are, as recorded beside a pid so that a later reader knows whether it may probe that pid. */
export interface LocalIdentity {
  hostname: string;
  /** This process's start time (see processStartTime). */
  pid_start?: number;
  /**
   * Linux pid namespace (e.g. "pid:[4026531836]"). Two containers may share a hostname and a bind-mounted
   * repository while their pids mean different processes; a differing namespace makes the pid unprobeable.
   */
  pid_ns?: string;
}

let cachedIdentity: LocalIdentity | undefined;

export function localIdentity(): LocalIdentity {
  if (cachedIdentity === undefined) {
    const ns = pidNamespace();
    const start = processStartTime(process.pid);
    cachedIdentity = {
      hostname: hostname(),
      ...(ns !== undefined ? { pid_ns: ns } : {}),
      ...(start !== undefined ? { pid_start: start } : {}),
    };
  }
  return cachedIdentity;
}

/**
 * The state of a process recorded by someone (a lock holder, a journal writer): 'unknown' when it was
 * recorded on another machine or in another pid namespace, where probing our own pid table would lie.
 */
export function holderState(holder: {
  pid?: unknown;
  hostname?: unknown;
  pid_ns?: unknown;
  pid_start?: unknown;
}): ProcessState {
  const local = localIdentity();
  if (typeof holder.pid !== 'number' || holder.hostname !== local.hostname) return 'unknown';
  if (typeof holder.pid_ns === 'string' && local.pid_ns !== undefined && holder.pid_ns !== local.pid_ns)
    return 'unknown';
  const state = processState(holder.pid);
  // The pid is alive, but a different process carries it now: the recorded one is gone.
  if (state === 'running' && typeof holder.pid_start === 'number' && holder.pid !== process.pid) {
    const now = processStartTime(holder.pid);
    if (now !== undefined && now !== holder.pid_start) return 'gone';
  }
  return state;
}

function pidNamespace(): string | undefined {
  if (process.platform !== 'linux') return undefined;
  try {
    return readlinkSync('/proc/self/ns/pid');
  } catch {
    return undefined;
  }
}
