// [worktree] port: each effort's worktree holds a TCP port of its own. The port is recorded in the effort's task
// record, so the ports held are exactly those of the worktrees git still has registered: removing a worktree
// (accept, teardown, drop, park) deletes its admin directory and with it the hold. Allocation runs under the
// repository's start lock, and the record is written before the lock is released, so two starts never take the
// same port.
import { readdirSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { readTaskRecord } from './task-record.js';

/**
 * Outside the ephemeral ranges operating systems hand out for outgoing connections (Linux 32768-60999, macOS and
 * Windows 49152-65535) and away from the usual development ports (3000, 5000, 8000, 8080).
 */
export const PORT_RANGE = { first: 20000, last: 20999 } as const;

/** The ports the task records of the repository's linked worktrees hold. */
export async function heldPorts(commonDir: string): Promise<Set<number>> {
  let names: string[];
  try {
    names = readdirSync(join(commonDir, 'worktrees'));
  } catch {
    return new Set();
  }
  const records = await Promise.all(names.map((name) => readTaskRecord(join(commonDir, 'worktrees', name))));
  return new Set(records.flatMap((record) => (record?.port !== undefined ? [record.port] : [])));
}

/** The ports of the range an allocation may try, lowest first: those no worktree holds. */
export function portCandidates(held: ReadonlySet<number>): number[] {
  const free: number[] = [];
  for (let port = PORT_RANGE.first; port <= PORT_RANGE.last; port++) if (!held.has(port)) free.push(port);
  return free;
}

/** The first candidate nothing listens on now, or undefined when every one is held or busy. */
export async function allocatePort(held: ReadonlySet<number>): Promise<number | undefined> {
  for (const port of portCandidates(held)) if (await bindable(port)) return port;
  return undefined;
}

/** Whether 127.0.0.1:port can be bound right now (then released at once). */
function bindable(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.unref();
    server.once('error', () => resolve(false));
    server.listen({ port, host: '127.0.0.1', exclusive: true }, () => server.close(() => resolve(true)));
  });
}
