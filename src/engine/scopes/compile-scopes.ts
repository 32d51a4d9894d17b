// Compiles every scope up front so a bad pattern is reported once, against its scope, instead of whenever
// a path is tested.
import { compilePattern } from './compile-pattern.js';
import type { CompiledScope, PatternProblem, ScopeDefinition } from './types.js';

/**
 * A pattern that does not compile is reported and left out, and the rest still compile, so one pass names
 * every problem (doctor lists them all). A scope with a pattern left out is narrower than written: a neutral
 * one errs towards code, but a non-neutral one stays quiet for paths it should claim — less work reported,
 * not more. So this is no fallback to classify with: impact refuses a configuration with any problem.
 */
export function compileScopes(scopes: readonly ScopeDefinition[]): {
  scopes: CompiledScope[];
  problems: PatternProblem[];
} {
  const compiled: CompiledScope[] = [];
  const problems: PatternProblem[] = [];
  for (const scope of scopes) {
    const tests: ((path: string) => boolean)[] = [];
    for (const [index, pattern] of scope.paths.entries()) {
      const result = compilePattern(pattern);
      if (result.ok) tests.push(result.test);
      else problems.push({ scope: scope.name, index, pattern, reason: result.reason });
    }
    compiled.push({ name: scope.name, neutral: scope.neutral, matches: (path) => tests.some((test) => test(path)) });
  }
  return { scopes: compiled, problems };
}
