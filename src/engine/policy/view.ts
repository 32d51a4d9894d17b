// The policy part of a discern.toml: the file without the keys spec/policy.yaml lists as not policy. Everything
// else decides what a change must pass or who may land it, so it is read from the trunk's tip and compared there
// (docs/decisions/0047). Its digest names the policy a Proof was judged under.
import { createHash } from 'node:crypto';
import type { DiscernConfig } from '../../../generated/types.js';
import { NOT_POLICY } from '../../../generated/policy-sections.js';
import { canonicalJson } from '../gate/canonical-json.js';

export type Policy = Record<string, unknown>;

/** The digest recorded when the trunk has no discern.toml (a first setup): no policy governs yet. */
export const NO_POLICY_DIGEST = 'none';

export function policyOf(config: DiscernConfig): Policy {
  const out = JSON.parse(JSON.stringify(config)) as Record<string, Record<string, unknown> | undefined>;
  for (const [section, key] of NOT_POLICY) {
    if (section === undefined) continue;
    if (key === undefined) delete out[section];
    else if (out[section] !== undefined) {
      delete out[section][key];
      if (Object.keys(out[section]).length === 0) delete out[section];
    }
  }
  return out;
}

/**
 * sha256 of the policy that judges a change at the trunk's tip, in canonical JSON; NO_POLICY_DIGEST without a
 * config. [checkpoints] is left out: checkpoints govern from the merge-base (docs/decisions/0028), so a trunk that
 * adds one does not make an effort's Proof stale — the composed result is judged by it when the landing composes.
 */
export function policyDigest(config: DiscernConfig | undefined): string {
  if (config === undefined) return NO_POLICY_DIGEST;
  const { checkpoints: _fromTheMergeBase, ...judging } = policyOf(config);
  return createHash('sha256').update(canonicalJson(judging)).digest('hex');
}
