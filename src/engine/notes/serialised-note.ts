// Writes and removes git notes under a lock shared by every discern note writer (the Proof note, the
// exception record): parallel `git notes add` calls each read the notes ref, write a new notes commit and
// move the ref, and the last to move it silently drops the others' notes (measured: 2–5 of 16 concurrent
// notes survived). Under the lock every note lands. A commit's note records the landing that put it on the
// trunk, so a different note is never written over an existing one, and only the note written is removed.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { git, gitComplaint } from '../git/git.js';
import { acquireLease } from '../state/lease-lock.js';

export type NoteWrite =
  | { status: 'recorded' | 'already_present'; ref: string; commit: string }
  /** A different note was on the commit and `replace` allowed replacing it: `previous` is its body. */
  | { status: 'replaced'; ref: string; commit: string; previous: string }
  | { status: 'record_failed'; ref: string; commit: string; reason: string };

export interface NoteRun {
  cwd: string;
  env: Readonly<Record<string, string | undefined>>;
}

/**
 * The identity of the notes commits discern makes (a note added, removed or merged): its own, so a machine with
 * no git identity of its own (a clean CI runner) writes notes too. What a note is worth is its signature.
 */
export const NOTES_IDENTITY = {
  GIT_AUTHOR_NAME: 'discern',
  GIT_AUTHOR_EMAIL: 'discern@localhost',
  GIT_COMMITTER_NAME: 'discern',
  GIT_COMMITTER_EMAIL: 'discern@localhost',
} as const;

function asDiscern(run: NoteRun): NoteRun {
  return { cwd: run.cwd, env: { ...run.env, ...NOTES_IDENTITY } };
}

const LOCK_LEASE_MS = 30_000;
const LOCK_WAIT_MS = 30_000;

/** Runs `body` holding the repository's notes lock; a lock that cannot be had is `{ failed }`. */
export async function withNotesLock<T>(
  commonDir: string,
  what: string,
  body: () => Promise<T>,
): Promise<T | { failed: string }> {
  const lockPath = join(commonDir, 'discern', 'locks', 'notes.lock');
  const deadline = Date.now() + LOCK_WAIT_MS;
  for (;;) {
    let lease: ReturnType<typeof acquireLease>;
    try {
      lease = acquireLease(lockPath, {
        leaseMs: LOCK_LEASE_MS,
        holder: { verb: what.toLowerCase().replace(/ /g, '-') },
      });
    } catch (error) {
      return { failed: `the notes lock cannot be taken: ${(error as Error).message}` };
    }
    if ('acquired' in lease) {
      try {
        return await body();
      } finally {
        lease.acquired.release();
      }
    }
    if (Date.now() > deadline) return { failed: 'another writer held the notes lock for 30 s' };
    await new Promise((resolve) => setTimeout(resolve, 10 + Math.random() * 20));
  }
}

/** Writes (or confirms) `body` as the note on `commit` under `ref`. Never throws: a failure is `record_failed`. */
export async function writeNoteSerialised(
  commonDir: string,
  run: NoteRun,
  ref: string,
  commit: string,
  body: string,
  what: string,
  options: { replace?: (previous: string) => Promise<void> } = {},
): Promise<NoteWrite> {
  const written = await withNotesLock(commonDir, what, async (): Promise<NoteWrite> => {
    let dir: string | undefined;
    try {
      const existing = await git(['notes', `--ref=${ref}`, 'show', commit], run);
      if (existing.code === 0 && existing.stdout === body) return { status: 'already_present', ref, commit };
      // A note discern did not write: replaced only when the caller allows it, after it kept the body.
      const previous = existing.code === 0 ? existing.stdout : undefined;
      if (previous !== undefined && options.replace !== undefined) await options.replace(previous);
      else if (previous !== undefined)
        return {
          status: 'record_failed',
          ref,
          commit,
          reason: `${commit.slice(0, 12)} already carries a different ${what}`,
        };
      dir = await mkdtemp(join(tmpdir(), 'discern-note-'));
      const file = join(dir, 'note.json');
      await writeFile(file, body);
      const added = await git(
        ['notes', `--ref=${ref}`, 'add', ...(previous !== undefined ? ['-f'] : []), '-F', file, commit],
        asDiscern(run),
      );
      if (added.code !== 0) return { status: 'record_failed', ref, commit, reason: gitComplaint(added) };
      return previous !== undefined
        ? { status: 'replaced', ref, commit, previous }
        : { status: 'recorded', ref, commit };
    } catch (error) {
      return { status: 'record_failed', ref, commit, reason: (error as Error).message };
    } finally {
      if (dir !== undefined) await rm(dir, { recursive: true, force: true }).catch(() => undefined);
    }
  });
  return 'failed' in written ? { status: 'record_failed', ref, commit, reason: written.failed } : written;
}

/** Removes the note on `commit` under `ref` when it is exactly `body` (someone else's note stays). */
export async function removeNoteSerialised(
  commonDir: string,
  run: NoteRun,
  ref: string,
  commit: string,
  body: string,
  what: string,
): Promise<{ removed: boolean; reason?: string }> {
  const removed = await withNotesLock(commonDir, what, async () => {
    const existing = await git(['notes', `--ref=${ref}`, 'show', commit], run);
    if (existing.code !== 0 || existing.stdout !== body) return { removed: false };
    const gone = await git(['notes', `--ref=${ref}`, 'remove', commit], asDiscern(run));
    return gone.code === 0 ? { removed: true } : { removed: false, reason: gitComplaint(gone) };
  });
  return 'failed' in removed ? { removed: false, reason: removed.failed } : removed;
}
