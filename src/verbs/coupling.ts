// coupling: which files historically change together with the current change's files (diff), with named
// files (query), or the evidence for one pair (evidence) — from one pass of git log, cached per HEAD
// (docs/decisions/0025). Read-only apart from that cache; advisory: nothing here changes a verdict.
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { CouplingOutcome } from '../../generated/handlers.js';
import type { DiscernCouplingInput, DiscernCouplingReport } from '../../generated/types.js';
import { loadHistory } from '../engine/coupling/load-history.js';
import { diffReport, evidenceReport, queryReport, type Sample } from '../engine/coupling/report.js';
import { couplingSettings, type CouplingSettings } from '../engine/coupling/settings.js';
import { projectFile } from '../engine/coupling/target-path.js';
import { rememberProject } from '../engine/coupling/project-memo.js';
import type { ProjectVerbContext } from './context.js';

// done and prepare reach the gate hints through this module: all of coupling is one chunk of the CLI bundle.
export { couplingHints } from '../engine/coupling/gate-hints.js';

export function coupling(input: DiscernCouplingInput, ctx: ProjectVerbContext): Promise<CouplingOutcome> {
  return runCoupling(input, ctx, { remembered: false });
}

/**
 * The whole verb. `remembered`: the project came from the memo of an earlier resolution (the CLI's warm path),
 * so there is nothing new to remember.
 */
export async function runCoupling(
  input: DiscernCouplingInput,
  ctx: ProjectVerbContext,
  options: { remembered: boolean },
): Promise<CouplingOutcome> {
  const { project } = ctx;
  const read = couplingSettings(project.config);
  if (!read.ok) {
    const [first] = read.issues;
    return {
      data: { issues: read.issues },
      refusal: {
        error: 'invalid_config',
        message: `discern.toml has ${read.issues.length === 1 ? 'a pattern' : `${read.issues.length} patterns`} coupling cannot use: ${read.issues.map((i) => `\`${i.path}\` (${i.message})`).join('; ')}.`,
        next: { file: 'discern.toml', where: `key \`${first.path}\`` },
      },
    };
  }
  const settings = read.settings;
  const help = ctx.surface === 'mcp' ? 'the inputSchema of discern_coupling in tools/list' : '`discern help coupling`';
  const files: string[] = [];
  for (const raw of [...(input.file ?? []), ...(input.with !== undefined ? [input.with] : [])]) {
    const named = projectFile(project.root, raw);
    if (!named.ok) return invalid(`${named.reason}: coupling reads this project's history only.`, help);
    if (isDirectory(project.root, named.path)) return invalid(`${named.path} is a directory: name a file.`, help);
    const ignoredBy = settings.ignoredBy(named.path);
    if (ignoredBy !== undefined)
      return invalid(
        `${named.path} is left out of coupling by the ignore pattern \`${ignoredBy}\` (${ignoreSource(project.config.coupling?.ignore, ignoredBy)}).`,
        '`discern docs coupling` (the [coupling] section)',
      );
    files.push(named.path);
  }
  const mode = input.with !== undefined ? 'evidence' : input.file !== undefined ? 'query' : 'diff';
  if (mode === 'evidence' && input.file?.length !== 1)
    return invalid('`with` asks for the evidence of one pair: give exactly one `file` beside it.', help);
  const targets = mode === 'evidence' ? files : [...new Set(files)];
  if (mode === 'evidence' && targets[0] === targets[1])
    return invalid(
      `\`file\` and \`with\` name the same file (${targets[0] ?? ''}): the evidence is for two different files.`,
      help,
    );

  // A full call leaves the resolved project for the CLI's warm path to reuse (it checks it still holds).
  if (!options.remembered) await rememberProject(project, ctx.env);
  const change = mode === 'diff' ? await changedFiles(ctx, settings) : { paths: [], unrelated: false };
  const changed = change.paths;
  const load = await loadHistory(project, { env: ctx.env, signal: ctx.signal, needMeta: mode === 'evidence' });
  if (load.kind === 'failed') {
    return {
      refusal: {
        error: 'read_failed',
        message: `git log could not read this repository's history: ${load.message}.`,
        next: {
          target: `the history of ${project.root}`,
          access: 'readable (in a partial clone, fetch the missing objects first)',
        },
      },
    };
  }
  const exists = (path: string): boolean => existsSync(join(project.root, path));
  if (load.kind === 'unborn') {
    const missing = targets.find((t) => !exists(t));
    if (missing !== undefined) return unknownFile(missing, []);
    return {
      data: emptyReport(mode, targets, changed),
      hints: ['HEAD has no commit yet, so there is no history to learn from.'],
    };
  }
  const sample: Sample = { history: load.history, cache: load.cache, shallow: load.shallow };
  for (const path of targets) {
    if (!exists(path) && !load.history.paths.includes(path)) return unknownFile(path, load.history.paths);
  }
  const hints = load.shallow
    ? [
        "This is a shallow clone: only the fetched history was read, so the counts are lower than the whole project's (`git fetch --unshallow` reads it all).",
      ]
    : [];
  const reportInput = { settings, exists };
  if (mode === 'evidence') {
    const [a = '', b = ''] = targets;
    const data = evidenceReport(sample, a, b, reportInput, load.history.meta() ?? []);
    if (data.together === 0)
      hints.push(
        `No analysed commit changed both ${a} and ${b}${data.of_a === 0 || data.of_b === 0 ? ` (${data.of_a === 0 ? a : b} has no analysed commit at all)` : ''}.`,
      );
    return { data, ...(hints.length > 0 ? { hints } : {}) };
  }
  if (mode === 'diff') {
    const { data } = diffReport(sample, changed, reportInput);
    const named = ctx.surface === 'mcp' ? 'pass `file`' : 'use `--file <path>`';
    if (change.unrelated)
      hints.push(
        `HEAD has no history in common with ${project.trunk.name}, so there is no change to measure: ${named} to ask about particular files.`,
      );
    else if (changed.length === 0)
      hints.push(
        `Nothing has changed since the merge-base with ${project.trunk.name}: ${named} to ask about particular files.`,
      );
    else if (data.partners_total === 0)
      hints.push(
        `No file outside the change changed together with it in at least ${settings.minCochanges} analysed commits ([coupling] min_cochanges).`,
      );
    return { data, ...(hints.length > 0 ? { hints } : {}) };
  }
  const { data, unseen } = queryReport(sample, targets, reportInput);
  if (unseen.length > 0)
    hints.push(
      `${unseen.join(', ')} ${unseen.length === 1 ? 'has' : 'have'} no analysed commit yet: new, or changed only by merge or bulk commits (over ${settings.maxCommitFiles} files, [coupling] max_commit_files).`,
    );
  else if (data.partners_total === 0)
    hints.push(
      `No file changed together with ${targets.join(', ')} in at least ${settings.minCochanges} analysed commits ([coupling] min_cochanges).`,
    );
  return { data, ...(hints.length > 0 ? { hints } : {}) };
}

/**
 * The change's files (both sides of a rename), ignored paths left out, in path order. Without a merge-base
 * (history unrelated to the trunk) the change set is every tracked file, which says nothing about what is
 * missing from a change: then there is none.
 */
async function changedFiles(
  ctx: ProjectVerbContext,
  settings: CouplingSettings,
): Promise<{ paths: string[]; unrelated: boolean }> {
  const { readChangeSet } = await import('../engine/git/change-set.js');
  const change = await readChangeSet(
    { cwd: ctx.project.root, env: ctx.env, signal: ctx.signal },
    ctx.project.trunk.name,
  );
  if (change.base === null) return { paths: [], unrelated: true };
  const paths = new Set<string>();
  for (const c of change.changes) {
    paths.add(c.path);
    if (c.from !== undefined) paths.add(c.from);
  }
  return { paths: [...paths].filter((p) => settings.ignoredBy(p) === undefined).sort(), unrelated: false };
}

function emptyReport(
  mode: 'diff' | 'query' | 'evidence',
  targets: readonly string[],
  changed: readonly string[],
): DiscernCouplingReport {
  const history = { head: null, commits: 0, bulk_commits: 0, cache: 'none' as const };
  if (mode === 'evidence')
    return {
      mode,
      a: targets[0] ?? '',
      b: targets[1] ?? '',
      together: 0,
      of_a: 0,
      of_b: 0,
      commits: [],
      partners: [],
      partners_total: 0,
      history,
    };
  if (mode === 'diff')
    return {
      mode,
      changed: changed.slice(0, 20),
      changed_total: changed.length,
      partners: [],
      partners_total: 0,
      history,
    };
  return { mode, target: [...targets], partners: [], partners_total: 0, history };
}

function unknownFile(path: string, known: readonly string[]): CouplingOutcome {
  const suggestions = similarPaths(path, known);
  return {
    data: { target: path, suggestions },
    refusal: {
      error: 'unknown_target',
      message: `${path} is not a file of this project: it is not in the working tree and no commit changed it${suggestions.length > 0 ? `. Did you mean ${suggestions.join(', ')}?` : '.'} Paths are relative to the project root.`,
      next: { list: 'git ls-files' },
    },
  };
}

/** Up to five known paths with the same file name, else whose file name contains the asked one's stem. */
function similarPaths(path: string, known: readonly string[]): string[] {
  const name = path.slice(path.lastIndexOf('/') + 1);
  const same = known.filter((p) => p === name || p.endsWith(`/${name}`));
  if (same.length > 0) return same.sort().slice(0, 5);
  const stem = name.replace(/\.[^.]*$/, '').toLowerCase();
  if (stem.length < 3) return [];
  return known
    .filter((p) =>
      p
        .slice(p.lastIndexOf('/') + 1)
        .toLowerCase()
        .includes(stem),
    )
    .sort()
    .slice(0, 5);
}

function isDirectory(root: string, path: string): boolean {
  try {
    return statSync(join(root, path)).isDirectory();
  } catch {
    return false;
  }
}

function ignoreSource(userIgnore: readonly string[] | undefined, pattern: string): string {
  return userIgnore?.includes(pattern)
    ? '[coupling] ignore'
    : 'the built-in plumbing list; [coupling] ignore_builtin = false turns it off';
}

function invalid(message: string, help: string): CouplingOutcome {
  return { refusal: { error: 'invalid_value', message, next: { help } } };
}
