// What a parser knows about rerunning one failure: the runner that printed it and the arguments that select just
// that test (or, for a linter, just that file) in that runner's own syntax. reproduce.ts puts them into the job's
// command. Kept apart so parsers need not know about command lines and reproduce.ts need not know about output.

export type RunnerName =
  | 'node-test'
  | 'jest'
  | 'vitest'
  | 'mocha'
  | 'ava'
  | 'tap'
  | 'pytest'
  | 'unittest'
  | 'go-test'
  | 'cargo-test'
  | 'eslint'
  | 'biome'
  | 'xo'
  | 'flake8'
  | 'ruff'
  | 'mypy';

/** A test runner's selection, or just a file, which whichever linter the job runs is narrowed to. */
export type Narrowing = RunnerNarrowing | { file: string };

export interface RunnerNarrowing {
  runner: RunnerName;
  /** Appended after the runner's kept options. */
  args: readonly string[];
  /** cargo test: arguments for the test binary, after `--`. */
  binaryArgs?: readonly string[];
}

/** A regular expression that matches `text` literally, anchored: test runners take name filters as regexes. */
export function exactPattern(text: string): string {
  return `^${text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}$`;
}
