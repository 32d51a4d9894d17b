// Adds the coupling hints ([coupling] in_gate) to a successful done or prepare outcome. They go before the
// outcome's own hints, whose last one stays the next action; a refused outcome is returned as it is.
import type { ProjectVerbContext } from './context.js';

export async function withCouplingHints<T extends { refusal?: unknown; hints?: string[] }>(outcome: T, ctx: ProjectVerbContext): Promise<T> {
  if (outcome.refusal !== undefined || ctx.signal.aborted) return outcome;
  const { couplingHints } = await import('./coupling.js');
  const hints = await couplingHints(ctx.project, { env: ctx.env, signal: ctx.signal });
  return hints.length === 0 ? outcome : { ...outcome, hints: [...hints, ...(outcome.hints ?? [])] };
}
