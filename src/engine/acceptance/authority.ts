// Who may land an effort's commit, decided from facts: consent given in this conversation (confirmed), a
// grant the owner recorded for the effort, or [acceptance] pre_authorized scopes covering every changed path
// (a standing grant). Pure: the changed paths and compiled scopes are passed in. How each source is named to the
// queue and in landing_authority is spec/vocabularies.yaml's consent_sources table.
import type { DiscernLandingAuthority } from '../../../generated/types.js';
import type { CompiledScope } from '../scopes/index.js';
import type { Grant } from './records.js';
import { CONSENT_SOURCES } from '../../../generated/consent-sources.js';

export interface AuthorityFacts {
  confirmed: boolean;
  grant?: Grant;
  preAuthorized: readonly string[];
  scopes: readonly CompiledScope[];
  /** Paths the effort changes since its merge-base with the trunk. */
  changed: readonly string[];
}

export interface AuthorityVerdict {
  authorized: boolean;
  consent?: { source: 'conversation' | 'grant' | 'pre_authorized'; scopes?: string[] };
  landing: DiscernLandingAuthority;
  /** The queue's view: lands once green without asking, or waits for the owner. */
  queue: 'pre-authorized' | 'awaiting-owner';
}

const UNCOVERED_SHOWN = 6;

export function decideAuthority(facts: AuthorityFacts): AuthorityVerdict {
  const granted = new Set(facts.preAuthorized);
  const standing = facts.scopes.filter((s) => granted.has(s.name));
  const warnings = facts.preAuthorized
    .filter((name) => !facts.scopes.some((s) => s.name === name))
    .map(
      (name) =>
        `[acceptance] pre_authorized names "${name}", which no [scopes.${name}] table defines: it grants nothing.`,
    );
  const uncovered = facts.changed.filter((path) => !standing.some((s) => s.matches(path)));
  const standingScopes = standing.map((s) => s.name);
  const covered = standing.length > 0 && facts.changed.length > 0 && uncovered.length === 0;
  const usedScopes = standing.filter((s) => facts.changed.some((p) => s.matches(p))).map((s) => s.name);
  const common = {
    ...(standingScopes.length > 0 ? { standing_scopes: standingScopes } : {}),
    ...(warnings.length > 0 ? { warnings } : {}),
  };
  const uncoveredFacts =
    uncovered.length > 0 && standing.length > 0
      ? { uncovered: uncovered.slice(0, UNCOVERED_SHOWN).map((path) => ({ path })), uncovered_total: uncovered.length }
      : {};
  if (facts.grant !== undefined) {
    return {
      authorized: true,
      consent: { source: 'grant' },
      landing: {
        kind: 'authorized',
        source: CONSENT_SOURCES.grant.landing_authority.replace('{granted_at}', facts.grant.granted_at),
        ...common,
      },
      queue: CONSENT_SOURCES.grant.queue_authority,
    };
  }
  if (covered) {
    return {
      authorized: true,
      consent: { source: 'pre_authorized', scopes: usedScopes },
      landing: {
        kind: 'authorized',
        source: CONSENT_SOURCES.pre_authorized.landing_authority,
        scopes: usedScopes,
        ...common,
      },
      queue: CONSENT_SOURCES.pre_authorized.queue_authority,
    };
  }
  if (facts.confirmed) {
    return {
      authorized: true,
      consent: { source: 'conversation' },
      landing: {
        kind: 'authorized',
        source: CONSENT_SOURCES.conversation.landing_authority,
        ...common,
        ...uncoveredFacts,
      },
      queue: CONSENT_SOURCES.conversation.queue_authority,
    };
  }
  return {
    authorized: false,
    landing: { kind: 'conversation-required', ...common, ...uncoveredFacts },
    queue: 'awaiting-owner',
  };
}
