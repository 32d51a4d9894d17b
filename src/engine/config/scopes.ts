// The [scopes] of discern.toml, compiled for matching. A pattern that does not compile is a configuration
// problem reported with its dotted key (scopes.docs.paths.1), never silently dropped.
import type { DiscernConfig, DiscernConfigIssue } from '../../../generated/types.js';
import { compileScopes, type CompiledScope } from '../scopes/index.js';
import { dotted } from './load-result.js';
import { scopeDefinitions } from './scope-definitions.js';

export function compiledScopes(config: DiscernConfig): { scopes: CompiledScope[]; issues: DiscernConfigIssue[] } {
  const definitions = scopeDefinitions(config);
  const { scopes, problems } = compileScopes(definitions);
  const issues = problems.map((p) => ({
    kind: 'invalid_config' as const,
    path: dotted(['scopes', p.scope, 'paths', String(p.index)]),
    message: `pattern "${p.pattern}" ${p.reason}`,
  }));
  return { scopes, issues };
}
