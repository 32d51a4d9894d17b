// Shared by the job runner's tests: a scratch directory per test and a zombie-aware liveness check.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export function scratch(prefix: string): { dir: string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), `discern-${prefix}-`));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/** Waits until `path` holds a pid (a job writes it in the background), for at most `ms`. */
export async function readPid(path: string, ms = 5000): Promise<number> {
  const deadline = Date.now() + ms;
  for (;;) {
    try {
      const pid = Number(readFileSync(path, 'utf8').trim());
      if (Number.isInteger(pid) && pid > 0) return pid;
    } catch {
      // not written yet
    }
    if (Date.now() > deadline) throw new Error(`no pid in ${path}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** A minimal environment: what a job needs to find its tools, nothing inherited by accident. */
export function baseEnv(extra: Record<string, string | undefined> = {}): Record<string, string | undefined> {
  return { PATH: process.env['PATH'], HOME: process.env['HOME'], ...extra };
}

export { processAlive as alive } from '../../helpers/processes.js';
