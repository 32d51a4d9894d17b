// Whether a change needs no gate run: every path it touches (both sides of a rename) lies in a neutral scope of
// the trunk's discern.toml. The trunk's scopes judge, never the change's: a branch cannot declare its own code
// neutral. A change that could not be read, an empty one, or a trunk without a readable file is never neutral.
import type { ChangeSet } from '../git/change-set.js';
import { classify, type CompiledScope } from '../scopes/index.js';

export interface NeutralChange {
  /** The trunk's neutral scopes the change touches, in definition order. */
  scopes: string[];
}

export function judgeNeutral(
  change: ChangeSet | undefined,
  trunkScopes: readonly CompiledScope[] | undefined,
): NeutralChange | undefined {
  if (change === undefined || trunkScopes === undefined || change.changes.length === 0) return undefined;
  const classification = classify(change.changes, trunkScopes);
  if (classification.code || classification.neutral.length === 0) return undefined;
  return { scopes: classification.neutral };
}
