// The exception record of an emergency integration (spec/exception-note.schema.json): a DSSE envelope like the
// Proof note, but with its own payload type and its own notes ref, refs/notes/discern-exceptions. Readers of
// Proof check the payload type and read refs/notes/discern only, so an exception can never pass for Proof, even
// if someone copied the note onto the Proof ref (docs/decisions/0029-emergency-integration.md). It is written
// just before the trunk moves, and withdrawn if the move fails, so the repair is never on the trunk unrecorded.
import { git } from '../git/git.js';
import { removeNoteSerialised, writeNoteSerialised, type NoteRun, type NoteWrite } from './serialised-note.js';
import { envelopeBody, type NoteIssuer } from './envelope.js';

export const EXCEPTIONS_REF = 'refs/notes/discern-exceptions';
export const EXCEPTION_PAYLOAD_TYPE =
  'https://discern.sh/schema/v1/discern-exception-note.schema.json#/$defs/DiscernExceptionNotePayload';

export interface ExceptionChecks {
  failed: string[];
  never_ran: string[];
  stale: string[];
}

export interface ExceptionNotePayload {
  kind: 'emergency-integration';
  state: 'landed';
  landing_id: string;
  subject: { commit: string };
  trunk: { name: string; before: string };
  repair: { effort: string; branch: string; head: string };
  reason: string;
  checks: ExceptionChecks;
  checkpoints?: { preparation: string; met: string[] };
  approval: { issued_at: string; approved_at: string; consent?: string; client?: { name: string; version: string } };
  presentation: { line: string; markdown: string };
  issuer?: NoteIssuer;
}

interface ExceptionEnvelope {
  payloadType: typeof EXCEPTION_PAYLOAD_TYPE;
  payload: string;
  signatures: { keyid?: string; sig: string }[];
}

/** The line relayed for an exception landing: it says plainly that this is not Proof. */
export function exceptionLine(trunk: string, commit: string, landingId: string, checks: ExceptionChecks): string {
  const parts = [
    checks.failed.length > 0 ? `${checks.failed.length} failed` : '',
    checks.never_ran.length > 0 ? `${checks.never_ran.length} never ran` : '',
    checks.stale.length > 0 ? `${checks.stale.length} stale` : '',
  ].filter(Boolean);
  return `discern exception ${landingId}: ${trunk} @ ${commit.slice(0, 12)} landed by emergency integration, not Proof (${parts.join(', ') || 'no passing Proof'})`;
}

export function exceptionMarkdown(payload: Omit<ExceptionNotePayload, 'presentation'>, line: string): string {
  const list = (title: string, items: readonly string[]): string =>
    items.length > 0 ? `\n- ${title}: ${items.map((i) => `\`${i}\``).join(', ')}` : '';
  return `# discern exception\n\n> ${line}\n\nReason: ${payload.reason}\n${list('Failed', payload.checks.failed)}${list('Never ran', payload.checks.never_ran)}${list('Stale', payload.checks.stale)}${payload.checkpoints ? list('Checkpoints declared met (preparation)', payload.checkpoints.met) : ''}\n`;
}

/** The note body, unsigned: one JSON line and a newline. */
export function exceptionNoteBody(payload: ExceptionNotePayload): string {
  return envelopeBody(EXCEPTION_PAYLOAD_TYPE, Buffer.from(JSON.stringify(payload), 'utf8'), []);
}

/** Reads a note body back, decoded from its exact bytes; undefined when it is not an exception record. */
export function parseExceptionNote(
  body: string,
): { envelope: ExceptionEnvelope; payload: ExceptionNotePayload } | undefined {
  try {
    const envelope = JSON.parse(body) as ExceptionEnvelope;
    if (
      envelope.payloadType !== EXCEPTION_PAYLOAD_TYPE ||
      typeof envelope.payload !== 'string' ||
      !Array.isArray(envelope.signatures)
    )
      return undefined;
    const payload = JSON.parse(Buffer.from(envelope.payload, 'base64').toString('utf8')) as ExceptionNotePayload;
    if (
      payload?.kind !== 'emergency-integration' ||
      typeof payload.subject?.commit !== 'string' ||
      typeof payload.landing_id !== 'string'
    )
      return undefined;
    return { envelope, payload };
  } catch {
    return undefined;
  }
}

export function writeExceptionNote(commonDir: string, run: NoteRun, commit: string, body: string): Promise<NoteWrite> {
  return writeNoteSerialised(commonDir, run, EXCEPTIONS_REF, commit, body, 'exception record');
}

/** Withdraws the record of a landing that did not happen (only this exact record). */
export function removeExceptionNote(
  commonDir: string,
  run: NoteRun,
  commit: string,
  body: string,
): Promise<{ removed: boolean; reason?: string }> {
  return removeNoteSerialised(commonDir, run, EXCEPTIONS_REF, commit, body, 'exception record');
}

/** The exception record on `commit` (a commit or a ref name), when it has one discern can read. */
export async function readExceptionNote(run: NoteRun, commit: string): Promise<ReturnType<typeof parseExceptionNote>> {
  const shown = await git(['notes', `--ref=${EXCEPTIONS_REF}`, 'show', commit], run);
  return shown.code === 0 ? parseExceptionNote(shown.stdout) : undefined;
}
