// The [checkpoints] of a discern.toml as definitions ready to evaluate: each selector and filter compiled once
// (the scope glob forms, docs/decisions/0028), scope names resolved against the same file's [scopes]. A table that
// cannot be used (no selector or two, an unknown scope, a pattern that does not compile, no question or two) is
// a problem named by its dotted key, never a silently narrower checkpoint.
import type { DiscernConfig, DiscernConfigCheckpoint, DiscernConfigIssue } from '../../../generated/types.js';
import { dotted } from '../config/load-result.js';
import { compilePattern } from '../scopes/index.js';

export type ChangeKind = 'added' | 'modified' | 'deleted';
export type CheckpointMode = 'stop' | 'advise';

/** A set of patterns, compiled, with the text it came from (for hashing and for people). */
export interface Matcher {
  /** What the patterns were written as: a scope's name, or the patterns themselves. */
  label: string;
  patterns: string[];
  test(path: string): boolean;
}

export interface CheckpointDefinition {
  id: string;
  mode: CheckpointMode;
  selector: Matcher & { scope?: string };
  includeGenerated: boolean;
  exclude?: Matcher;
  /** Each unless_changed entry on its own: the veto names the entries a changed file matched. */
  unlessChanged: (Matcher & { entry: string; scope?: string })[];
  kinds?: ChangeKind[];
  addsMatching?: string[];
  removesMatching?: string[];
  newDirectory: boolean;
  binary: boolean;
  minChangedFiles?: number;
  minChangedLines?: number;
  deletionDominant: boolean;
  minCommits?: number;
  /** Only added files git's copy detection finds similar to a file the merge-base has. */
  similarNewFile: boolean;
  /** A command run once everything else holds: exit 0 fires, 1 passes, anything else fails open. */
  when?: string;
  question: { text: string } | { file: string };
  teach?: string;
  reference?: string;
}

export interface CompiledCheckpoints {
  definitions: CheckpointDefinition[];
  issues: DiscernConfigIssue[];
  /** [generated] ownership under the same file: generated output is left out unless include_generated. */
  generated: (path: string) => boolean;
}

export function compileCheckpoints(config: DiscernConfig): CompiledCheckpoints {
  const issues: DiscernConfigIssue[] = [];
  const scopes = new Map<string, string[]>(
    Object.entries(config.scopes ?? {}).flatMap(([name, s]) => (s ? [[name, s.paths] as [string, string[]]] : [])),
  );
  const generatedTests = Object.values(config.generated ?? {}).flatMap((g) =>
    (g?.paths ?? []).map(compilePattern).flatMap((c) => (c.ok ? [c.test] : [])),
  );
  const definitions: CheckpointDefinition[] = [];
  for (const [id, table] of Object.entries(config.checkpoints ?? {})) {
    if (table === undefined) continue;
    const problem = (keys: string[], message: string): void =>
      void issues.push({ kind: 'invalid_config', path: dotted(['checkpoints', id, ...keys]), message });
    const before = issues.length;
    const definition = compileOne(id, table, scopes, problem);
    if (definition !== undefined && issues.length === before) definitions.push(definition);
  }
  return { definitions, issues, generated: (path) => generatedTests.some((t) => t(path)) };
}

function compileOne(
  id: string,
  t: DiscernConfigCheckpoint,
  scopes: ReadonlyMap<string, string[]>,
  problem: (keys: string[], message: string) => void,
): CheckpointDefinition | undefined {
  if ((t.scope === undefined) === (t.paths === undefined)) {
    problem(
      [],
      t.scope === undefined
        ? 'has no selector: give scope (a [scopes] name) or paths (patterns)'
        : 'has two selectors: give scope or paths, not both',
    );
    return undefined;
  }
  if ((t.question === undefined) === (t.question_file === undefined)) {
    problem(
      [],
      t.question === undefined
        ? 'has no question: give question or question_file'
        : 'has two questions: give question or question_file, not both',
    );
    return undefined;
  }
  let selector: (Matcher & { scope?: string }) | undefined;
  if (t.scope !== undefined) {
    const paths = scopes.get(t.scope);
    if (paths === undefined)
      problem(
        ['scope'],
        `names "${t.scope}", which no [scopes.${t.scope}] table defines${scopes.size > 0 ? ` (the scopes are ${[...scopes.keys()].join(', ')})` : ''}`,
      );
    else {
      const m = matcher(`scope ${t.scope}`, paths, ['scope'], problem);
      if (m) selector = { ...m, scope: t.scope };
    }
  } else {
    selector = matcher(patternLabel(t.paths ?? []), t.paths ?? [], ['paths'], problem);
  }
  const exclude = t.exclude_paths
    ? matcher(patternLabel(t.exclude_paths), t.exclude_paths, ['exclude_paths'], problem)
    : undefined;
  const unlessChanged = (t.unless_changed ?? []).flatMap((entry, index) => {
    // A name that is a [scopes] table is that scope; anything else is a pattern.
    const scopePaths = scopes.get(entry);
    const m = matcher(
      scopePaths ? `scope ${entry}` : entry,
      scopePaths ?? [entry],
      ['unless_changed', String(index)],
      problem,
    );
    return m ? [{ ...m, entry, ...(scopePaths ? { scope: entry } : {}) }] : [];
  });
  if (selector === undefined) return undefined;
  return {
    id,
    mode: t.mode ?? 'stop',
    selector,
    includeGenerated: t.include_generated === true,
    ...(exclude ? { exclude } : {}),
    unlessChanged,
    ...(t.kinds ? { kinds: [...t.kinds] } : {}),
    ...(t.adds_matching ? { addsMatching: [...t.adds_matching] } : {}),
    ...(t.removes_matching ? { removesMatching: [...t.removes_matching] } : {}),
    newDirectory: t.new_directory === true,
    binary: t.binary === true,
    ...(t.min_changed_files !== undefined ? { minChangedFiles: t.min_changed_files } : {}),
    ...(t.min_changed_lines !== undefined ? { minChangedLines: t.min_changed_lines } : {}),
    deletionDominant: t.deletion_dominant === true,
    ...(t.min_commits !== undefined ? { minCommits: t.min_commits } : {}),
    similarNewFile: t.similar_new_file === true,
    // An empty or ':' command is skipped, as everywhere a command is configured.
    ...(t.when !== undefined && !isSkipped(t.when) ? { when: t.when } : {}),
    question:
      t.question !== undefined ? { text: t.question } : { file: (t.question_file ?? '').replace(/^(\.\/)+/, '') },
    ...(t.teach !== undefined ? { teach: t.teach } : {}),
    ...(t.reference !== undefined ? { reference: t.reference } : {}),
  };
}

function matcher(
  label: string,
  patterns: readonly string[],
  keys: string[],
  problem: (keys: string[], message: string) => void,
): Matcher | undefined {
  const tests: ((path: string) => boolean)[] = [];
  let ok = true;
  patterns.forEach((pattern, index) => {
    const compiled = compilePattern(pattern);
    if (compiled.ok) tests.push(compiled.test);
    else {
      ok = false;
      problem(
        keys.length === 1 && keys[0] !== 'scope' ? [...keys, String(index)] : keys,
        `pattern "${pattern}" ${compiled.reason}`,
      );
    }
  });
  return ok ? { label, patterns: [...patterns], test: (path) => tests.some((t) => t(path)) } : undefined;
}

function isSkipped(command: string): boolean {
  const trimmed = command.trim();
  return trimmed === '' || trimmed === ':';
}

function patternLabel(patterns: readonly string[]): string {
  return patterns.length === 1 ? (patterns[0] ?? '') : patterns.join(', ');
}
