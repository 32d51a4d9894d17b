// The Proof note: a DSSE envelope (spec/proof-note.schema.json) stored as a git note on the landed trunk
// commit under refs/notes/discern, one JSON line and a newline. The payload is base64 of the UTF-8 JSON and is
// verified over those exact bytes, never re-serialised; this version writes no signatures.
//
// Writers are serialised by a lock under the git common dir: parallel `git notes add` calls each read the
// notes ref, write a new notes commit and move the ref, and the last to move it silently drops the others'
// notes (measured: 2–5 of 16 concurrent notes survived). Under the lock every note lands.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { git, gitComplaint } from '../git/git.js';
import { acquireLease } from '../state/lease-lock.js';

export const NOTES_REF = 'refs/notes/discern';
export const PAYLOAD_TYPE = 'https://discern.sh/schema/v1/discern-proof-note.schema.json#/$defs/DiscernProofNotePayload';

export interface ProofNotePayload {
  subject: { commit: string };
  proof: {
    branch: string;
    trunk: string;
    head: string;
    files_total: number;
    insertions: number;
    deletions: number;
    mode?: 'strict' | 'report';
  };
  presentation: { line: string; markdown: string };
  acceptance?: { consent?: { source: string; scopes?: string[] }; variances?: { checkpoint: string; definition_hash: string; subject: string; why: string }[] };
  issuer?: { name?: string; email?: string };
}

export interface ProofNoteEnvelope {
  payloadType: typeof PAYLOAD_TYPE;
  payload: string;
  signatures: { keyid?: string; sig: string }[];
}

/** The note body: one JSON line and a newline. */
export function proofNoteBody(payload: ProofNotePayload): string {
  const envelope: ProofNoteEnvelope = { payloadType: PAYLOAD_TYPE, payload: Buffer.from(JSON.stringify(payload), 'utf8').toString('base64'), signatures: [] };
  return `${JSON.stringify(envelope)}\n`;
}

/** Reads a note body back: the envelope and its payload decoded from the exact bytes; undefined when it is not one. */
export function parseProofNote(body: string): { envelope: ProofNoteEnvelope; payload: ProofNotePayload } | undefined {
  try {
    const envelope = JSON.parse(body) as ProofNoteEnvelope;
    if (envelope.payloadType !== PAYLOAD_TYPE || typeof envelope.payload !== 'string' || !Array.isArray(envelope.signatures)) return undefined;
    const payload = JSON.parse(Buffer.from(envelope.payload, 'base64').toString('utf8')) as ProofNotePayload;
    if (typeof payload?.subject?.commit !== 'string') return undefined;
    return { envelope, payload };
  } catch {
    return undefined;
  }
}

export type NoteWrite = { status: 'recorded' | 'already_present'; ref: string; commit: string } | { status: 'record_failed'; ref: string; commit: string; reason: string };

interface Run {
  cwd: string;
  env: Readonly<Record<string, string | undefined>>;
}

const LOCK_LEASE_MS = 30_000;
const LOCK_WAIT_MS = 30_000;

/** Writes (or confirms) the Proof note on `commit`. Never throws: a failure is `record_failed` with the reason. */
export async function writeProofNote(commonDir: string, run: Run, commit: string, body: string): Promise<NoteWrite> {
  const lockPath = join(commonDir, 'discern', 'locks', 'notes.lock');
  const deadline = Date.now() + LOCK_WAIT_MS;
  let lease: ReturnType<typeof acquireLease>;
  for (;;) {
    try {
      lease = acquireLease(lockPath, { leaseMs: LOCK_LEASE_MS, holder: { verb: 'proof-note' } });
    } catch (error) {
      return { status: 'record_failed', ref: NOTES_REF, commit, reason: `the notes lock cannot be taken: ${(error as Error).message}` };
    }
    if ('acquired' in lease) break;
    if (Date.now() > deadline) return { status: 'record_failed', ref: NOTES_REF, commit, reason: 'another writer held the notes lock for 30 s' };
    await new Promise((resolve) => setTimeout(resolve, 10 + Math.random() * 20));
  }
  const held = lease.acquired;
  const dir = await mkdtemp(join(tmpdir(), 'discern-note-'));
  try {
    const existing = await git(['notes', `--ref=${NOTES_REF}`, 'show', commit], run);
    if (existing.code === 0 && existing.stdout === body) return { status: 'already_present', ref: NOTES_REF, commit };
    // A commit's note records the landing that put it on the trunk: another one is never written over it.
    if (existing.code === 0) return { status: 'record_failed', ref: NOTES_REF, commit, reason: `${commit.slice(0, 12)} already carries a different Proof note` };
    const file = join(dir, 'note.json');
    await writeFile(file, body);
    const added = await git(['notes', `--ref=${NOTES_REF}`, 'add', '-F', file, commit], run);
    if (added.code !== 0) return { status: 'record_failed', ref: NOTES_REF, commit, reason: gitComplaint(added) };
    return { status: 'recorded', ref: NOTES_REF, commit };
  } catch (error) {
    return { status: 'record_failed', ref: NOTES_REF, commit, reason: (error as Error).message };
  } finally {
    held.release();
    await rm(dir, { recursive: true, force: true }).catch(() => undefined);
  }
}

/** The Proof note on `commit`, when it has one discern can read. */
export async function readProofNote(run: Run, commit: string): Promise<ReturnType<typeof parseProofNote>> {
  const shown = await git(['notes', `--ref=${NOTES_REF}`, 'show', commit], run);
  return shown.code === 0 ? parseProofNote(shown.stdout) : undefined;
}
