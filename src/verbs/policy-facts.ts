// Where a verb's project reads the trunk's policy from.
import type { PolicyFacts } from '../engine/policy/currency.js';
import type { ProjectVerbContext } from './context.js';

export function policyFacts(ctx: ProjectVerbContext): PolicyFacts {
  return {
    root: ctx.project.root,
    commonDir: ctx.project.commonDir,
    trunk: ctx.project.trunk.name,
    env: ctx.env,
    ...(ctx.signal ? { signal: ctx.signal } : {}),
  };
}
