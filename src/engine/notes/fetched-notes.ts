// How discern's notes reach a clone ([repository] proof_notes, docs/decisions/0051). With "fetch", refresh gives
// each remote a fetch refspec per notes ref, so an ordinary `git fetch` brings the remote's notes into
// refs/notes/remotes/<remote>/discern*; accept merges those copies into the local notes with `git notes merge -s ours`,
// so a local note is never overwritten. Refspecs for pushing are never added: they would change what a bare
// `git push` sends. With "local", refresh removes exactly the refspecs it would add, and nothing else.
import { git, gitComplaint } from '../git/git.js';
import { remoteNames } from '../git/remotes.js';
import { EXCEPTIONS_REF } from './exception-note.js';
import { NOTES_REF } from './note-refs.js';
import { NOTES_IDENTITY, withNotesLock } from './serialised-note.js';

type Run = { cwd: string; env: Readonly<Record<string, string | undefined>> };

const LOCAL_REFS = [NOTES_REF, EXCEPTIONS_REF] as const;

/** Where a remote's copy of a local notes ref is fetched to. */
export function fetchedRef(remote: string, local: string): string {
  return `refs/notes/remotes/${remote}/${local.slice('refs/notes/'.length)}`;
}

/**
 * The refspec that fetches `remote`'s notes: forced, into a namespace of its own, never into local notes. One
 * pattern for both refs (refs/notes/discern and refs/notes/discern-exceptions): a refspec naming one exact ref
 * fails every `git fetch` while the remote lacks that ref, and a pattern that matches nothing does not.
 */
export function notesFetchRefspecs(remote: string): string[] {
  return [`+${NOTES_REF}*:refs/notes/remotes/${remote}/discern*`];
}

export interface RefspecChange {
  remote: string;
  refspec: string;
  action: 'add' | 'remove';
}

/**
 * What refresh changes in the remotes' fetch refspecs for `mode`, given the refspecs they have now
 * (`git config --get-regexp '^remote\..*\.fetch$'`). Pure.
 */
export function planRefspecs(
  mode: 'local' | 'fetch',
  remotes: readonly string[],
  configured: ReadonlyMap<string, readonly string[]>,
): RefspecChange[] {
  const changes: RefspecChange[] = [];
  for (const remote of remotes) {
    const have = configured.get(remote) ?? [];
    for (const refspec of notesFetchRefspecs(remote)) {
      if (mode === 'fetch' && !have.includes(refspec)) changes.push({ remote, refspec, action: 'add' });
      if (mode === 'local' && have.includes(refspec)) changes.push({ remote, refspec, action: 'remove' });
    }
  }
  return changes;
}

/** The remotes and their fetch refspecs, read with one git process. */
export async function configuredRefspecs(
  commonDir: string,
  run: Run,
): Promise<{ remotes: string[]; configured: Map<string, string[]> }> {
  const remotes = remoteNames(commonDir);
  const configured = new Map<string, string[]>();
  if (remotes.length === 0) return { remotes, configured };
  const listed = await git(['config', '--get-regexp', '^remote\\..*\\.fetch$'], run);
  for (const line of listed.stdout.split('\n')) {
    const match = /^remote\.(.+)\.fetch (.*)$/.exec(line);
    if (match === null) continue;
    const [, remote = '', refspec = ''] = match;
    configured.set(remote, [...(configured.get(remote) ?? []), refspec]);
  }
  return { remotes, configured };
}

/** Applies the changes in order; the first that fails stops, with what was done before it. */
export async function applyRefspecs(
  changes: readonly RefspecChange[],
  run: Run,
): Promise<{ done: RefspecChange[]; failed?: { change: RefspecChange; reason: string } }> {
  const done: RefspecChange[] = [];
  for (const change of changes) {
    const key = `remote.${change.remote}.fetch`;
    const args =
      change.action === 'add'
        ? ['config', '--add', key, change.refspec]
        : ['config', '--fixed-value', '--unset', key, change.refspec];
    const ran = await git(args, run);
    if (ran.code !== 0) return { done, failed: { change, reason: gitComplaint(ran) } };
    done.push(change);
  }
  return { done };
}

export interface NotesMerge {
  /** The fetched refs merged into the local notes. */
  merged: string[];
  /** Why a merge failed, when one did: the local notes are as they were. */
  failed?: string;
}

/** The fetched copies that exist, each with the local ref it merges into. */
async function fetchedCopies(commonDir: string, run: Run): Promise<{ from: string; into: string }[]> {
  const listed = await git(['for-each-ref', '--format=%(refname)', 'refs/notes/remotes/'], run);
  const present = new Set(listed.stdout.split('\n').filter(Boolean));
  return remoteNames(commonDir).flatMap((remote) =>
    LOCAL_REFS.map((into) => ({ from: fetchedRef(remote, into), into })).filter((c) => present.has(c.from)),
  );
}

/**
 * Merges every fetched copy into the local notes, under the notes lock: a note only the remote has is added, a
 * commit both have keeps the local note (`-s ours`). The notes commits are discern's own, with its identity.
 */
export async function mergeFetchedNotes(commonDir: string, run: Run): Promise<NotesMerge> {
  const copies = await fetchedCopies(commonDir, run);
  if (copies.length === 0) return { merged: [] };
  const merged = await withNotesLock(commonDir, 'notes merge', async (): Promise<NotesMerge> => {
    const done: string[] = [];
    for (const copy of copies) {
      const ran = await git(['notes', `--ref=${copy.into}`, 'merge', '-q', '-s', 'ours', copy.from], {
        ...run,
        env: { ...run.env, ...NOTES_IDENTITY },
      });
      if (ran.code !== 0) return { merged: done, failed: `${copy.from}: ${gitComplaint(ran)}` };
      done.push(copy.from);
    }
    return { merged: done };
  });
  // The lock itself could not be had: nothing was merged.
  return 'merged' in merged ? merged : { merged: [], failed: merged.failed };
}
