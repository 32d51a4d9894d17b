// Whether a process is really running, for tests that watch process trees die.
import { readFileSync } from 'node:fs';

/**
 * The process exists and is not a zombie or dead: a killed orphan can wait as a zombie for a reaper that never
 * comes (a container's PID 1 may not reap), yet it still answers signal 0.
 */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const state = stat.slice(stat.lastIndexOf(')') + 2).charAt(0);
    return state !== 'Z' && state !== 'X';
  } catch {
    return true;
  }
}

/**
 * The pid a shell wrote with `echo $! > file`, once the line is complete: the redirection creates the file empty
 * before echo writes, and an empty file read as `Number('')` would be pid 0, which `kill(0, 0)` always finds alive.
 */
export function readPidFile(path: string): number | undefined {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
  return /^[1-9]\d*\n$/.test(text) ? Number(text) : undefined;
}
