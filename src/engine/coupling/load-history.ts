// The co-change history of HEAD, as cheaply as it can be had: the history cached for this exact HEAD (no git
// process at all when HEAD is read from the ref files); else a cached history of an ancestor of HEAD extended
// with only the commits since (`git log <cached>..HEAD`); else one full pass of git log. A new or extended
// history is cached for the next call. A cache that cannot be written costs only the next call's speed.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { headCommit } from '../git/head-commit.js';
import { couplingCacheDir, newestOtherHistory, readCachedHistory, writeCachedHistory } from './cache.js';
import { HistoryBuilder, type History } from './history.js';

export type CacheUse = 'hit' | 'extended' | 'built';

export type HistoryLoad =
  | { kind: 'loaded'; history: History; cache: CacheUse; shallow: boolean }
  | { kind: 'unborn' }
  | { kind: 'failed'; message: string };

export interface HistoryCheckout {
  root: string;
  gitDir: string;
  commonDir: string;
}

export interface LoadOptions {
  env: Readonly<Record<string, string | undefined>>;
  signal?: AbortSignal;
  /** The caller needs the commits' sha, date and subject (evidence). */
  needMeta?: boolean;
}

export async function loadHistory(checkout: HistoryCheckout, options: LoadOptions): Promise<HistoryLoad> {
  const head = await headCommit(checkout, options.env, options.signal);
  if (head === null) return { kind: 'unborn' };
  const shallow = shallowDigest(checkout.commonDir);
  const dir = couplingCacheDir(checkout.commonDir);
  const cached = readCachedHistory(dir, head, shallow);
  if (cached !== undefined && (options.needMeta !== true || cached.meta() !== undefined))
    return { kind: 'loaded', history: cached, cache: 'hit', shallow: shallow !== null };

  const run = { cwd: checkout.root, env: options.env, ...(options.signal ? { signal: options.signal } : {}) };
  // The reader (and its child process machinery) loads only when the history must be read.
  const { readLogInto } = await import('./read-log.js');
  const older = newestOtherHistory(dir, head, shallow);
  const olderMeta = older?.meta();
  if (older !== undefined && olderMeta !== undefined) {
    const { git } = await import('../git/git.js');
    const ancestor = await git(['merge-base', '--is-ancestor', older.head, head], run);
    if (ancestor.code === 0) {
      const builder = new HistoryBuilder(older.paths);
      const read = await readLogInto(builder, `${older.head}..${head}`, run);
      if (read.ok)
        return save(
          dir,
          builder.build(head, { ints: older.ints, commits: older.commits, meta: olderMeta }),
          'extended',
          shallow,
        );
    }
  }
  const builder = new HistoryBuilder();
  const read = await readLogInto(builder, head, run);
  if (!read.ok) return { kind: 'failed', message: read.message };
  return save(dir, builder.build(head), 'built', shallow);
}

async function save(
  dir: string,
  history: History & { metaLines: string[] },
  cache: CacheUse,
  shallow: string | null,
): Promise<HistoryLoad> {
  try {
    await writeCachedHistory(dir, history, shallow);
  } catch {
    // An unwritable git directory: the answer stands, the next call reads the history again.
  }
  return { kind: 'loaded', history, cache, shallow: shallow !== null };
}

/** A shallow clone's boundary (<git-common-dir>/shallow) as a short digest; null in a complete clone. */
function shallowDigest(commonDir: string): string | null {
  let text: string;
  try {
    text = readFileSync(join(commonDir, 'shallow'), 'utf8');
  } catch {
    return null;
  }
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return `${hash.toString(16).padStart(8, '0')}-${text.length}`;
}
