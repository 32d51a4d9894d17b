// Builds the one result envelope from a handler's facts and its verb's completion policy (design.md §2):
// `ok` is true only when every required postcondition holds; an advisory must be a kind the policy permits;
// a failure always ends its hints with the registered next action; plan and steps never coexist; `error`
// never appears with `ok: true`.
import type { CompletionPolicy } from '../../generated/registry.js';
import type { DiscernErrorSlug, DiscernResult, DiscernStep } from '../../generated/types.js';
import type { AnyOutcome, Refusal } from './outcome.js';
import { ContractViolation } from './contract-violation.js';
import { nextAction } from './next-action.js';
import { compact } from './serialize.js';

export interface EnvelopeSubject {
  verb: string;
  policy: CompletionPolicy;
}

/** The verdict and its reasons, before anything is rendered. */
export interface Evaluation {
  ok: boolean;
  unmet: string[];
}

export function evaluate(policy: CompletionPolicy, outcome: AnyOutcome): Evaluation {
  const unmet: string[] = [];
  // A preview runs nothing, so it establishes no effect: only its declared outcome is judged.
  const required =
    outcome.dry_run === true
      ? policy.required_postconditions.filter((p) => p === 'declared-outcome')
      : policy.required_postconditions;
  for (const postcondition of required) {
    if (!holds(postcondition, outcome)) unmet.push(postcondition);
  }
  return { ok: unmet.length === 0, unmet };
}

function holds(postcondition: string, outcome: AnyOutcome): boolean {
  if (postcondition === 'declared-outcome') return outcome.refusal === undefined;
  if (postcondition === 'executed-steps') return (outcome.steps ?? []).every(stepSucceeded);
  return (outcome.held ?? []).includes(postcondition);
}

function stepSucceeded(step: DiscernStep): boolean {
  return step.outcome === 'ok' || step.outcome === 'skipped';
}

export function buildEnvelope(subject: EnvelopeSubject, outcome: AnyOutcome): DiscernResult {
  if (outcome.plan !== undefined && outcome.steps !== undefined) {
    throw new ContractViolation(`${subject.verb}: a result carries a plan or steps, never both`);
  }
  if (outcome.dry_run === true && outcome.steps !== undefined) {
    throw new ContractViolation(`${subject.verb}: a preview (dry_run) has no steps`);
  }
  for (const advisory of outcome.advisories ?? []) {
    if (!subject.policy.optional_advisories.includes(advisory.kind as never)) {
      throw new ContractViolation(
        `${subject.verb}: advisory kind ${advisory.kind} is not permitted by its completion policy`,
      );
    }
  }
  const { ok, unmet } = evaluate(subject.policy, outcome);
  const failure = ok ? undefined : classify(subject.verb, unmet, outcome);
  const hints = dedupe([...(outcome.hints ?? []), ...(failure ? [failure.hint] : [])]);
  const envelope = {
    ok,
    verb: subject.verb,
    dry_run: outcome.dry_run,
    plan: outcome.plan,
    steps: outcome.steps,
    waited_ms: outcome.waited_ms,
    diagnostics: outcome.diagnostics,
    diagnostic_evidence: outcome.diagnostic_evidence,
    hints: hints.length > 0 ? hints : undefined,
    advisories: outcome.advisories && outcome.advisories.length > 0 ? outcome.advisories : undefined,
    error: failure?.error,
    message: failure?.message,
    data: outcome.data,
  };
  return compact(envelope) as DiscernResult;
}

interface Failure {
  error: DiscernErrorSlug;
  message: string;
  hint: string;
}

function classify(verb: string, unmet: string[], outcome: AnyOutcome): Failure {
  if (outcome.refusal) return fromRefusal(outcome.refusal);
  if (unmet.includes('executed-steps')) {
    const failed = (outcome.steps ?? []).filter((s) => !stepSucceeded(s)).map((s) => `${s.label} (${s.outcome})`);
    return fromRefusal({
      error: 'apply_failed',
      message: `${verb} did not complete: ${failed.join(', ')}.`,
      next: { recovery: 'fix the cause and run the same call again' },
    });
  }
  // A required postcondition failed and the handler gave no classification: a discern bug, reported as such.
  throw new ContractViolation(
    `${verb}: postcondition ${unmet.join(', ')} did not hold and the handler gave no refusal`,
  );
}

function fromRefusal(refusal: Refusal<DiscernErrorSlug>): Failure {
  return { error: refusal.error, message: refusal.message, hint: nextAction(refusal.error, refusal.next) };
}

function dedupe(hints: string[]): string[] {
  return [...new Set(hints)];
}
