// Public surface of the scope classifier; everything else in this folder is an implementation detail.
export { classify } from './classify.js';
export { compilePattern } from './compile-pattern.js';
export { compileScopes } from './compile-scopes.js';
export type {
  ChangedPath,
  Classification,
  CompiledPattern,
  CompiledScope,
  PatternProblem,
  ScopeDefinition,
} from './types.js';
