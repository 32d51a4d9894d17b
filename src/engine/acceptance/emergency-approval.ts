// The approval token of an emergency integration: the owner approves one exact plan — the trunk's tip, the
// repair's HEAD, the reason and the checks that do not pass — and the token holds for that plan for 15
// minutes (docs/decisions/0029-emergency-integration.md). It is self-contained and needs no stored state but a
// per-repository key: an HMAC-SHA256, keyed by <git-common-dir>/discern/validation-hmac-key, over claims the
// token carries in the clear, so a refusal can say why — expired, forged, or which part of the plan changed.
//
//   EA1.<issued ms, base 36>.<trunk tip>.<repair head>.<reason digest>.<checks digest>.<context digest>.<mac>
//
// Commits are carried whole; the reason, the checks and the context (trunk name, effort, branch) as 64-bit
// prefixes of their SHA-256, which the MAC covers: matching one with different content needs a second preimage.
// A checkpoint preparation's receipt (emergency-preparation.ts), when the repair needs one, is part of the
// context digest (contextDigest below): an approval holds only for the preparation it was issued under.
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { canonicalJson } from '../gate/canonical-json.js';
import type { ExceptionChecks } from '../notes/exception-note.js';
import { repositoryKey, repositoryKeyPath } from '../state/repository-key.js';

export const APPROVAL_TTL_MS = 15 * 60_000;
const VERSION = 'EA1';
/** A token issued a little in the future is a clock adjustment between calls, not an attack (it still needs the key). */
const CLOCK_SKEW_MS = 60_000;

/** What the owner approves. */
export interface ApprovedPlan {
  trunk: { name: string; tip: string };
  repair: { effort: string; branch: string; head: string };
  reason: string;
  checks: ExceptionChecks;
  /** The preparation receipt the plan was made under, when a stop checkpoint question fires on the repair. */
  preparation?: string;
}

export interface IssuedApproval {
  token: string;
  landingId: string;
  issuedAt: Date;
  expiresAt: Date;
}

export type ApprovalVerdict =
  { ok: true; landingId: string; issuedAt: Date } | { ok: false; kind: 'forged' | 'expired' | 'changed'; why: string };

export function approvalKeyPath(commonDir: string): string {
  return repositoryKeyPath(commonDir);
}

/** The repository's key (state/repository-key.ts), created on first use. */
export function approvalKey(
  commonDir: string,
): Promise<{ ok: true; key: Buffer } | { ok: false; path: string; reason: string }> {
  return repositoryKey(commonDir);
}

function digest16(value: string): string {
  return createHash('sha256').update(value).digest('hex').slice(0, 16);
}

function sorted(checks: ExceptionChecks): ExceptionChecks {
  return {
    failed: [...checks.failed].sort(),
    never_ran: [...checks.never_ran].sort(),
    stale: [...checks.stale].sort(),
  };
}

function reasonDigest(plan: ApprovedPlan): string {
  return digest16(`reason\0${plan.reason}`);
}

function checksDigest(plan: ApprovedPlan): string {
  return digest16(`checks\0${canonicalJson(sorted(plan.checks))}`);
}

function contextDigest(plan: ApprovedPlan): string {
  // Without a preparation the digest is what it was before preparation existed.
  const context = {
    trunk: plan.trunk.name,
    effort: plan.repair.effort,
    branch: plan.repair.branch,
    ...(plan.preparation !== undefined ? { preparation: plan.preparation } : {}),
  };
  return digest16(`context\0${canonicalJson(context)}`);
}

function mac(key: Buffer, claims: string): string {
  return createHmac('sha256', key).update(claims).digest('base64url');
}

/** The landing an approval lands as: derived from the token, so the agent knows it before the landing starts. */
export function landingIdOf(token: string): string {
  return `E-${createHash('sha256').update(token).digest('hex').slice(0, 12)}`;
}

export const LANDING_ID = /^E-[0-9a-f]{12}$/;

export function issueApproval(key: Buffer, plan: ApprovedPlan, now: Date): IssuedApproval {
  const claims = [
    VERSION,
    now.getTime().toString(36),
    plan.trunk.tip,
    plan.repair.head,
    reasonDigest(plan),
    checksDigest(plan),
    contextDigest(plan),
  ].join('.');
  const token = `${claims}.${mac(key, claims)}`;
  return { token, landingId: landingIdOf(token), issuedAt: now, expiresAt: new Date(now.getTime() + APPROVAL_TTL_MS) };
}

const OBJECT_ID = /^[0-9a-f]{40}([0-9a-f]{24})?$/;
const DIGEST = /^[0-9a-f]{16}$/;
const MAC = /^[A-Za-z0-9_-]{43}$/;

interface Claims {
  issued: number;
  tip: string;
  head: string;
  reason: string;
  checks: string;
  context: string;
}

/** The token's claims when it is genuine (shaped right and signed with this key); undefined otherwise. */
export function genuineClaims(key: Buffer, token: string): Claims | undefined {
  const parts = token.split('.');
  if (parts.length !== 8) return undefined;
  const [version, issued, tip, head, reason, checks, context, given] = parts as [
    string,
    string,
    string,
    string,
    string,
    string,
    string,
    string,
  ];
  if (
    version !== VERSION ||
    !/^[0-9a-z]{1,11}$/.test(issued) ||
    !OBJECT_ID.test(tip) ||
    !OBJECT_ID.test(head) ||
    ![reason, checks, context].every((d) => DIGEST.test(d)) ||
    !MAC.test(given)
  )
    return undefined;
  const expected = Buffer.from(mac(key, parts.slice(0, 7).join('.')));
  const actual = Buffer.from(given);
  if (expected.length !== actual.length || !timingSafeEqual(expected, actual)) return undefined;
  return { issued: Number.parseInt(issued, 36), tip, head, reason, checks, context };
}

/** Whether `token` approves exactly `plan` now; when not, which of the three reasons, in words. */
export function verifyApproval(key: Buffer, token: string, plan: ApprovedPlan, now: Date): ApprovalVerdict {
  const claims = genuineClaims(key, token);
  if (claims === undefined)
    return {
      ok: false,
      kind: 'forged',
      why: 'the approval_token was not issued by discern for this repository, or it was altered',
    };
  const changes: string[] = [];
  if (claims.context !== contextDigest(plan))
    changes.push(
      `it approved another effort or trunk than ${plan.repair.effort} onto ${plan.trunk.name}, or under another checkpoint preparation`,
    );
  if (claims.tip !== plan.trunk.tip)
    changes.push(`${plan.trunk.name} moved from ${claims.tip.slice(0, 12)} to ${plan.trunk.tip.slice(0, 12)}`);
  if (claims.head !== plan.repair.head)
    changes.push(`the repair's HEAD moved from ${claims.head.slice(0, 12)} to ${plan.repair.head.slice(0, 12)}`);
  if (claims.reason !== reasonDigest(plan)) changes.push('the reason is not the one approved');
  if (claims.checks !== checksDigest(plan)) changes.push('the checks that fail, never ran or are stale changed');
  const age = now.getTime() - claims.issued;
  const expired =
    age > APPROVAL_TTL_MS
      ? `it was issued at ${new Date(claims.issued).toISOString()} and expired 15 minutes later`
      : age < -CLOCK_SKEW_MS
        ? `it was issued at ${new Date(claims.issued).toISOString()}, in the future (the clock changed)`
        : undefined;
  if (changes.length > 0)
    return {
      ok: false,
      kind: 'changed',
      why: `the plan changed since it was approved: ${changes.join('; ')}${expired ? `; and ${expired}` : ''}`,
    };
  if (expired) return { ok: false, kind: 'expired', why: `the approval expired: ${expired}` };
  return { ok: true, landingId: landingIdOf(token), issuedAt: new Date(claims.issued) };
}
