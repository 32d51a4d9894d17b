// Spare installs: a copy of a [worktree] copy entry made ahead of time, in the background after a worktree took
// one, so the next worktree renames it into place instead of copying (docs/decisions/0053-warm-worktrees.md).
// Each spare is `<git-common-dir>/discern/warm-pool/<digest>-<random>/` holding `tree/` and `spare.json`; the
// digest covers the entry's path and its key files' content, so a spare is only ever taken by a worktree whose
// key files match the ones it was made from. One spare per entry path is kept: a newer one replaces the rest.
import { createHash, randomBytes } from 'node:crypto';
import { mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { CopyEntry } from './copy-entries.js';
import { copyTree, type TreeCopyRequest } from './tree-copy.js';

export const SPARE_FORMAT = 1;

export interface Spare {
  format: number;
  path: string;
  digest: string;
  bytes: number;
  files: number;
  linked: number;
  made_at: string;
}

export function poolDir(commonDir: string): string {
  return join(commonDir, 'discern', 'warm-pool');
}

/** The entry's path and its key files' bytes (absent ones marked), as a hex digest. */
export async function entryDigest(entry: CopyEntry, root: string): Promise<string> {
  const hash = createHash('sha256').update(`${entry.path}\0`);
  for (const file of [...entry.key].sort()) {
    const bytes = await readFile(join(root, file)).catch(() => undefined);
    hash.update(`${file}\0${bytes === undefined ? 'absent' : `${bytes.length}\0`}`);
    if (bytes !== undefined) hash.update(bytes);
  }
  return hash.digest('hex').slice(0, 32);
}

/**
 * Moves a spare made for these key files into `target`, or undefined when there is none (or it cannot be renamed
 * there: another filesystem). A spare is taken whole or not at all: rename is the only step that touches target.
 */
export async function takeSpare(
  commonDir: string,
  entry: CopyEntry,
  digest: string,
  target: string,
): Promise<Spare | undefined> {
  const pool = poolDir(commonDir);
  const names = await readdir(pool).catch(() => [] as string[]);
  for (const name of names.filter((n) => n.startsWith(`${digest}-`))) {
    const spare = await readSpare(join(pool, name));
    if (spare === undefined || spare.path !== entry.path || spare.digest !== digest) continue;
    try {
      await mkdir(dirname(target), { recursive: true });
      await rename(join(pool, name, 'tree'), target);
    } catch {
      continue;
    }
    await rm(join(pool, name), { recursive: true, force: true }).catch(() => undefined);
    return spare;
  }
  return undefined;
}

/** Makes a spare of `entry` from the main checkout, unless one for these key files is there already. */
export async function makeSpare(
  commonDir: string,
  entry: CopyEntry,
  request: Omit<TreeCopyRequest, 'target' | 'staging'>,
): Promise<Spare | undefined> {
  const pool = poolDir(commonDir);
  const digest = await entryDigest(entry, request.mainRoot);
  const names = await readdir(pool).catch(() => [] as string[]);
  if (names.some((n) => n.startsWith(`${digest}-`))) return undefined;
  const id = `${digest}-${randomBytes(4).toString('hex')}`;
  const making = join(pool, `.making-${id}`);
  await mkdir(making, { recursive: true });
  const copied = await copyTree({ ...request, target: join(making, 'tree'), staging: join(making, 'staging') });
  if (!copied.ok) {
    await rm(making, { recursive: true, force: true });
    return undefined;
  }
  const spare: Spare = {
    format: SPARE_FORMAT,
    path: entry.path,
    digest,
    bytes: copied.bytes,
    files: copied.files,
    linked: copied.linked,
    made_at: new Date().toISOString(),
  };
  await writeFile(join(making, 'spare.json'), `${JSON.stringify(spare)}\n`);
  await rename(making, join(pool, id));
  // One spare per entry path: the older ones (other key files, or a race's twin) go.
  for (const name of await readdir(pool).catch(() => [] as string[])) {
    if (name === id) continue;
    // A spare being made is left alone, unless its maker died long ago (a copy takes seconds, not an hour).
    if (name.startsWith('.making-')) {
      const age = Date.now() - ((await stat(join(pool, name)).catch(() => undefined))?.mtimeMs ?? Date.now());
      if (age > 3_600_000) await rm(join(pool, name), { recursive: true, force: true }).catch(() => undefined);
      continue;
    }
    const other = await readSpare(join(pool, name));
    if (other === undefined || other.path === entry.path)
      await rm(join(pool, name), { recursive: true, force: true }).catch(() => undefined);
  }
  return spare;
}

async function readSpare(dir: string): Promise<Spare | undefined> {
  try {
    const parsed = JSON.parse(await readFile(join(dir, 'spare.json'), 'utf8')) as Partial<Spare>;
    if (
      parsed.format !== SPARE_FORMAT ||
      typeof parsed.path !== 'string' ||
      typeof parsed.digest !== 'string' ||
      typeof parsed.bytes !== 'number' ||
      typeof parsed.files !== 'number'
    )
      return undefined;
    return { ...parsed, linked: typeof parsed.linked === 'number' ? parsed.linked : 0 } as Spare;
  } catch {
    return undefined;
  }
}
