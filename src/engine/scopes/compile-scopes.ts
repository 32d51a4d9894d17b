// Compiles every scope up front so a bad pattern is reported once, against its scope, instead of whenever
// a path is tested.
import { compilePattern } from './compile-pattern.js';
import type { CompiledScope, PatternProblem, ScopeDefinition } from './types.js';

/**
 * A pattern that does not compile is reported and left out; its scope still matches through its other
 * patterns. Leaving it out can only make fewer paths match, and an unmatched path counts as code.
 */
export function compileScopes(scopes: readonly ScopeDefinition[]): { scopes: CompiledScope[]; problems: PatternProblem[] } {
  const compiled: CompiledScope[] = [];
  const problems: PatternProblem[] = [];
  for (const scope of scopes) {
    const tests: ((path: string) => boolean)[] = [];
    for (const pattern of scope.paths) {
      const result = compilePattern(pattern);
      if (result.ok) tests.push(result.test);
      else problems.push({ scope: scope.name, pattern, reason: result.reason });
    }
    compiled.push({ name: scope.name, neutral: scope.neutral, matches: (path) => tests.some((test) => test(path)) });
  }
  return { scopes: compiled, problems };
}
