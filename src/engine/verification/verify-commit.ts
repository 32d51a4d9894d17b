// Verifies a commit's Proof note from git (docs/decisions/0051), replace refs off, with one `git cat-file --batch`
// asked three times in turn (each question needs the answer before it):
//   1. the commit (rev^{commit}: its id and real tree), the trunk tip's discern/allowed_signers and discern.toml;
//   2. the note, looked up under refs/notes/discern and each fetched refs/notes/remotes/<remote>/discern, at every
//      fan-out git may have given it;
//   3. discern.toml at the predecessor the note names, for its policy digest.
// The judgement itself is check-note.ts; signatures are checked in-process.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ALLOWED_SIGNERS_PATH } from '../../../generated/signing.js';
import { decodeToml } from '../config/toml.js';
import type { BatchObject } from '../git/committed-files.js';
import { CatFileSession } from '../git/cat-file-session.js';
import type { PolicyFacts } from '../policy/currency.js';
import { git } from '../git/git.js';
import { NOTES_REF } from '../notes/note-refs.js';
import { committedPolicy } from '../policy/trunk-policy.js';
import { knownValidIn } from '../config/known-valid.js';
import { parseAllowedSigners } from '../signing/allowed-signers.js';
import { judgeNote, readNoteFacts, type NoteVerdict } from './check-note.js';

type Env = Readonly<Record<string, string | undefined>>;

/** Where a commit is verified: its checkout, the trunk whose signers and policy count, the environment. */
/** Where to verify: the policy facts, and the trunk's ref when it is a fetched one (`done --ci` on hosted CI). */
export type VerifyPlace = PolicyFacts & { trunkRef?: string };

export type VerifyOutcome =
  | { kind: 'no_commit'; rev: string; reason: string }
  | { kind: 'read_failed'; reason: string }
  | {
      kind: 'judged';
      commit: string;
      tree: string;
      verdict: NoteVerdict;
      signers: { ref: string; count: number; problems: string[] } | undefined;
      signersRef: string;
      trustNotes: boolean;
    };

export async function verifyCommit(place: VerifyPlace, rev: string): Promise<VerifyOutcome> {
  if (/[\n\r\0]/.test(rev)) return { kind: 'no_commit', rev, reason: 'it holds a line break' };
  const env = { ...place.env, GIT_NO_REPLACE_OBJECTS: '1' };
  let session: CatFileSession | undefined;
  try {
    session = await CatFileSession.open(place.root, env);
    return await verifyWith(session, place, rev, env);
  } catch (error) {
    return { kind: 'read_failed', reason: error instanceof Error ? error.message : String(error) };
  } finally {
    session?.close();
  }
}

async function verifyWith(session: CatFileSession, place: VerifyPlace, rev: string, env: Env): Promise<VerifyOutcome> {
  const trunkRef = place.trunkRef ?? `refs/heads/${place.trunk}`;
  const signersRef = `${trunkRef}:${ALLOWED_SIGNERS_PATH}`;
  const [commitObject, signersBlob, trunkConfig] = await session.ask([
    `${rev}^{commit}`,
    signersRef,
    `${trunkRef}:discern.toml`,
  ]);
  if (commitObject === undefined || commitObject.type !== 'commit')
    return { kind: 'no_commit', rev, reason: 'git resolves it to no commit here' };
  const commit = commitObject.oid;
  const tree = /^tree ([0-9a-f]{40,64})$/m.exec(commitObject.content.toString('utf8'))?.[1];
  if (tree === undefined) return { kind: 'read_failed', reason: `${commit} has no tree line` };

  const note = await findNote(session, place, commit, env);

  // The predecessor's policy is read only when the note names one.
  const read = note ? readNoteFacts(note.body) : undefined;
  const predecessor = read?.ok ? read.facts.completion?.predecessor : undefined;
  const predecessorPolicy = predecessor === undefined ? undefined : await policyAt(session, place, predecessor);

  const signers = blobText(signersBlob);
  const parsed = signers === undefined ? undefined : parseAllowedSigners(signers);
  const verdict = judgeNote({ commit, tree, note, signers: parsed, signersRef, predecessorPolicy });
  return {
    kind: 'judged',
    commit,
    tree,
    verdict,
    signers:
      parsed === undefined
        ? undefined
        : {
            ref: signersRef,
            count: parsed.signers.length,
            problems: parsed.problems.map((p) => `line ${p.line}: ${p.problem}`),
          },
    signersRef,
    trustNotes: trustNotes(blobText(trunkConfig)),
  };
}

function blobText(object: BatchObject | undefined): string | undefined {
  return object?.type === 'blob' ? object.content.toString('utf8') : undefined;
}

/** The trunk's [repository] trust_notes: only the owner's policy lets a note stand in for a gate run. */
function trustNotes(text: string | undefined): boolean {
  if (text === undefined) return false;
  const decoded = decodeToml(Buffer.from(text, 'utf8'), 'discern.toml');
  if (!decoded.ok) return false;
  const repository = (decoded.value as { repository?: { trust_notes?: unknown } } | undefined)?.repository;
  return repository?.trust_notes === true;
}

/** The notes refs to look in: the local one first, then each remote's fetched copy. */
export function notesRefs(commonDir: string): string[] {
  const remotes = new Set<string>();
  const dir = join(commonDir, 'refs', 'notes', 'remotes');
  try {
    for (const remote of readdirSync(dir)) if (existsSync(join(dir, remote, 'discern'))) remotes.add(remote);
  } catch {
    // no fetched notes as loose refs
  }
  try {
    for (const line of readFileSync(join(commonDir, 'packed-refs'), 'utf8').split('\n')) {
      const m = /^[0-9a-f]{40,64} refs\/notes\/remotes\/([^/\s]+)\/discern$/.exec(line);
      if (m?.[1]) remotes.add(m[1]);
    }
  } catch {
    // no packed refs
  }
  return [NOTES_REF, ...[...remotes].sort().map((r) => `refs/notes/remotes/${r}/discern`)];
}

/** git stores a note at `<commit>` or fanned out (`ab/cdef…`, `ab/cd/ef…`) as its notes tree grows. */
function notePaths(commit: string): string[] {
  return [
    commit,
    `${commit.slice(0, 2)}/${commit.slice(2)}`,
    `${commit.slice(0, 2)}/${commit.slice(2, 4)}/${commit.slice(4)}`,
  ];
}

async function findNote(
  session: CatFileSession,
  place: VerifyPlace,
  commit: string,
  env: Env,
): Promise<{ ref: string; body: string } | undefined> {
  // A reftable repository keeps its refs elsewhere: git lists the fetched notes refs.
  const refs = existsSync(join(place.commonDir, 'reftable'))
    ? await reftableNotesRefs({ cwd: place.root, env })
    : notesRefs(place.commonDir);
  const names = refs.flatMap((ref) => notePaths(commit).map((path) => ({ ref, name: `${ref}:${path}` })));
  const objects = await session.ask(names.map((n) => n.name));
  const at = objects.findIndex((o) => o?.type === 'blob');
  return at < 0 ? undefined : { ref: names[at]!.ref, body: objects[at]!.content.toString('utf8') };
}

async function reftableNotesRefs(run: { cwd: string; env: Env }): Promise<string[]> {
  const listed = await git(['for-each-ref', '--format=%(refname)', 'refs/notes/remotes/'], run);
  const remotes = listed.stdout.split('\n').filter((r) => /^refs\/notes\/remotes\/[^/]+\/discern$/.test(r));
  return [NOTES_REF, ...remotes.sort()];
}

async function policyAt(
  session: CatFileSession,
  place: VerifyPlace,
  predecessor: string,
): Promise<{ digest: string } | { reason: string }> {
  if (!/^[0-9a-f]{40,64}$/.test(predecessor)) return { reason: 'the predecessor is not an object id' };
  const [exists, config] = await session.ask([`${predecessor}^{commit}`, `${predecessor}:discern.toml`]);
  if (exists === undefined) return { reason: `${predecessor.slice(0, 12)} is not a commit in this repository` };
  const policy = await committedPolicy(
    blobText(config),
    `${predecessor.slice(0, 12)}:discern.toml`,
    knownValidIn(join(place.commonDir, 'discern', 'config-valid')),
  );
  return policy.state === 'unreadable' ? { reason: policy.reason } : { digest: policy.digest };
}
