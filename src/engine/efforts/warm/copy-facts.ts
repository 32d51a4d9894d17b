// The facts copy-plan.ts decides from, read once a new worktree exists: which entries the main checkout holds,
// whether git ignores them there, whether the new worktree already has them, and whether their key files match.
// One git process (check-ignore over every candidate); the rest are small file reads.
import { lstat, readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { git } from '../../git/git.js';
import type { CopyEntry, CopyPattern } from './copy-entries.js';
import type { CopyEntryFacts } from './copy-plan.js';

type Env = Readonly<Record<string, string | undefined>>;

/** At most this many directories one `*` pattern expands to: a pattern is for a workspace's packages, not a tree. */
const MAX_EXPANSION = 256;

/** The configured patterns with `*` segments matched against the main checkout's directories. */
export async function expandPatterns(patterns: readonly CopyPattern[], mainRoot: string): Promise<CopyEntry[]> {
  const entries: CopyEntry[] = [];
  const seen = new Set<string>();
  for (const pattern of patterns) {
    for (const path of await expand(pattern.path.split('/'), mainRoot, '')) {
      if (seen.has(path)) continue;
      seen.add(path);
      entries.push({ path, key: pattern.key });
    }
  }
  return entries;
}

async function expand(segments: readonly string[], root: string, prefix: string): Promise<string[]> {
  const [segment, ...rest] = segments;
  if (segment === undefined) return prefix === '' ? [] : [prefix];
  const join_ = (name: string) => (prefix === '' ? name : `${prefix}/${name}`);
  if (segment !== '*') return expand(rest, root, join_(segment));
  const names = await readdir(join(root, prefix), { withFileTypes: true }).catch(() => []);
  const found: string[] = [];
  for (const dirent of names.filter((d) => d.isDirectory() && d.name !== '.git').slice(0, MAX_EXPANSION))
    found.push(...(await expand(rest, root, join_(dirent.name))));
  return found;
}

export async function copyFacts(
  entries: readonly CopyEntry[],
  mainRoot: string,
  target: string,
  env: Env,
): Promise<CopyEntryFacts[]> {
  const ignored = await ignoredPaths(
    entries.map((e) => e.path),
    mainRoot,
    env,
  );
  return Promise.all(
    entries.map(async (entry): Promise<CopyEntryFacts> => {
      const main = await lstat(join(mainRoot, entry.path)).catch(() => undefined);
      const inMain = main === undefined ? 'missing' : main.isDirectory() ? 'dir' : 'other';
      const inTarget = (await lstat(join(target, entry.path)).catch(() => undefined)) !== undefined;
      const venv =
        inMain === 'dir' &&
        (await lstat(join(mainRoot, entry.path, 'pyvenv.cfg')).catch(() => undefined)) !== undefined;
      const keyDiffers: string[] = [];
      for (const file of entry.key)
        if (!(await sameContent(join(mainRoot, file), join(target, file)))) keyDiffers.push(file);
      return { entry, inMain, ignored: ignored.has(entry.path), inTarget, venv, keyDiffers };
    }),
  );
}

/** The paths git ignores in the checkout, asked in one check-ignore call. */
export async function ignoredPaths(paths: readonly string[], root: string, env: Env): Promise<Set<string>> {
  if (paths.length === 0) return new Set();
  const result = await git(['check-ignore', '--stdin', '-z'], {
    cwd: root,
    env,
    input: paths.map((p) => `${p}\0`).join(''),
  });
  // Exit 1 means none is ignored; anything else but 0 is a failure, and then nothing counts as ignored.
  if (result.code !== 0) return new Set();
  return new Set(result.stdout.split('\0').filter((p) => p !== ''));
}

/** Both files hold the same bytes, or neither exists. A key file is a manifest or a lockfile: read whole. */
async function sameContent(a: string, b: string): Promise<boolean> {
  const [left, right] = await Promise.all([readFile(a).catch(() => undefined), readFile(b).catch(() => undefined)]);
  if (left === undefined || right === undefined) return left === right;
  return left.equals(right);
}

/** A checkout's tracked files, where the default entries are read from (none when git cannot list them). */
export async function trackedFiles(root: string, env: Env): Promise<string[]> {
  const listed = await git(['ls-files', '-z'], { cwd: root, env });
  return listed.code === 0 ? listed.stdout.split('\0').filter((p) => p !== '') : [];
}
