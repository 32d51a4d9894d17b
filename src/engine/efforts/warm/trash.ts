// A worktree discern removes (a landed effort's, an integration worktree) holds a whole install: deleting its
// thousands of files is most of what the removal costs. The installs are renamed aside first, into
// `<git-common-dir>/discern/trash/`, and deleted after the caller has its answer by the detached discern that
// makes spares (spare-background.ts); when none can be started, they are deleted on the spot.
import { randomBytes } from 'node:crypto';
import { lstat, mkdir, rename } from 'node:fs/promises';
import { join } from 'node:path';
import type { DiscernConfig } from '../../../../generated/types.js';
import { git } from '../../git/git.js';
import { copyPatterns } from './copy-entries.js';
import { expandPatterns, ignoredPaths } from './copy-facts.js';
import { makeSparesInBackground } from './spare-background.js';
import { emptyTrash, trashDir } from './trash-dir.js';

type Env = Readonly<Record<string, string | undefined>>;

/** Renames the worktree's installs ([worktree] copy entries it holds) into the trash; returns how many moved. */
export async function moveInstallsAside(
  config: DiscernConfig,
  commonDir: string,
  worktree: string,
  env: Env,
): Promise<number> {
  const listed =
    config.worktree?.copy === undefined ? await git(['ls-files', '-z'], { cwd: worktree, env }) : undefined;
  const tracked = listed?.code === 0 ? listed.stdout.split('\0').filter((p) => p !== '') : [];
  const entries = await expandPatterns(copyPatterns(config, tracked), worktree);
  // Only what git ignores there is an install: a tracked directory named by mistake stays for git to remove.
  const ignored = await ignoredPaths(
    entries.map((e) => e.path),
    worktree,
    env,
  );
  let moved = 0;
  for (const entry of entries.filter((e) => ignored.has(e.path))) {
    const from = join(worktree, entry.path);
    const info = await lstat(from).catch(() => undefined);
    if (info?.isDirectory() !== true) continue;
    await mkdir(trashDir(commonDir), { recursive: true });
    // Another filesystem cannot take a rename: that install goes with the worktree, as before.
    const renamed = await rename(from, join(trashDir(commonDir), randomBytes(6).toString('hex'))).then(
      () => true,
      () => false,
    );
    if (renamed) moved++;
  }
  return moved;
}

/** Deletes the trash after the answer: in the background when discern can start itself, else now. */
export async function emptyTrashSoon(commonDir: string, mainRoot: string, env: Env): Promise<void> {
  if (makeSparesInBackground({ commonDir, mainRoot, entries: [], limitBytes: 0, emptyTrash: true }, env)) return;
  await emptyTrash(commonDir);
}
