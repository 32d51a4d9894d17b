// Judges a commit's Proof note against what git says of the commit and what the trunk trusts (docs/decisions/0051).
// Pure: the reader (verify-commit.ts) gathers the note, the commit's real tree, the trunk's allowed signers and
// the policy digest at the landing's predecessor. Every check that can be made is made and reported; the first
// that fails names the result's error.
import type { DiscernVerifyCheck, DiscernVerifyCheckResult, DiscernVerifyData } from '../../../generated/types.js';
import { SIGNING_NAMESPACES } from '../../../generated/signing.js';
import { PAYLOAD_TYPE } from '../notes/note-refs.js';
import { findSigner, type AllowedSignersFile } from '../signing/allowed-signers.js';
import { dssePae, verifySshsig } from '../signing/sshsig.js';
import type { SshPublicKey } from '../signing/ssh-keys.js';

/** What the note says, read defensively: every field may be missing or of another type. */
export interface NoteFacts {
  payloadBytes: Buffer;
  signatures: { keyid?: string; sig: string }[];
  subject?: string;
  head?: string;
  line?: string;
  branch?: string;
  trunk?: string;
  consent?: string;
  signedAt?: string;
  keySource?: 'owner' | 'discern';
  completion?: { predecessor: string; head: string; tree: string; policy: string };
}

const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
const obj = (v: unknown): Record<string, unknown> | undefined =>
  v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;

/** Reads a note body as a discern Proof note; a reason when it is not one. */
export function readNoteFacts(body: string): { ok: true; facts: NoteFacts } | { ok: false; reason: string } {
  let envelope: Record<string, unknown> | undefined;
  try {
    envelope = obj(JSON.parse(body));
  } catch {
    return { ok: false, reason: 'the note is not JSON' };
  }
  if (envelope === undefined) return { ok: false, reason: 'the note is not a JSON object' };
  if (envelope['payloadType'] !== PAYLOAD_TYPE)
    return { ok: false, reason: `its payloadType is not discern's Proof note type` };
  const payloadText = str(envelope['payload']);
  if (payloadText === undefined || !/^[A-Za-z0-9+/]*={0,2}$/.test(payloadText))
    return { ok: false, reason: 'its payload is not base64' };
  if (!Array.isArray(envelope['signatures'])) return { ok: false, reason: 'it has no signatures list' };
  const payloadBytes = Buffer.from(payloadText, 'base64');
  let payload: Record<string, unknown> | undefined;
  try {
    payload = obj(JSON.parse(payloadBytes.toString('utf8')));
  } catch {
    return { ok: false, reason: 'its payload is not JSON' };
  }
  const subject = str(obj(payload?.['subject'])?.['commit']);
  if (payload === undefined || subject === undefined) return { ok: false, reason: 'its payload names no commit' };
  const proof = obj(payload['proof']);
  const candidate = obj(obj(proof?.['completion'])?.['candidate']);
  const issuer = obj(payload['issuer']);
  const keySource = str(issuer?.['key_source']);
  const completion =
    candidate &&
    str(candidate['predecessor']) &&
    str(candidate['head']) &&
    str(candidate['tree']) &&
    str(candidate['policy'])
      ? {
          predecessor: candidate['predecessor'] as string,
          head: candidate['head'] as string,
          tree: candidate['tree'] as string,
          policy: candidate['policy'] as string,
        }
      : undefined;
  const facts: NoteFacts = {
    payloadBytes,
    signatures: (envelope['signatures'] as unknown[])
      .map(obj)
      .filter((s): s is Record<string, unknown> => s !== undefined && typeof s['sig'] === 'string')
      .map((s) => ({ sig: s['sig'] as string, ...(typeof s['keyid'] === 'string' ? { keyid: s['keyid'] } : {}) })),
    subject,
    ...optional('head', str(proof?.['head'])),
    ...optional('line', str(obj(payload['presentation'])?.['line'])),
    ...optional('branch', str(proof?.['branch'])),
    ...optional('trunk', str(proof?.['trunk'])),
    ...optional('consent', str(obj(obj(payload['acceptance'])?.['consent'])?.['source'])),
    ...optional('signedAt', str(issuer?.['signed_at'])),
    ...(keySource === 'owner' || keySource === 'discern' ? { keySource } : {}),
    ...(completion ? { completion } : {}),
  };
  return { ok: true, facts };
}

function optional<K extends string>(key: K, value: string | undefined): Partial<Record<K, string>> {
  return value === undefined ? {} : ({ [key]: value } as Record<K, string>);
}

export interface NoteJudgement {
  commit: string;
  tree: string;
  /** Where the note was found, and its body; undefined when there is none. */
  note: { ref: string; body: string } | undefined;
  /** The trunk's allowed signers, parsed; undefined when the trunk has no file. */
  signers: AllowedSignersFile | undefined;
  signersRef: string;
  /** The policy digest of discern.toml at the predecessor the note names, or why it cannot be had. */
  predecessorPolicy: { digest: string } | { reason: string } | undefined;
}

export type VerifyFailure =
  | 'note_missing'
  | 'note_unreadable'
  | 'unsigned'
  | 'signature_invalid'
  | 'no_trusted_signers'
  | 'untrusted_signer'
  | 'commit_mismatch'
  | 'completion_missing'
  | 'tree_mismatch'
  | 'policy_mismatch';

export interface NoteVerdict {
  data: Pick<DiscernVerifyData, 'verified' | 'checks' | 'note' | 'signature'>;
  /** The first check that failed, as the result's error; undefined when verified. */
  failure?: { error: VerifyFailure; message: string };
}

const FAILURE: Record<DiscernVerifyCheck, VerifyFailure> = {
  note_found: 'note_missing',
  note_readable: 'note_unreadable',
  signed: 'unsigned',
  signature_valid: 'signature_invalid',
  signer_trusted: 'untrusted_signer',
  commit_matches: 'commit_mismatch',
  completion_recorded: 'completion_missing',
  tree_matches: 'tree_mismatch',
  policy_matches: 'policy_mismatch',
};

export function judgeNote(j: NoteJudgement): NoteVerdict {
  const checks: DiscernVerifyCheckResult[] = [];
  const add = (check: DiscernVerifyCheck, ok: boolean, detail: string): boolean => {
    checks.push({ check, ok, detail });
    return ok;
  };
  const short = j.commit.slice(0, 12);
  if (!add('note_found', j.note !== undefined, j.note ? `in ${j.note.ref}` : `${short} has no Proof note`))
    return verdict(checks, undefined, undefined, j, false);
  const read = readNoteFacts(j.note!.body);
  if (!add('note_readable', read.ok, read.ok ? 'a discern Proof note' : read.reason))
    return verdict(checks, undefined, undefined, j, false);
  const facts = (read as { facts: NoteFacts }).facts;

  // The signature: one that holds over the note in the Proof namespace, then one the trunk trusts.
  const message = dssePae(PAYLOAD_TYPE, facts.payloadBytes);
  add(
    'signed',
    facts.signatures.length > 0,
    facts.signatures.length > 0
      ? `${facts.signatures.length} signature${facts.signatures.length === 1 ? '' : 's'}`
      : 'the note carries no signature (landed before signing, or no key could sign)',
  );
  const valid: { keyid: string; key: SshPublicKey }[] = [];
  const invalid: string[] = [];
  for (const s of facts.signatures) {
    const checked = verifySshsig(Buffer.from(s.sig, 'base64'), message, SIGNING_NAMESPACES.proof);
    if (checked.ok) valid.push({ keyid: checked.keyid, key: checked.key });
    else invalid.push(checked.detail);
  }
  if (facts.signatures.length > 0)
    add(
      'signature_valid',
      valid.length > 0,
      valid.length > 0 ? `by ${valid[0]!.keyid}` : `no signature holds over the note (${invalid[0] ?? 'unreadable'})`,
    );
  let signature: NoteVerdict['data']['signature'];
  let trusted = false;
  if (valid.length > 0) {
    const signedAt = facts.signedAt !== undefined ? new Date(facts.signedAt) : undefined;
    const when = signedAt !== undefined && !Number.isNaN(signedAt.getTime()) ? signedAt : undefined;
    let detail: string;
    if (j.signers === undefined) detail = `the trunk has no ${j.signersRef.split(':').slice(1).join(':')}`;
    else if (when === undefined) detail = 'the note records no signing time to check the signer line against';
    else {
      detail = '';
      for (const v of valid) {
        const match = findSigner(j.signers, v.key, SIGNING_NAMESPACES.proof, when);
        if (match.ok) {
          trusted = true;
          signature = signatureData(v.keyid, v.key, facts, match.signer.principals, match.signer.line);
          detail = `${j.signersRef} line ${match.signer.line} (${match.signer.principals.join(', ')})`;
          break;
        }
        detail ||= match.detail;
      }
    }
    signature ??= signatureData(valid[0]!.keyid, valid[0]!.key, facts);
    add('signer_trusted', trusted, detail);
  } else if (facts.signatures[0]?.keyid !== undefined) {
    signature = { keyid: facts.signatures[0].keyid };
  }

  // The note is for this commit, its real tree, under the trunk's policy just before it landed.
  const names = [facts.subject, facts.head, facts.completion?.head].filter((c): c is string => c !== undefined);
  const other = names.find((c) => c !== j.commit);
  add(
    'commit_matches',
    other === undefined,
    other === undefined ? `names ${short}` : `names ${other}, not ${j.commit}`,
  );
  const c = facts.completion;
  if (
    add(
      'completion_recorded',
      c !== undefined,
      c !== undefined ? `landed on ${c.predecessor.slice(0, 12)}` : 'the note records no completion',
    ) &&
    c !== undefined
  ) {
    add(
      'tree_matches',
      c.tree === j.tree,
      c.tree === j.tree ? `tree ${j.tree.slice(0, 12)}` : `names tree ${c.tree}, the commit's is ${j.tree}`,
    );
    const p = j.predecessorPolicy;
    const ok = p !== undefined && 'digest' in p && p.digest === c.policy;
    add(
      'policy_matches',
      ok,
      ok
        ? `the policy of discern.toml at ${c.predecessor.slice(0, 12)}`
        : p === undefined || 'reason' in p
          ? `discern.toml at ${c.predecessor.slice(0, 12)} cannot be read${p && 'reason' in p ? ` (${p.reason})` : ''}`
          : `records policy ${c.policy.slice(0, 12)}, discern.toml at ${c.predecessor.slice(0, 12)} has ${p.digest.slice(0, 12)}`,
    );
  }
  return verdict(
    checks,
    facts,
    signature,
    j,
    checks.every((x) => x.ok),
  );
}

function signatureData(
  keyid: string,
  key: SshPublicKey,
  facts: NoteFacts,
  principals?: string[],
  line?: number,
): NonNullable<NoteVerdict['data']['signature']> {
  return {
    keyid,
    key_type: key.type,
    ...(facts.keySource ? { key_source: facts.keySource } : {}),
    ...(facts.signedAt ? { signed_at: facts.signedAt } : {}),
    ...(principals ? { principals } : {}),
    ...(line !== undefined ? { signer_line: line } : {}),
  };
}

function verdict(
  checks: DiscernVerifyCheckResult[],
  facts: NoteFacts | undefined,
  signature: NoteVerdict['data']['signature'],
  j: NoteJudgement,
  verified: boolean,
): NoteVerdict {
  const data: NoteVerdict['data'] = {
    verified,
    checks,
    ...(j.note
      ? {
          note: {
            ref: j.note.ref,
            ...(facts?.line ? { line: facts.line } : {}),
            ...(facts?.branch ? { branch: facts.branch } : {}),
            ...(facts?.trunk ? { trunk: facts.trunk } : {}),
            ...(facts?.consent ? { consent: facts.consent } : {}),
            ...(facts?.completion
              ? { predecessor: facts.completion.predecessor, policy: facts.completion.policy }
              : {}),
          },
        }
      : {}),
    ...(signature ? { signature } : {}),
  };
  const failed = checks.find((c) => !c.ok);
  if (failed === undefined) return { data };
  let error = FAILURE[failed.check];
  if (error === 'untrusted_signer' && j.signers === undefined) error = 'no_trusted_signers';
  return { data, failure: { error, message: failureMessage(error, j, failed.detail) } };
}

function failureMessage(error: VerifyFailure, j: NoteJudgement, detail: string): string {
  const c = j.commit.slice(0, 12);
  switch (error) {
    case 'note_missing':
      return `${c} has no Proof note in refs/notes/discern or a fetched copy (refs/notes/remotes/*/discern): nothing says it landed with Proof.`;
    case 'note_unreadable':
      return `The note on ${c} is not a discern Proof note discern can read: ${detail}.`;
    case 'unsigned':
      return `The Proof note on ${c} carries no signature: it records a landing (made before signing, or when no key could sign) but proves nothing by itself.`;
    case 'signature_invalid':
      return `The signature on ${c}'s Proof note does not hold: ${detail}. The note or its signature was altered.`;
    case 'no_trusted_signers':
      return `The trunk trusts no key: ${j.signersRef} does not exist, so no signature can be checked against the owner's choice.`;
    case 'untrusted_signer':
      return `${c}'s Proof note is signed by a key the trunk does not trust for Proof notes: ${detail}.`;
    case 'commit_mismatch':
      return `The Proof note on ${c} is another commit's: it ${detail}. It was copied or moved here.`;
    case 'completion_missing':
      return `The Proof note on ${c} records no completion (predecessor, tree, policy), so it cannot be checked against git.`;
    case 'tree_mismatch':
      return `The Proof note on ${c} ${detail}: it does not describe this commit's content.`;
    case 'policy_mismatch':
      return `The Proof note on ${c} does not match the trunk's policy before the landing: ${detail}.`;
  }
}
