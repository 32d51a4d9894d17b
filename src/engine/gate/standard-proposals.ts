// The per-worktree batch of standard-limit proposals (<git-dir>/discern/standard-limit-proposals.json): one
// record, written whole, naming every limit this branch loosens against the trunk's committed discern.toml, each
// with the reason the owner reads before approving it at accept. The batch is bound to the commit it was
// recorded on; after another commit it is stale and covers nothing (docs/decisions/0027-standards-verbs.md).
// Planning a batch and judging whether one covers a branch's breaches are pure; reading and writing are thin.
import { join } from 'node:path';
import type { DiscernStandardProposal } from '../../../generated/types.js';
import { faultRequested } from '../faults.js';
import { writeFileAtomic } from '../state/atomic-write.js';
import { stateRecordOrUndefined } from '../state/state-record.js';
import type { LimitBreach } from './standards-limits.js';

export const PROPOSALS_FILE = 'standard-limit-proposals.json';
const FORMAT = 1;

export interface ProposalBatch {
  format: number;
  /** The commit (HEAD when recorded) the batch is bound to. */
  commit: string;
  /** The trunk the limits were compared against. */
  trunk: string;
  recorded_at: string;
  proposals: DiscernStandardProposal[];
}

export interface RequestedProposal {
  name: string;
  reason: string;
}

export type BatchRefusal =
  | {
      kind: 'duplicate' | 'blank_reason' | 'not_loosened' | 'not_a_limit' | 'missing';
      names: string[];
      message: string;
    }
  | { kind: 'unknown'; names: string[]; known: string[]; message: string };

export type BatchPlan = { ok: true; proposals: DiscernStandardProposal[] } | ({ ok: false } & BatchRefusal);

/** The proposals file of a checkout, in its discern state directory (<git-dir>/discern). */
export function proposalsPath(stateDir: string): string {
  return join(stateDir, PROPOSALS_FILE);
}

/**
 * Checks a requested batch against the branch's breaches: each name once, with a reason; each a standard that
 * exists; each loosened, and loosened in its limit (a deleted table, a flipped direction or a changed
 * measurement cannot be proposed — that is the owner's change on the trunk); and together covering every
 * breach, so one batch always accounts for everything the branch loosens.
 */
export function planBatch(
  requested: readonly RequestedProposal[],
  breaches: readonly LimitBreach[],
  known: readonly string[],
): BatchPlan {
  const seen = new Set<string>();
  const duplicates = [
    ...new Set(requested.filter((r) => (seen.has(r.name) ? true : (seen.add(r.name), false))).map((r) => r.name)),
  ];
  if (duplicates.length > 0)
    return {
      ok: false,
      kind: 'duplicate',
      names: duplicates,
      message: `${list(duplicates)} ${duplicates.length === 1 ? 'is' : 'are'} named more than once: a batch names each standard once.`,
    };
  const blank = requested.filter((r) => r.reason.trim().length === 0).map((r) => r.name);
  if (blank.length > 0)
    return {
      ok: false,
      kind: 'blank_reason',
      names: blank,
      message: `The reason for ${list(blank)} is blank: give the technical justification the owner will weigh.`,
    };
  const unknown = requested.filter((r) => !known.includes(r.name)).map((r) => r.name);
  if (unknown.length > 0) {
    return {
      ok: false,
      kind: 'unknown',
      names: unknown,
      known: [...known],
      message: `${list(unknown)} ${unknown.length === 1 ? 'is' : 'are'} not a standard of this branch or the trunk.${known.length > 0 ? ` Standards: ${known.join(', ')}.` : ' None is configured.'}`,
    };
  }
  const byName = new Map(breaches.map((b) => [b.name, b]));
  const notLimit = requested
    .filter((r) => byName.get(r.name) !== undefined && byName.get(r.name)?.kind !== 'limit')
    .map((r) => r.name);
  if (notLimit.length > 0) {
    const why = notLimit.map((n) => byName.get(n)?.sentence ?? n).join('; ');
    return {
      ok: false,
      kind: 'not_a_limit',
      names: notLimit,
      message: `A proposal covers a loosened limit only, and ${why}: restore the trunk's definition on this branch — deleting a standard, flipping its direction or changing how it is measured is the owner's change on the trunk.`,
    };
  }
  const notLoosened = requested.filter((r) => !byName.has(r.name)).map((r) => r.name);
  if (notLoosened.length > 0) {
    return {
      ok: false,
      kind: 'not_loosened',
      names: notLoosened,
      message: `${list(notLoosened)} ${notLoosened.length === 1 ? 'is' : 'are'} not loosened against the trunk's committed discern.toml: there is nothing to propose. A proposal is for a floor this branch lowers or a ceiling it raises.`,
    };
  }
  const missing = breaches.filter((b) => !seen.has(b.name));
  if (missing.length > 0) {
    const unproposable = missing.filter((b) => b.kind !== 'limit');
    const tail =
      unproposable.length > 0
        ? ` ${list(unproposable.map((b) => b.name))} cannot be proposed at all (${unproposable.map((b) => b.sentence).join('; ')}): restore ${unproposable.length === 1 ? 'it' : 'them'} first.`
        : '';
    return {
      ok: false,
      kind: 'missing',
      names: missing.map((b) => b.name),
      message: `This branch also loosens ${missing.map((b) => b.sentence).join('; ')}: one batch covers every loosened standard at once, so add ${missing.length === 1 ? 'it' : 'them'} to the batch.${tail}`,
    };
  }
  return {
    ok: true,
    proposals: requested.map((r) => {
      const b = byName.get(r.name) as LimitBreach;
      return { name: r.name, reason: r.reason, from: b.from, to: b.to ?? b.from, direction: b.direction };
    }),
  };
}

export type Coverage =
  | { status: 'none' }
  | { status: 'stale'; commit: string }
  | {
      status: 'current';
      proposals: DiscernStandardProposal[];
      uncovered: LimitBreach[];
      unmatched: DiscernStandardProposal[];
    };

/**
 * Whether a recorded batch lets a branch's breaches pass: bound to this HEAD, with a proposal matching each
 * breach exactly (name, direction, the trunk's limit and the branch's) and none left over.
 */
export function proposalCoverage(
  batch: ProposalBatch | undefined,
  head: string,
  breaches: readonly LimitBreach[],
): Coverage {
  if (batch === undefined) return { status: 'none' };
  if (batch.commit !== head) return { status: 'stale', commit: batch.commit };
  const matches = (p: DiscernStandardProposal, b: LimitBreach): boolean =>
    p.name === b.name && b.kind === 'limit' && p.direction === b.direction && p.from === b.from && p.to === b.to;
  const uncovered = breaches.filter((b) => !batch.proposals.some((p) => matches(p, b)));
  const unmatched = batch.proposals.filter((p) => !breaches.some((b) => matches(p, b)));
  return { status: 'current', proposals: batch.proposals, uncovered, unmatched };
}

/** A damaged or foreign file covers nothing: the never-loosen check then fails as if there were none. */
export function readProposals(path: string): Promise<ProposalBatch | undefined> {
  return stateRecordOrUndefined('standard-proposals', path);
}

export async function writeProposals(
  path: string,
  batch: Omit<ProposalBatch, 'format'>,
  env: Readonly<Record<string, string | undefined>>,
): Promise<void> {
  if (faultRequested(env, 'standards:proposal-write'))
    throw Object.assign(new Error('fault injected at standards:proposal-write (DISCERN_FAULT)'), { code: 'EACCES' });
  await writeFileAtomic(path, `${JSON.stringify({ format: FORMAT, ...batch }, null, 2)}\n`);
}

function list(names: readonly string[]): string {
  return names.map((n) => `\`${n}\``).join(', ');
}
