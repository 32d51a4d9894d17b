// Where the logbook lives: under the git common directory, so every worktree of a repository appends to one
// logbook and nothing of it is ever in a working tree (docs/decisions/0026).
import { join } from 'node:path';

export const ACTIVE_NAME = 'active.jsonl';
export const ARCHIVE_SUFFIX = '.jsonl';

export interface LogbookPaths {
  /** <git-common-dir>/discern/logbook */
  folder: string;
  /** The file every verb call appends to. */
  active: string;
  /** <git-common-dir>/discern/logbook-archives: sealed logbooks, one file each. */
  archives: string;
}

export function logbookPaths(commonDir: string): LogbookPaths {
  const folder = join(commonDir, 'discern', 'logbook');
  return { folder, active: join(folder, ACTIVE_NAME), archives: join(commonDir, 'discern', 'logbook-archives') };
}

/**
 * An archive's file name from what the caller typed: a plain name (the input schema already refuses `/`, `\`,
 * a leading `.` and `..`), with `.jsonl` added when it was left off. Undefined for anything that is not a plain
 * name, so a name can never leave the archive folder whatever validated it first.
 */
export function archiveFileName(name: string): string | undefined {
  if (!/^[A-Za-z0-9][A-Za-z0-9_-]*(\.[A-Za-z0-9_-]+)*$/.test(name) || name.length > 128) return undefined;
  return name.endsWith(ARCHIVE_SUFFIX) ? name : `${name}${ARCHIVE_SUFFIX}`;
}

/** A sortable, file-name-safe timestamp: 20250301T120000123Z. */
export function archiveStamp(date: Date): string {
  return date.toISOString().replace(/[-:]/g, '').replace('.', '');
}
