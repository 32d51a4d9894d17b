// The [scopes] of discern.toml as definitions, in file order. Kept apart from the pattern compiler
// (scopes.ts) so that reading the configuration — status, the resolved config — does not load it.
import type { DiscernConfig, DiscernConfigScope } from '../../../generated/types.js';
import type { ScopeDefinition } from '../scopes/index.js';

export function scopeDefinitions(config: DiscernConfig): ScopeDefinition[] {
  return Object.entries(config.scopes ?? {})
    .filter((entry): entry is [string, DiscernConfigScope] => entry[1] !== undefined)
    .map(([name, scope]) => ({ name, paths: scope.paths, neutral: scope.neutral ?? false }));
}
