// What a checkout moving from one commit to another would overwrite that git does not protect: a file the
// checkout ignores, at a path the incoming commit starts tracking, is replaced by `git merge` without a word
// and its bytes are gone. Only the paths the move adds are looked at (O(changed paths), never a listing of
// ignored files). An ignored file whose bytes differ from the incoming version is saved first as a blob that a
// ref keeps reachable (refs/discern/kept/<blob>, so gc never prunes it) and reported with the command that
// restores it; an untracked file that is not ignored is named, for the caller to refuse (git would refuse the
// move itself, later and less clearly).
import { lstat } from 'node:fs/promises';
import { join } from 'node:path';
import { decodeToml } from '../config/toml.js';
import { git, gitComplaint } from './git.js';

type Env = Readonly<Record<string, string | undefined>>;

export interface KeptIgnoredFile {
  path: string;
  /** The blob holding the checkout's bytes as they were. */
  blob: string;
  /** A shell command, run in the checkout, that puts them back. */
  restore: string;
}

export type IncomingCheck =
  | { ok: true; kept: KeptIgnoredFile[] }
  | { ok: false; reason: 'untracked'; paths: string[] }
  | { ok: false; reason: 'failed'; message: string };

export const KEPT_REF_PREFIX = 'refs/discern/kept/';

/**
 * Checks, and saves what it must, before `checkout` (now at `from`) moves to `to`. `keepIgnored: false`
 * ([worktree] ignored_file_drift = false) still refuses untracked files but lets ignored ones be replaced.
 */
export async function keepWhatIncomingOverwrites(
  checkout: string,
  from: string,
  to: string,
  env: Env,
  keepIgnored = true,
): Promise<IncomingCheck> {
  const run = { cwd: checkout, env };
  // Paths `to` tracks that `from` does not: the only ones a move can write over something git does not track.
  const added = await git(['diff', '--name-only', '--no-renames', '--diff-filter=A', '-z', from, to, '--'], run);
  if (added.code !== 0) return { ok: false, reason: 'failed', message: `git diff failed: ${gitComplaint(added)}` };
  const paths = added.stdout.split('\0').filter(Boolean);
  const present: string[] = [];
  for (const path of paths) {
    const info = await lstat(join(checkout, path)).catch(() => undefined);
    // A folder in the way holds files of its own; git refuses that move itself.
    if (info !== undefined && !info.isDirectory()) present.push(path);
  }
  if (present.length === 0) return { ok: true, kept: [] };
  const checked = await git(['check-ignore', '-z', '--stdin'], {
    ...run,
    input: present.map((p) => `${p}\0`).join(''),
  });
  // check-ignore exits 1 when none is ignored; anything else is a failure.
  if (checked.code !== 0 && checked.code !== 1)
    return { ok: false, reason: 'failed', message: `git check-ignore failed: ${gitComplaint(checked)}` };
  const ignored = new Set(checked.stdout.split('\0').filter(Boolean));
  const untracked = present.filter((p) => !ignored.has(p));
  if (untracked.length > 0) return { ok: false, reason: 'untracked', paths: untracked };
  if (!keepIgnored) return { ok: true, kept: [] };
  const candidates = present.filter((p) => ignored.has(p));
  // The incoming blob of each, to leave alone a file that already holds exactly what arrives.
  const listed = await git(['ls-tree', '-r', '-z', to, '--', ...candidates], run);
  if (listed.code !== 0) return { ok: false, reason: 'failed', message: `git ls-tree failed: ${gitComplaint(listed)}` };
  const incoming = new Map<string, string>();
  for (const entry of listed.stdout.split('\0').filter(Boolean)) {
    const tab = entry.indexOf('\t');
    incoming.set(entry.slice(tab + 1), entry.slice(0, tab).split(' ')[2] ?? '');
  }
  const hashed = await git(['hash-object', '-w', '--no-filters', '--', ...candidates], run);
  if (hashed.code !== 0)
    return { ok: false, reason: 'failed', message: `git hash-object failed: ${gitComplaint(hashed)}` };
  const blobs = hashed.stdout.trim().split('\n');
  const kept: KeptIgnoredFile[] = [];
  for (const [index, path] of candidates.entries()) {
    const blob = blobs[index] ?? '';
    if (blob === '' || blob === incoming.get(path)) continue;
    const ref = await git(['update-ref', `${KEPT_REF_PREFIX}${blob}`, blob], run);
    if (ref.code !== 0) return { ok: false, reason: 'failed', message: `git update-ref failed: ${gitComplaint(ref)}` };
    kept.push({ path, blob, restore: `git cat-file blob ${blob} > ${shellQuote(path)}` });
  }
  return { ok: true, kept };
}

/**
 * Whether ignored files are kept ([worktree] ignored_file_drift), as the trunk's committed discern.toml at
 * `trunkCommit` says: never the change's own file, which could otherwise turn the protection off for the very
 * landing it makes. Anything unreadable keeps them (the safe answer).
 */
export async function trunkKeepsIgnoredFiles(cwd: string, trunkCommit: string, env: Env): Promise<boolean> {
  const shown = await git(['cat-file', 'blob', `${trunkCommit}:discern.toml`], { cwd, env });
  if (shown.code !== 0) return true;
  const decoded = decodeToml(Buffer.from(shown.stdout, 'utf8'), 'discern.toml');
  if (!decoded.ok) return true;
  const worktree = (decoded.value as { worktree?: { ignored_file_drift?: unknown } }).worktree;
  return worktree?.ignored_file_drift !== false;
}

function shellQuote(path: string): string {
  return /^[A-Za-z0-9_./-]+$/.test(path) ? path : `'${path.replace(/'/g, `'\\''`)}'`;
}
