// Completion policies: every verb starts from one of two bases and may add postconditions and advisories or
// change the cancellation, partial-effect, no-op and recovery rules. The resolved policy is what the core
// evaluates at run time and what the results schema publishes under x-discern-contracts.
import type { CompletionPolicy, PolicyBase, VerbSpec } from './types.js';

/** Any verb may read a damaged state record, skip it and say so (src/engine/state/state-record.ts). */
const EVERY_VERB_ADVISORIES = ['state-record-skipped'];

const BASES: Record<PolicyBase, CompletionPolicy> = {
  observation: {
    required_postconditions: ['declared-outcome'],
    optional_advisories: [...EVERY_VERB_ADVISORIES],
    refusal: 'failure',
    cancellation: 'not-applicable',
    partial_effect: 'not-applicable',
    no_op: 'success',
    recovery_owner: 'caller',
  },
  effect: {
    required_postconditions: ['declared-outcome', 'executed-steps'],
    optional_advisories: [...EVERY_VERB_ADVISORIES],
    refusal: 'failure',
    cancellation: 'failure',
    partial_effect: 'failure',
    no_op: 'success',
    recovery_owner: 'caller',
  },
};

export function resolvePolicy(spec: VerbSpec['policy']): CompletionPolicy {
  const base = BASES[spec.base];
  return {
    required_postconditions: [...base.required_postconditions, ...(spec.required_postconditions ?? []).filter((p) => !base.required_postconditions.includes(p))],
    optional_advisories: [...new Set([...base.optional_advisories, ...(spec.optional_advisories ?? [])])].sort(),
    refusal: 'failure',
    cancellation: spec.cancellation ?? base.cancellation,
    partial_effect: spec.partial_effect ?? base.partial_effect,
    no_op: spec.no_op ?? base.no_op,
    recovery_owner: spec.recovery_owner ?? base.recovery_owner,
  };
}
