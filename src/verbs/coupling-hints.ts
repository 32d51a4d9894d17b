// Adds the coupling hints ([coupling] in_gate) to a successful done or prepare outcome. They go before the
// outcome's own hints, whose last one stays the next action; a refused outcome is returned as it is.
import type { ChangeSet } from '../engine/git/change-set.js';
import type { ProjectVerbContext } from './context.js';

/** `change`, when given, is the checkout's change against the local trunk, already read and known to be current. */
export async function withCouplingHints<T extends { refusal?: unknown; hints?: string[] }>(
  outcome: T,
  ctx: ProjectVerbContext,
  change?: ChangeSet,
): Promise<T> {
  if (outcome.refusal !== undefined || ctx.signal.aborted) return outcome;
  const { couplingHints } = await import('./coupling.js');
  const hints = await couplingHints(ctx.project, { env: ctx.env, signal: ctx.signal, ...(change ? { change } : {}) });
  return hints.length === 0 ? outcome : { ...outcome, hints: [...hints, ...(outcome.hints ?? [])] };
}
