// Shapes shared by the pattern compiler and the classifier. Everything here is pure data plus predicates:
// the classifier never touches the file system or git, so callers can feed it any list of paths.

/** One `[scopes.<name>]` table from discern.toml. */
export interface ScopeDefinition {
  name: string;
  paths: readonly string[];
  neutral: boolean;
}

/** A scope whose patterns have been compiled; patterns that failed to compile are left out of `matches`. */
export interface CompiledScope {
  name: string;
  neutral: boolean;
  matches(path: string): boolean;
}

/**
 * A pattern that could not be compiled, named by the scope it came from and its position in that scope's
 * `paths` (the same pattern may be written twice), so the report can point at it.
 */
export type PatternProblem = { scope: string; index: number; pattern: string; reason: string };

export type CompiledPattern = { ok: true; test: (path: string) => boolean } | { ok: false; reason: string };

export interface ChangedPath {
  path: string;
  /** for a rename, the path before it; both sides count */
  from?: string;
}

export interface Classification {
  /** Every scope at least one changed path (either side of a rename) falls in, in the order scopes were defined. */
  scopes: string[];
  /** The subset of `scopes` that are neutral. */
  neutral: string[];
  /** True when some changed path is outside every neutral scope — including paths no scope matches: an unmatched path counts as code (fails open). */
  code: boolean;
  /** Changed paths (after expanding renames to both sides, deduplicated, sorted) that no scope matches. */
  unscoped: string[];
  /** Number of distinct paths classified (renames count both sides). */
  paths: number;
}

/** The outcome of one translation step; a reason always describes the user's pattern, never an internal state. */
export type Translated<T> = ({ ok: true } & T) | { ok: false; reason: string };
