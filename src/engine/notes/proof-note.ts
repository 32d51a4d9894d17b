// The Proof note: a DSSE envelope (spec/proof-note.schema.json) stored as a git note on the landed trunk
// commit under refs/notes/discern, one JSON line and a newline. The payload is base64 of the UTF-8 JSON and is
// verified over those exact bytes, never re-serialised. The envelope carries an SSHSIG signature over DSSE's
// pre-authentication encoding (docs/decisions/0050), made by this machine's key (signed-envelope.ts).
//
// Writers are serialised by a lock shared with every discern note writer (serialised-note.ts): concurrent
// `git notes add` calls lose notes.
import { git } from '../git/git.js';
import type { NoteCompletion } from './completion.js';
import { writeNoteSerialised, type NoteWrite } from './serialised-note.js';
import { envelopeBody, type NoteIssuer } from './envelope.js';

import { NOTES_REF, PAYLOAD_TYPE } from './note-refs.js';

export { NOTES_REF, PAYLOAD_TYPE };

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
    completion?: NoteCompletion;
  };
  presentation: { line: string; markdown: string };
  acceptance?: {
    consent?: { source: string; client?: { name: string; version: string }; scopes?: string[] };
    variances?: { checkpoint: string; definition_hash: string; subject: string; why: string }[];
  };
  issuer?: { name?: string; email?: string } & Partial<NoteIssuer>;
}

export interface ProofNoteEnvelope {
  payloadType: typeof PAYLOAD_TYPE;
  payload: string;
  signatures: { keyid?: string; sig: string }[];
}

/** The note body, unsigned: one JSON line and a newline. */
export function proofNoteBody(payload: ProofNotePayload): string {
  return envelopeBody(PAYLOAD_TYPE, Buffer.from(JSON.stringify(payload), 'utf8'), []);
}

/** Reads a note body back: the envelope and its payload decoded from the exact bytes; undefined when it is not one. */
export function parseProofNote(body: string): { envelope: ProofNoteEnvelope; payload: ProofNotePayload } | undefined {
  try {
    const envelope = JSON.parse(body) as ProofNoteEnvelope;
    if (
      envelope.payloadType !== PAYLOAD_TYPE ||
      typeof envelope.payload !== 'string' ||
      !Array.isArray(envelope.signatures)
    )
      return undefined;
    const payload = JSON.parse(Buffer.from(envelope.payload, 'base64').toString('utf8')) as ProofNotePayload;
    if (typeof payload?.subject?.commit !== 'string') return undefined;
    return { envelope, payload };
  } catch {
    return undefined;
  }
}

export type { NoteWrite };

interface Run {
  cwd: string;
  env: Readonly<Record<string, string | undefined>>;
}

/**
 * Writes (or confirms) the Proof note on `commit`. Never throws: a failure is `record_failed` with the reason.
 * `keep`: a note already there that differs was not written by this landing (an agent can plant one on its HEAD
 * before landing); with keep it is replaced, after keep has saved its body, instead of standing as the Proof.
 */
export function writeProofNote(
  commonDir: string,
  run: Run,
  commit: string,
  body: string,
  keep?: (previous: string) => Promise<void>,
): Promise<NoteWrite> {
  return writeNoteSerialised(commonDir, run, NOTES_REF, commit, body, 'Proof note', keep ? { replace: keep } : {});
}

/** The Proof note on `commit`, when it has one discern can read. */
export async function readProofNote(run: Run, commit: string): Promise<ReturnType<typeof parseProofNote>> {
  const shown = await git(['notes', `--ref=${NOTES_REF}`, 'show', commit], run);
  return shown.code === 0 ? parseProofNote(shown.stdout) : undefined;
}
