// Appending one line to the active logbook. The file is opened with O_APPEND and the line goes out in one
// write, so lines from concurrent discern processes (worktrees, the CLI beside an MCP server) land whole, one
// after another; each line is at most MAX_LINE_BYTES. The logbook is advisory: a failure to append is
// swallowed and never changes the call's result (docs/decisions/0026).
import { closeSync, fstatSync, mkdirSync, openSync, writeSync } from 'node:fs';
import type { LogbookPaths } from './paths.js';

/** An active logbook this large is sealed before the next append, so one read never has to scan more. */
export const SEAL_AT_BYTES = 64 * 1024 * 1024;

/** Appends the line; true when it was written. Never throws. */
export async function appendLine(
  paths: LogbookPaths,
  line: string,
  now: Date = new Date(),
  sealAt: number = SEAL_AT_BYTES,
): Promise<boolean> {
  try {
    let fd = openForAppend(paths);
    if (fstatSync(fd).size >= sealAt) {
      closeSync(fd);
      // Loaded only here: a call that appends to a logbook of ordinary size never reads the sealing code.
      const { sealActive } = await import('./seal.js');
      sealActive(paths, now);
      fd = openForAppend(paths);
    }
    try {
      const bytes = Buffer.from(line, 'utf8');
      writeSync(fd, bytes, 0, bytes.length);
    } finally {
      closeSync(fd);
    }
    return true;
  } catch {
    return false;
  }
}

function openForAppend(paths: LogbookPaths): number {
  try {
    return openSync(paths.active, 'a', 0o600);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    mkdirSync(paths.folder, { recursive: true });
    return openSync(paths.active, 'a', 0o600);
  }
}
