// Which scopes a change activates, and whether it touches code. Fails open: a path that no scope claims is
// treated as code, so a gap in discern.toml can make impact report more work, never less.
import type { ChangedPath, Classification, CompiledScope } from './types.js';

export function classify(changes: readonly ChangedPath[], scopes: readonly CompiledScope[]): Classification {
  const paths = distinctPaths(changes);
  const active = new Set<CompiledScope>();
  const unscoped: string[] = [];
  let code = false;
  for (const path of paths) {
    const matching = scopes.filter((scope) => scope.matches(path));
    for (const scope of matching) active.add(scope);
    if (matching.length === 0) unscoped.push(path);
    if (!matching.some((scope) => scope.neutral)) code = true;
  }
  // Walking `scopes` rather than `active` keeps definition order whatever order the paths arrived in.
  const activated = scopes.filter((scope) => active.has(scope));
  return {
    scopes: unique(activated.map((scope) => scope.name)),
    neutral: unique(activated.filter((scope) => scope.neutral).map((scope) => scope.name)),
    code,
    unscoped,
    paths: paths.length,
  };
}

// Both sides of a rename count: moving a file out of a scope changes that scope as much as moving one in.
function distinctPaths(changes: readonly ChangedPath[]): string[] {
  const all = new Set<string>();
  for (const change of changes) {
    all.add(change.path);
    if (change.from !== undefined) all.add(change.from);
  }
  // Code-unit order, independent of locale, so the same change always reports the same list.
  return [...all].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

// Two tables cannot share a name in TOML, but compiled scopes may come from elsewhere; report a name once.
function unique(names: readonly string[]): string[] {
  return [...new Set(names)];
}
