// The env files a new worktree gets from the main checkout ([worktree] env_files): the ones present there as
// regular files and not part of the commit the worktree starts from (a tracked one arrives with the checkout).
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { git } from '../git/git.js';

/** [worktree] env_files when the file names none (spec/config.schema.json). */
export const DEFAULT_ENV_FILES: readonly string[] = ['.env', '.env.local'];

/** Env files that exist in the main checkout as regular files and are not part of the starting commit. */
export async function presentEnvFiles(
  files: readonly string[],
  mainRoot: string,
  commit: string,
  env: Readonly<Record<string, string | undefined>>,
): Promise<string[]> {
  const present: string[] = [];
  for (const file of files) {
    let regular: boolean;
    try {
      regular = statSync(join(mainRoot, file)).isFile();
    } catch {
      regular = false;
    }
    if (!regular) continue;
    const tracked = await git(['cat-file', '-e', `${commit}:${file}`], { cwd: mainRoot, env });
    if (tracked.code !== 0) present.push(file);
  }
  return present;
}
