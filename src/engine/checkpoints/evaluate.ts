// One checkpoint against one change, with no I/O: the selector picks changed files, each filter narrows them
// (every per-file filter given must hold for a file), the thresholds look at what remains, and the veto looks at
// the whole change. The result says whether it fires, on which files, and why — in a sentence a person can check.
import type { ChangedFile, ChangedLines } from './change-facts.js';
import type { CheckpointDefinition } from './definitions.js';

export interface EvaluationInputs {
  files: readonly ChangedFile[];
  commits: number;
  /** [generated] ownership under the governing config. */
  generated: (path: string) => boolean;
  /** Added and removed lines of the candidates, when a filter needs them. */
  lines?: ReadonlyMap<string, ChangedLines>;
  /** Directories at the merge-base, when new_directory needs them; an empty set without a merge-base. */
  baseDirectories?: ReadonlySet<string>;
  /** Added files git finds copied from a file of the merge-base, with that source, when similar_new_file needs them. */
  similarSources?: ReadonlyMap<string, string>;
}

export interface CheckpointOutcome {
  holds: boolean;
  /** Every matched file, in path order (callers cap what they show). */
  matched: ChangedFile[];
  /** The unless_changed entries some changed file matched. */
  vetoedBy: string[];
  why: string;
}

/** The files the selector and the cheap filters keep: what the line and directory filters then look at. */
export function candidates(
  def: CheckpointDefinition,
  files: readonly ChangedFile[],
  generated: (path: string) => boolean,
): ChangedFile[] {
  return files.filter(
    (f) =>
      def.selector.test(f.path) &&
      !(def.exclude?.test(f.path) ?? false) &&
      (def.includeGenerated || !generated(f.path)) &&
      (def.kinds === undefined || def.kinds.includes(f.kind)),
  );
}

export function needsLines(def: CheckpointDefinition): boolean {
  return def.addsMatching !== undefined || def.removesMatching !== undefined;
}

export function evaluateCheckpoint(def: CheckpointDefinition, inputs: EvaluationInputs): CheckpointOutcome {
  const parts: string[] = [];
  let selected = candidates(def, inputs.files, inputs.generated);
  if (def.addsMatching) {
    const needles = def.addsMatching;
    selected = selected.filter((f) =>
      (inputs.lines?.get(f.path)?.added ?? []).some((line) => needles.some((n) => line.includes(n))),
    );
    parts.push(`adding a line that contains ${quoteList(needles)}`);
  }
  if (def.removesMatching) {
    const needles = def.removesMatching;
    selected = selected.filter((f) =>
      (inputs.lines?.get(f.path)?.removed ?? []).some((line) => needles.some((n) => line.includes(n))),
    );
    parts.push(`removing a line that contains ${quoteList(needles)}`);
  }
  if (def.newDirectory) {
    const dirs = inputs.baseDirectories ?? new Set<string>();
    selected = selected.filter((f) => f.kind === 'added' && parentOf(f.path) !== '' && !dirs.has(parentOf(f.path)));
    parts.push('added in a directory the merge-base does not have');
  }
  if (def.binary) {
    selected = selected.filter((f) => f.binary);
    parts.push('binary');
  }
  if (def.similarNewFile) {
    const sources = inputs.similarSources ?? new Map<string, string>();
    selected = selected.filter((f) => f.kind === 'added' && sources.has(f.path));
    const named = selected.slice(0, 3).map((f) => `${f.path} like ${sources.get(f.path) ?? ''}`);
    parts.push(`added similar to an existing file${named.length > 0 ? ` (${named.join('; ')})` : ''}`);
  }
  const matched = selected;
  const base = `${matched.length} changed file${matched.length === 1 ? '' : 's'} in ${def.selector.label}${def.kinds ? ` (${def.kinds.join(', ')})` : ''}${parts.length > 0 ? `, ${parts.join(', ')}` : ''}`;
  if (matched.length === 0)
    return {
      holds: false,
      matched,
      vetoedBy: [],
      why: `No changed file in ${def.selector.label}${def.kinds ? ` (${def.kinds.join(', ')})` : ''}${parts.length > 0 ? ` ${parts.join(', ')}` : ''}.`,
    };

  const lines = matched.reduce((n, f) => n + f.added + f.removed, 0);
  const added = matched.reduce((n, f) => n + f.added, 0);
  const removed = matched.reduce((n, f) => n + f.removed, 0);
  const shortfalls: string[] = [];
  if (def.minChangedFiles !== undefined && matched.length < def.minChangedFiles)
    shortfalls.push(`fewer than ${def.minChangedFiles} files`);
  if (def.minChangedLines !== undefined && lines < def.minChangedLines)
    shortfalls.push(`${lines} changed line${lines === 1 ? '' : 's'}, fewer than ${def.minChangedLines}`);
  if (def.deletionDominant && removed <= added)
    shortfalls.push(`${removed} lines removed against ${added} added, not deletion-dominant`);
  if (def.minCommits !== undefined && inputs.commits < def.minCommits)
    shortfalls.push(`${inputs.commits} commit${inputs.commits === 1 ? '' : 's'}, fewer than ${def.minCommits}`);
  if (shortfalls.length > 0)
    return { holds: false, matched, vetoedBy: [], why: `${base}, but ${shortfalls.join('; ')}.` };

  const vetoedBy = def.unlessChanged.filter((u) => inputs.files.some((f) => u.test(f.path))).map((u) => u.entry);
  const thresholds = [
    def.minChangedFiles !== undefined ? `at least ${def.minChangedFiles} files` : undefined,
    def.minChangedLines !== undefined ? `${lines} changed lines` : undefined,
    def.deletionDominant ? `${removed} lines removed against ${added} added` : undefined,
    def.minCommits !== undefined ? `${inputs.commits} commits` : undefined,
  ].filter((t): t is string => t !== undefined);
  const fired = `${base}${thresholds.length > 0 ? ` (${thresholds.join(', ')})` : ''}`;
  if (vetoedBy.length > 0)
    return {
      holds: false,
      matched,
      vetoedBy,
      why: `${fired}, but the change also touches ${vetoedBy.join(', ')} (unless_changed).`,
    };
  return { holds: true, matched, vetoedBy: [], why: `${fired}.` };
}

export function parentOf(path: string): string {
  const slash = path.lastIndexOf('/');
  return slash === -1 ? '' : path.slice(0, slash);
}

function quoteList(needles: readonly string[]): string {
  const quoted = needles.map((n) => JSON.stringify(n));
  return quoted.length === 1 ? (quoted[0] ?? '') : `one of ${quoted.join(', ')}`;
}
