// The DSSE envelope every discern note is (docs/decisions/0050): its text, and the issuer a signed payload names.
// Kept apart from the signing machinery, so a reader of notes loads none of it.
import type { KeySource } from '../signing/key-source.js';

export interface NoteIssuer {
  key: string;
  key_source: KeySource;
  signed_at: string;
}

/** The envelope's text: one JSON line and a newline, the payload as base64 of its exact bytes. */
export function envelopeBody(
  payloadType: string,
  payload: Buffer,
  signatures: { keyid: string; sig: string }[],
): string {
  return `${JSON.stringify({ payloadType, payload: payload.toString('base64'), signatures })}\n`;
}
