// Finds the checkout around a directory by reading the file system the way git does for the plain cases — a
// `.git` directory (a main checkout), or a `.git` file naming a linked worktree's or a submodule's git dir —
// without starting git. Spawning git costs a few milliseconds of the main thread plus its own run time, and
// every project verb starts here, so the common case is answered in-process.
//
// The file-system calls are synchronous on purpose: a dozen tiny metadata reads answer faster inline than as
// thread-pool round trips, and nothing else is waiting on this process meanwhile.
//
// Anything this does not recognise with certainty returns undefined and the caller asks git (`git rev-parse`),
// which then also gives the precise refusal: a path inside a git directory, a repository owned by another user
// (git's safe.directory check), a bare repository or one whose config moves the work tree, a search that would
// cross a file-system boundary, a `.git` that is a symbolic link or names a git dir that does not point back.
import { lstatSync, readFileSync, realpathSync, statSync, type Stats } from 'node:fs';
import { dirname, isAbsolute, join, resolve, sep } from 'node:path';

export interface Discovered {
  root: string;
  gitDir: string;
  commonDir: string;
  location: 'main' | 'worktree';
  shallow: boolean;
}

export function discoverCheckout(start: string): Discovered | undefined {
  if (start.split(sep).includes('.git')) return undefined;
  const uid = process.getuid?.();
  if (uid === undefined) return undefined;
  // The directory itself, as git finds it once it has changed into it: `..` steps taken after any links, not
  // before (`/repo/../elsewhere` is elsewhere, and a link inside the checkout to a folder outside it is that
  // folder). A lexical walk would climb from either into the checkout around it and answer for a project the
  // path does not name.
  const real = attempt(
    () => realpathSync(start),
    () => undefined,
  );
  if (real === undefined || real.split(sep).includes('.git')) return undefined;
  let dir = real;
  let device: number;
  try {
    device = statSync(real).dev;
  } catch {
    return undefined;
  }
  for (;;) {
    const dotGit = join(dir, '.git');
    const entry = attempt(
      () => lstatSync(dotGit, { throwIfNoEntry: false }) ?? null,
      (code) => (code === 'ENOTDIR' ? null : undefined),
    );
    if (entry === undefined) return undefined;
    if (entry !== null)
      return checkoutAt(dir, dotGit, entry.isDirectory() ? 'directory' : entry.isFile() ? 'file' : 'other', uid);
    const parent = dirname(dir);
    if (parent === dir) return undefined; // no repository: git will say so in its own words
    const parentDevice = attempt(
      () => statSync(parent).dev,
      () => undefined,
    );
    if (parentDevice !== device) return undefined;
    dir = parent;
  }
}

function checkoutAt(
  dir: string,
  dotGit: string,
  kind: 'directory' | 'file' | 'other',
  uid: number,
): Discovered | undefined {
  if (kind === 'other') return undefined;
  let gitDir: string;
  if (kind === 'directory') {
    gitDir = dotGit;
  } else {
    const text = read(dotGit);
    const named = text === undefined ? undefined : /^gitdir: (.+)\n?$/.exec(text)?.[1];
    if (named === undefined) return undefined;
    gitDir = isAbsolute(named) ? named : resolve(dir, named);
  }
  const commonFile = read(join(gitDir, 'commondir'));
  let commonDir = gitDir;
  if (commonFile !== undefined) {
    if (kind === 'directory') return undefined; // a .git directory that claims another common dir: unusual
    commonDir = resolve(gitDir, commonFile.trim());
    // A linked worktree's git dir names the .git file that points at it; anything else is stale or moved.
    const back = read(join(gitDir, 'gitdir'));
    if (back === undefined || resolve(gitDir, back.trim()) !== dotGit) return undefined;
  }
  const rootInfo = info(dir);
  const gitInfo = info(gitDir);
  const head = info(join(gitDir, 'HEAD'));
  const config = read(join(commonDir, 'config'));
  const worktreeConfig = info(join(gitDir, 'config.worktree'));
  const shallow = info(join(commonDir, 'shallow'));
  // git's safe.directory check refuses repositories other users own: let git decide (and say so).
  if (rootInfo?.uid !== uid || gitInfo?.uid !== uid || head === undefined || config === undefined) return undefined;
  // A bare repository, or config that moves the work tree, is git's to interpret.
  if (/^\s*(bare\s*=\s*true|worktree\s*=)/im.test(config) || worktreeConfig !== undefined) return undefined;
  const [root, realGitDir, realCommonDir] = [dir, gitDir, commonDir].map((p) =>
    attempt(
      () => realpathSync(p),
      () => undefined,
    ),
  );
  if (!root || !realGitDir || !realCommonDir) return undefined;
  return {
    root,
    gitDir: realGitDir,
    commonDir: realCommonDir,
    location: realGitDir === realCommonDir ? 'main' : 'worktree',
    shallow: shallow !== undefined,
  };
}

function attempt<T>(run: () => T, onError: (code: string | undefined) => T): T {
  try {
    return run();
  } catch (error) {
    return onError((error as NodeJS.ErrnoException).code);
  }
}

function info(path: string): Stats | undefined {
  return attempt(
    () => statSync(path, { throwIfNoEntry: false }),
    () => undefined,
  );
}

function read(path: string): string | undefined {
  return attempt(
    () => readFileSync(path, 'utf8'),
    () => undefined,
  );
}
