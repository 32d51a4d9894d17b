// Reads the ref store's files directly for the questions start asks on every call — which branches exist
// under a prefix, which worktrees are registered — because a git process per question costs more than the
// answer. Repositories using reftable fall back to git.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { git } from './git.js';

type Run = { cwd: string; env: Readonly<Record<string, string | undefined>> };

/** Local branch names starting with `prefix` (loose refs and packed-refs). */
export async function branchesUnder(commonDir: string, prefix: string, run: Run): Promise<Set<string>> {
  if (existsSync(join(commonDir, 'reftable'))) {
    const listed = await git(['for-each-ref', '--format=%(refname)', `refs/heads/${prefix}`], run);
    return new Set(
      listed.stdout
        .split('\n')
        .filter((l) => l.startsWith('refs/heads/'))
        .map((l) => l.slice('refs/heads/'.length)),
    );
  }
  const names = new Set<string>();
  const heads = join(commonDir, 'refs', 'heads');
  // Only the prefix's own directory can hold its branches.
  const prefixDir = prefix.split('/').filter(Boolean);
  for (const name of looseRefNames(join(heads, ...prefixDir), prefixDir.join('/')))
    if (name.startsWith(prefix)) names.add(name);
  const packed = (() => {
    try {
      return readFileSync(join(commonDir, 'packed-refs'), 'utf8');
    } catch {
      return '';
    }
  })();
  for (const line of packed.split('\n')) {
    const m = /^[0-9a-f]{40,64} refs\/heads\/(.+)$/.exec(line);
    if (m?.[1]?.startsWith(prefix)) names.add(m[1]);
  }
  return names;
}

/** The working-tree paths of the repository's linked worktrees, from `<common-dir>/worktrees/*\/gitdir`. */
export function registeredWorktreePaths(commonDir: string): Set<string> {
  const paths = new Set<string>();
  let entries: string[];
  try {
    entries = readdirSync(join(commonDir, 'worktrees'));
  } catch {
    return paths;
  }
  for (const entry of entries) {
    try {
      const gitFile = readFileSync(join(commonDir, 'worktrees', entry, 'gitdir'), 'utf8').trim();
      paths.add(dirname(gitFile));
    } catch {
      // a half-created or damaged entry: git worktree prune's business
    }
  }
  return paths;
}

/** A linked worktree's git dir, from the `gitdir:` line of its `.git` file. */
export function linkedGitDir(worktree: string): string | undefined {
  try {
    const match = /^gitdir: (.+)$/m.exec(readFileSync(join(worktree, '.git'), 'utf8'));
    const dir = match?.[1]?.trim();
    if (!dir) return undefined;
    // git writes it absolute, or relative to the worktree with worktree.useRelativePaths.
    return isAbsolute(dir) ? dir : resolve(worktree, dir);
  } catch {
    return undefined;
  }
}

/**
 * The names under git's replace namespace (`refs/replace/`, or `GIT_REPLACE_REF_BASE` when the environment sets
 * it): the objects something stands in for. Read from the ref files (loose refs and packed-refs), like the
 * questions above; reftable, or no common dir known, asks git.
 */
export async function replaceRefNames(
  commonDir: string | undefined,
  run: Run & { signal?: AbortSignal },
): Promise<string[]> {
  const base = (run.env['GIT_REPLACE_REF_BASE'] ?? 'refs/replace/').replace(/\/*$/, '/');
  if (commonDir === undefined || existsSync(join(commonDir, 'reftable')) || !existsSync(join(commonDir, 'refs'))) {
    const listed = await git(['for-each-ref', '--format=%(refname)', base], run);
    return listed.stdout
      .split('\n')
      .filter((l) => l.startsWith(base))
      .map((l) => l.slice(base.length));
  }
  const names = new Set(looseRefNames(join(commonDir, ...base.split('/').filter(Boolean)), ''));
  let packed = '';
  try {
    packed = readFileSync(join(commonDir, 'packed-refs'), 'utf8');
  } catch {
    // no packed refs
  }
  for (const line of packed.split('\n')) {
    const at = line.indexOf(` ${base}`);
    if (at > 0 && /^[0-9a-f]{40,64}$/.test(line.slice(0, at))) names.add(line.slice(at + 1 + base.length));
  }
  return [...names];
}

/** The loose refs under `dir` (a directory of the files backend), named from `rel`; lock files are not refs. */
function looseRefNames(dir: string, rel: string): string[] {
  const names: string[] = [];
  let entries: string[];
  try {
    entries = readdirSync(dir);
  } catch {
    return names;
  }
  for (const entry of entries) {
    const name = rel === '' ? entry : `${rel}/${entry}`;
    try {
      if (statSync(join(dir, entry)).isDirectory()) names.push(...looseRefNames(join(dir, entry), name));
      else if (!entry.endsWith('.lock')) names.push(name);
    } catch {
      // removed meanwhile
    }
  }
  return names;
}
