// Job output files live in one directory per run. They are evidence for the agent reading a failure right now,
// not an archive, so old run directories are swept. The sweep runs opportunistically at the start of a run:
// its work is bounded and it never fails the run it piggybacks on.
import { createHash } from 'node:crypto';
import { lstat, opendir, readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';

export const DEFAULT_OUTPUT_MAX_AGE_MS = 24 * 60 * 60 * 1000;
/** Entries looked at per sweep; a directory grown huge is worked down over several runs. */
const MAX_ENTRIES_EXAMINED = 2000;
/** Run directories removed per sweep, so one sweep cannot stall a run for long. */
const MAX_REMOVALS = 200;

/**
 * Removes the subdirectories of `dir` (one per run) whose modification time is older than `maxAgeMs`. Plain
 * files and symbolic links are left alone (a link is never followed out of `dir`). Returns how many were
 * removed; a missing `dir` or any error along the way just ends the sweep early.
 */
export async function sweepOldOutputs(dir: string, maxAgeMs: number = DEFAULT_OUTPUT_MAX_AGE_MS): Promise<number> {
  const cutoff = Date.now() - maxAgeMs;
  let removed = 0;
  let examined = 0;
  try {
    const handle = await opendir(dir);
    try {
      for await (const entry of handle) {
        if (++examined > MAX_ENTRIES_EXAMINED || removed >= MAX_REMOVALS) break;
        if (!entry.isDirectory()) continue;
        const path = join(dir, entry.name);
        try {
          const info = await lstat(path);
          if (!info.isDirectory() || info.mtimeMs >= cutoff) continue;
          // A directory's own mtime moves only when files are added; a job still writing its output is recent.
          if ((await newestChildMtime(path)) >= cutoff) continue;
          await rm(path, { recursive: true, force: true });
          removed++;
        } catch {
          // Removed concurrently by another discern, or not ours to remove: leave it.
        }
      }
    } finally {
      // Breaking out of `for await` closes the handle already; closing twice throws ERR_DIR_CLOSED.
      await handle.close().catch(() => undefined);
    }
  } catch {
    // No output directory yet, or unreadable: nothing to sweep.
  }
  return removed;
}

/** The newest modification time among a run directory's first entries (a run holds a few dozen files). */
async function newestChildMtime(dir: string): Promise<number> {
  let newest = 0;
  let seen = 0;
  const handle = await opendir(dir);
  for await (const entry of handle) {
    if (++seen > MAX_ENTRIES_EXAMINED) break;
    try {
      newest = Math.max(newest, (await lstat(join(dir, entry.name))).mtimeMs);
    } catch {
      // Gone meanwhile.
    }
  }
  return newest;
}

/**
 * A file name for a job's output inside a run directory. Labels such as 'generated:types' or 'scope:docs'
 * contain characters some filesystems refuse; they are replaced, and a short hash of the label keeps two labels
 * that differ only in those characters apart.
 */
export function outputFileName(label: string): string {
  const safe = label
    .replace(/[^A-Za-z0-9._-]/g, '_')
    .replace(/^\.+/, '_')
    .slice(0, 100);
  if (safe === label) return `${safe}.log`;
  return `${safe}-${createHash('sha256').update(label).digest('hex').slice(0, 8)}.log`;
}

/**
 * Keeps at most `keep` run directories: names start with the run's ISO timestamp, so the lexically last are
 * the newest and any run still writing is among them. A chatty job run many times a day cannot fill the disk
 * before the age sweep catches up. Returns how many were removed; never throws.
 */
export async function keepNewestOutputs(dir: string, keep: number, current?: string): Promise<number> {
  let names: string[];
  try {
    // The current run's directory, when named, is neither counted nor removed: it may or may not exist yet.
    names = (await readdir(dir, { withFileTypes: true }))
      .filter((e) => e.isDirectory() && e.name !== current)
      .map((e) => e.name)
      .sort();
  } catch {
    return 0;
  }
  const doomed = names.slice(0, Math.max(0, names.length - keep));
  await Promise.all(doomed.map((name) => rm(join(dir, name), { recursive: true, force: true }).catch(() => undefined)));
  return doomed.length;
}
