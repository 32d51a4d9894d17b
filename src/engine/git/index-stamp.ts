// A stamp of the checkout's index file: inode, size, modification and change times. Any write to the index
// (git writes a new file and renames it over) changes it, and the change time cannot be set back by a user's
// process, so an unchanged stamp means the index flags read earlier still hold and need not be read again.
import { statSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';

/** undefined when the index cannot be stat'ed: the caller then reads the flags again. */
export function indexStamp(
  gitDir: string,
  cwd: string,
  env: Readonly<Record<string, string | undefined>>,
): string | undefined {
  const named = env['GIT_INDEX_FILE'];
  const path =
    named === undefined || named === '' ? join(gitDir, 'index') : isAbsolute(named) ? named : resolve(cwd, named);
  try {
    const s = statSync(path, { bigint: true });
    return `${s.dev}:${s.ino}:${s.size}:${s.mtimeNs}:${s.ctimeNs}`;
  } catch {
    return undefined;
  }
}
