// What a handler reports: facts, never a verdict. The core (envelope.ts) computes `ok` from these facts and
// the verb's completion policy. The type parameters come from generated/handlers.ts per verb, so a handler
// can only refuse with its registered slugs, raise its policy's advisory kinds, and claim its postconditions.
import type { NextActionParams } from '../../generated/errors.js';
import type {
  DiscernAdvisory,
  DiscernDiagnostic,
  DiscernDiagnosticEvidence,
  DiscernErrorSlug,
  DiscernPlan,
  DiscernStep,
} from '../../generated/types.js';

/** A classified refusal: the slug, a message for the caller, and the values its next action needs. */
export type Refusal<E extends DiscernErrorSlug> = E extends DiscernErrorSlug
  ? { error: E; message: string; next: NextActionParams[E] }
  : never;

/** Postconditions the core establishes itself from the outcome's shape. */
export type DerivedPostcondition = 'declared-outcome' | 'executed-steps';

interface OutcomeFacts<D, E extends DiscernErrorSlug, A extends string, P extends string> {
  data?: D;
  diagnostics?: DiscernDiagnostic[];
  diagnostic_evidence?: DiscernDiagnosticEvidence;
  advisories?: (DiscernAdvisory & { kind: A })[];
  hints?: string[];
  waited_ms?: number;
  /** Required postconditions (beyond the derived ones) that the handler established. */
  held?: readonly Exclude<P, DerivedPostcondition>[];
  refusal?: Refusal<E>;
}

/** Preview, review plan, or applied: the same three states as DiscernExecutionState. */
type ExecutionFacts =
  | { dry_run: true; plan?: DiscernPlan; steps?: never }
  | { dry_run?: never; plan: DiscernPlan; steps?: never }
  | { dry_run?: never; plan?: never; steps?: DiscernStep[] };

export type Outcome<D, E extends DiscernErrorSlug, A extends string, P extends string> = OutcomeFacts<D, E, A, P> & ExecutionFacts;

/** Any verb's outcome, as the core sees it. */
export type AnyOutcome = Outcome<unknown, DiscernErrorSlug, string, string>;
