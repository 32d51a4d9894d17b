// Sealing: the active logbook becomes an archive, and the next append starts a new active file. An appender
// that opened the old file just before it moved finishes its line there, in the archive: a line is never split
// or lost, only filed a moment early.
import { existsSync, linkSync, mkdirSync, renameSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { archiveStamp, ARCHIVE_SUFFIX, type LogbookPaths } from './paths.js';

export interface Sealed {
  name: string;
  path: string;
}

/** The hidden name an active logbook has between being taken and being filed under its timestamp. */
export const SEALING_PREFIX = '.sealing-';

/**
 * Moves the active logbook to logbook-archives/<timestamp>.jsonl; undefined when there is no active logbook.
 * First one rename to a name no other process can pick: of two concurrent seals exactly one takes the file.
 * Then link() claims the timestamped name, which fails when it exists, so an archive is never overwritten.
 * Throws on any other failure.
 */
export function sealActive(paths: LogbookPaths, now: Date = new Date()): Sealed | undefined {
  mkdirSync(paths.archives, { recursive: true });
  const taken = join(
    paths.archives,
    `${SEALING_PREFIX}${process.pid}-${randomBytes(4).toString('hex')}${ARCHIVE_SUFFIX}`,
  );
  try {
    renameSync(paths.active, taken);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  const stamp = archiveStamp(now);
  for (let attempt = 0; attempt < 1000; attempt++) {
    const name = `${stamp}${attempt === 0 ? '' : `-${attempt}`}${ARCHIVE_SUFFIX}`;
    const path = join(paths.archives, name);
    try {
      linkSync(taken, path);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'EEXIST') continue;
      // A file system without hard links: a checked rename, which a same-millisecond seal could race.
      if ((code === 'EPERM' || code === 'ENOTSUP' || code === 'EOPNOTSUPP') && !existsSync(path)) {
        renameSync(taken, path);
        return { name, path };
      }
      throw error;
    }
    unlinkSync(taken);
    return { name, path };
  }
  throw new Error(`no free archive name for ${stamp} in ${paths.archives}`);
}
