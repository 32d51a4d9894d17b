// The preparation receipt of an emergency integration (docs/decisions/0029): when the repair's governing
// checkpoints fire a stop question, the agent first prepares — the questions are served, satisfied ones are
// declared met — and gets a receipt that the preview and the confirmed call present. Like the approval token it
// is self-contained, an HMAC-SHA256 under the same per-repository key over claims carried in the clear, so a
// refusal can say what changed:
//
//   EP1.<trunk tip>.<repair head>.<reason digest>.<questions digest>.<context digest>.<mac>
//
// The questions digest covers every question the repair raises with its definition, its subject (the matched
// files' contents) and where it stands (awaiting, declared met or unmet): a new commit, a moved trunk, another
// reason or another declaration makes the receipt stop matching, and fresh preparation is needed. It carries no
// time: preparing the same facts again gives the same receipt. Its first claim differs from an approval
// token's, so neither can stand for the other.
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { canonicalJson } from '../gate/canonical-json.js';

const VERSION = 'EP1';

/** What a preparation is bound to. */
export interface PreparedFacts {
  trunk: { name: string; tip: string };
  repair: { effort: string; branch: string; head: string };
  reason: string;
  /** Every question the repair raises, with where it stands now. */
  questions: readonly PreparedQuestion[];
}

export interface PreparedQuestion {
  id: string;
  mode: string;
  definition_hash: string;
  subject: string;
  state: string;
  why?: string;
}

export type ReceiptVerdict = { ok: true } | { ok: false; kind: 'forged' | 'changed'; why: string };

function digest16(value: string): string {
  return createHash('sha256').update(value).digest('hex').slice(0, 16);
}

function questionsDigest(facts: PreparedFacts): string {
  const rows = [...facts.questions]
    .map((q) => [q.id, q.mode, q.definition_hash, q.subject, q.state, q.why ?? ''])
    .sort((a, b) => ((a[0] ?? '') < (b[0] ?? '') ? -1 : (a[0] ?? '') > (b[0] ?? '') ? 1 : 0));
  return digest16(`questions\0${canonicalJson(rows)}`);
}

function claimsOf(facts: PreparedFacts): string[] {
  return [
    VERSION,
    facts.trunk.tip,
    facts.repair.head,
    digest16(`reason\0${facts.reason}`),
    questionsDigest(facts),
    digest16(
      `context\0${canonicalJson({ trunk: facts.trunk.name, effort: facts.repair.effort, branch: facts.repair.branch })}`,
    ),
  ];
}

function mac(key: Buffer, claims: string): string {
  return createHmac('sha256', key).update(`preparation\0${claims}`).digest('base64url');
}

export function preparationReceipt(key: Buffer, facts: PreparedFacts): string {
  const claims = claimsOf(facts).join('.');
  return `${claims}.${mac(key, claims)}`;
}

/** Whether `receipt` was issued for exactly these facts; when not, why, naming what changed. */
export function verifyPreparation(key: Buffer, receipt: string, facts: PreparedFacts): ReceiptVerdict {
  const parts = receipt.split('.');
  const given = parts[6] ?? '';
  if (parts.length !== 7 || parts[0] !== VERSION || !/^[A-Za-z0-9_-]{43}$/.test(given))
    return {
      ok: false,
      kind: 'forged',
      why: 'the preparation_receipt is not one discern issued (an approval_token or a composition_receipt is not a preparation receipt)',
    };
  const expected = Buffer.from(mac(key, parts.slice(0, 6).join('.')));
  const actual = Buffer.from(given);
  if (expected.length !== actual.length || !timingSafeEqual(expected, actual))
    return {
      ok: false,
      kind: 'forged',
      why: 'the preparation_receipt was not issued by discern for this repository, or it was altered',
    };
  const now = claimsOf(facts);
  const changes: string[] = [];
  if (parts[5] !== now[5])
    changes.push(`it prepared another effort or trunk than ${facts.repair.effort} onto ${facts.trunk.name}`);
  if (parts[1] !== now[1])
    changes.push(`${facts.trunk.name} moved from ${(parts[1] ?? '').slice(0, 12)} to ${facts.trunk.tip.slice(0, 12)}`);
  if (parts[2] !== now[2])
    changes.push(`the repair's HEAD moved from ${(parts[2] ?? '').slice(0, 12)} to ${facts.repair.head.slice(0, 12)}`);
  if (parts[3] !== now[3]) changes.push('the reason is not the one prepared');
  if (parts[4] !== now[4]) changes.push('the checkpoint questions or their declarations changed');
  if (changes.length > 0)
    return { ok: false, kind: 'changed', why: `the preparation no longer matches: ${changes.join('; ')}` };
  return { ok: true };
}
