// [worktree] port: each effort's worktree holds a TCP port of its own. The port is recorded in the effort's task
// record, so the ports held are exactly those of the worktrees git still has registered: removing a worktree
// (accept, teardown, drop, park) deletes its admin directory and with it the hold. Allocation runs under the
// repository's start lock, and the record is written before the lock is released, so two starts never take the
// same port.
import { readdirSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
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
  const listening = await listeningPorts();
  return portCandidates(held).find((port) => !listening.has(port));
}

/**
 * The TCP ports something listens on, from the kernel's socket tables. discern never opens a listening socket
 * itself (test/stress/no-listening.test.ts), so it reads rather than probes by binding. Where there are no such
 * tables (not Linux) the set is empty and the task records alone keep efforts' ports apart.
 */
export async function listeningPorts(): Promise<Set<number>> {
  const tables = await Promise.all(
    ['/proc/net/tcp', '/proc/net/tcp6'].map((file) => readFile(file, 'utf8').catch(() => '')),
  );
  return new Set(tables.flatMap(parseListening));
}

/** `/proc/net/tcp` rows: `sl local_address rem_address st …`; a listening socket's state is 0A. */
export function parseListening(table: string): number[] {
  const ports: number[] = [];
  for (const line of table.split('\n').slice(1)) {
    const fields = line.trim().split(/\s+/);
    const local = fields[1];
    if (fields[3] !== '0A' || local === undefined) continue;
    const port = Number.parseInt(local.slice(local.lastIndexOf(':') + 1), 16);
    if (Number.isInteger(port)) ports.push(port);
  }
  return ports;
}
