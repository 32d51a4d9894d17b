// A hosted CI checkout is not a developer's clone: HEAD is detached, history is shallow, and the trunk exists
// only as a remote-tracking ref (origin/main) or not at all. `done --ci` runs there against the fetched trunk:
// these are the facts it needs, read from git, and the refusals that say what to fetch.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { git } from '../git/git.js';

interface Run {
  cwd: string;
  env: Readonly<Record<string, string | undefined>>;
}

/**
 * The fetched trunk that stands in for a missing local one: `refs/remotes/<name>` when the name already says
 * the remote (DISCERN_TRUNK=origin/main), else `refs/remotes/<remote>/<name>`, origin first, then the other
 * remotes in git's order. undefined when no remote-tracking ref of that name was fetched.
 */
export async function fetchedTrunk(name: string, run: Run): Promise<string | undefined> {
  const listed = await git(['for-each-ref', '--format=%(refname)', 'refs/remotes/'], run);
  if (listed.code !== 0) return undefined;
  const refs = new Set(listed.stdout.split('\n').filter((r) => r !== ''));
  const remotes = (await git(['remote'], run)).stdout.split('\n').filter((r) => r !== '');
  const ordered = [...remotes.filter((r) => r === 'origin'), ...remotes.filter((r) => r !== 'origin')];
  const candidates = [`refs/remotes/${name}`, ...ordered.map((r) => `refs/remotes/${r}/${name}`)];
  return candidates.find((ref) => refs.has(ref));
}

/** A shallow clone keeps the list of its cut-off commits in `<common dir>/shallow`. */
export function isShallow(commonDir: string): boolean {
  return existsSync(join(commonDir, 'shallow'));
}

/**
 * In a shallow clone, whether HEAD's history reaches where it left `baseRef`; when it does not, the sentence
 * that says so and how much to fetch. A full clone is never asked (no process runs).
 */
export async function shallowGap(
  commonDir: string,
  baseRef: string,
  run: Run,
): Promise<{ message: string; depth: number } | undefined> {
  if (!isShallow(commonDir)) return undefined;
  const base = await git(['merge-base', baseRef, 'HEAD'], run);
  if (base.code === 0 && base.stdout.trim() !== '') return undefined;
  const counted = await git(['rev-list', '--count', 'HEAD'], run);
  const depth = Number(counted.stdout.trim()) || 1;
  const short = baseRef.replace(/^refs\/(heads|remotes)\//, '');
  return {
    depth,
    message: `This checkout is shallow (HEAD's history here is ${depth} commit${depth === 1 ? '' : 's'} deep) and does not reach the commit where HEAD left ${short}, so what the change is cannot be told. Fetch the whole history (actions/checkout: \`fetch-depth: 0\`; elsewhere \`git fetch --unshallow\`), or at least deeper than the branch is long (\`git fetch --deepen=${Math.max(50, depth * 2)}\`), then run done again.`,
  };
}
