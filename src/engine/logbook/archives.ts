// The sealed logbooks: the regular files of logbook-archives, oldest first (their names are timestamps), each
// counted by the same reader patterns uses. Anything else in the folder — a link, a folder, a seal a killed
// process left half done — is reported as skipped and never followed.
import { lstat, readdir, realpath } from 'node:fs/promises';
import { join, sep } from 'node:path';
import type { DiscernPatternsArchivesData } from '../../../generated/types.js';

type DiscernPatternsArchiveEntry = DiscernPatternsArchivesData['archives'][number];
import { iso } from './detectors/common.js';
import { ARCHIVE_SUFFIX } from './paths.js';
import { readLogbook } from './read.js';

export interface ArchiveListing {
  archives: DiscernPatternsArchiveEntry[];
  skipped: string[];
}

export async function listArchives(folder: string): Promise<ArchiveListing> {
  let names: string[];
  try {
    names = await readdir(folder);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { archives: [], skipped: [] };
    throw error;
  }
  const archives: DiscernPatternsArchiveEntry[] = [];
  const skipped: string[] = [];
  for (const name of names.sort()) {
    const path = join(folder, name);
    const info = await lstat(path);
    if (!info.isFile() || name.startsWith('.') || !name.endsWith(ARCHIVE_SUFFIX)) {
      skipped.push(name);
      continue;
    }
    archives.push({ name, path, ...(await countEvents(path)) });
  }
  return { archives, skipped };
}

export async function countEvents(
  path: string,
): Promise<{ bytes: number; events: number; malformed: number; first_at?: string; last_at?: string }> {
  const read = await readLogbook(path, () => undefined);
  return {
    bytes: read.bytes,
    events: read.events,
    malformed: read.malformed,
    ...(read.first !== undefined ? { first_at: iso(read.first) } : {}),
    ...(read.last !== undefined ? { last_at: iso(read.last) } : {}),
  };
}

/**
 * The archive file `name` names, only when it is a regular file (not a link) directly inside the archive
 * folder, its real path included: a name can never reach outside the folder, whatever is inside it.
 */
export async function confinedArchive(folder: string, name: string): Promise<string | undefined> {
  const path = join(folder, name);
  try {
    const info = await lstat(path);
    if (!info.isFile()) return undefined;
    const [real, realFolder] = await Promise.all([realpath(path), realpath(folder)]);
    return real.startsWith(realFolder + sep) && !real.slice(realFolder.length + 1).includes(sep) ? path : undefined;
  } catch {
    return undefined;
  }
}
