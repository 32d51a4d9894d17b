// A note's DSSE envelope, signed (docs/decisions/0050): the payload names its issuer — the key, where the key came
// from, and the signing time a signer line's validity is checked against — so it is built once the key is
// known. When the owner's key cannot sign, the discern key signs and the issuer says so; when no key can, the
// note is written unsigned (it fails open, as every note does) and the reason is returned for the result.
import { dssePae } from '../signing/sshsig.js';
import { discernSigningKey, signingKey, type KeySource, type SigningKey } from '../signing/signing-key.js';
import { envelopeBody, type NoteIssuer } from './envelope.js';
import { SIGNING_NAMESPACES } from '../../../generated/signing.js';
import { PAYLOAD_TYPE } from './note-refs.js';
import type { ProofNotePayload } from './proof-note.js';
import { EXCEPTION_PAYLOAD_TYPE, type ExceptionNotePayload } from './exception-note.js';

export type { NoteIssuer };

type Env = Readonly<Record<string, string | undefined>>;

export interface NoteSignature {
  keyid: string;
  key_source: KeySource;
  /** Why the owner's configured key did not sign, when git names one. */
  owner_key_unused?: string;
}

export interface SignedBody {
  /** One JSON line and a newline. */
  body: string;
  signature?: NoteSignature;
  /** Why the note carries no signature. */
  unsigned?: string;
}

/**
 * Signs `payload` (with its issuer added) in `namespace` with this machine's key, as git resolves it in `cwd`.
 * `now` is the signing time. Never throws.
 */
export async function signedEnvelope(
  payloadType: string,
  namespace: string,
  payload: (issuer: NoteIssuer | undefined) => object,
  place: { cwd: string; env: Env; now?: Date },
): Promise<SignedBody> {
  const unsigned = (reason: string): SignedBody => ({
    body: envelopeBody(payloadType, Buffer.from(JSON.stringify(payload(undefined)), 'utf8'), []),
    unsigned: reason,
  });
  try {
    const chosen = await signingKey(place.cwd, place.env, { create: true });
    if (!chosen.ok) return unsigned(chosen.reason);
    let key: SigningKey = chosen.key;
    for (;;) {
      const issuer: NoteIssuer = {
        key: key.line,
        key_source: key.source,
        signed_at: (place.now ?? new Date()).toISOString(),
      };
      const bytes = Buffer.from(JSON.stringify(payload(issuer)), 'utf8');
      const signed = await key.sign(namespace, dssePae(payloadType, bytes));
      if (signed.ok)
        return {
          body: envelopeBody(payloadType, bytes, [{ keyid: key.keyid, sig: signed.blob.toString('base64') }]),
          signature: {
            keyid: key.keyid,
            key_source: key.source,
            ...(key.ownerKeyUnused !== undefined ? { owner_key_unused: key.ownerKeyUnused } : {}),
          },
        };
      if (key.source !== 'owner') return unsigned(signed.reason);
      // The owner's key is configured but could not sign now: the discern key signs, and the result says why.
      const fallback = await discernSigningKey(place.env, true, signed.reason);
      if (!fallback.ok) return unsigned(fallback.reason);
      key = fallback.key;
    }
  } catch (error) {
    return unsigned(error instanceof Error ? error.message : String(error));
  }
}

/** The advisory a landing gives when its note went out unsigned: it fails open, like a note not written. */
export function unsignedNoteAdvisory(
  commit: string,
  reason: string,
  what = 'Proof note',
): { kind: 'proof-recording-unavailable'; evidence: [string, ...string[]]; next_action: string } {
  return {
    kind: 'proof-recording-unavailable',
    evidence: [`the ${what} on ${commit.slice(0, 12)} was written without a signature: ${reason}`],
    next_action:
      'The landing stands and its note records it, but `discern verify` will not verify it. Fix what the evidence names — `discern verify --signer-line` shows the key this machine signs with — and later landings are signed.',
  };
}

/** The Proof note body signed with this machine's key (as git resolves it in `cwd`); unsigned, with why, when none can. */
export function signedProofNote(
  payload: ProofNotePayload,
  place: { cwd: string; env: Readonly<Record<string, string | undefined>> },
): Promise<SignedBody> {
  return signedEnvelope(
    PAYLOAD_TYPE,
    SIGNING_NAMESPACES.proof,
    (issuer) => (issuer ? { ...payload, issuer: { ...payload.issuer, ...issuer } } : payload),
    place,
  );
}

/** The exception record signed with this machine's key; unsigned, with why, when none can. */
export function signedExceptionNote(
  payload: ExceptionNotePayload,
  place: { cwd: string; env: Readonly<Record<string, string | undefined>> },
): Promise<SignedBody> {
  return signedEnvelope(
    EXCEPTION_PAYLOAD_TYPE,
    SIGNING_NAMESPACES.exception,
    (issuer) => (issuer ? { ...payload, issuer } : payload),
    place,
  );
}
