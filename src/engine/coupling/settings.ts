// The [coupling] section with its defaults, and the path filters it implies (docs/decisions/0025):
// - ignored paths (the built-in plumbing list unless ignore_builtin = false, plus ignore) leave the analysis:
//   they are dropped from every commit, and a commit left with nothing is not counted;
// - [generated] paths stay in the analysis (they were changed) but are never reported as partners: a
//   regenerated file follows its generator and is not edited by hand.
// Patterns use the scope glob forms; one that cannot be compiled is a configuration problem with its key (table
// names are plain identifiers by the schema, so the dotted key needs no quoting).
import type { DiscernConfig, DiscernConfigIssue } from '../../../generated/types.js';
import { compilePattern } from '../scopes/index.js';

/**
 * Plumbing: files that change alongside everything for reasons outside the design — a package manager
 * rewriting its lockfile, a changelog line per change, forge templates and ownership lists. Co-change with them
 * says nothing about which code belongs together.
 */
export const BUILTIN_IGNORE: readonly string[] = [
  // Lockfiles, at any depth (monorepos keep one per package).
  '**/package-lock.json',
  '**/npm-shrinkwrap.json',
  '**/yarn.lock',
  '**/pnpm-lock.yaml',
  '**/bun.lock',
  '**/bun.lockb',
  '**/Cargo.lock',
  '**/poetry.lock',
  '**/Pipfile.lock',
  '**/uv.lock',
  '**/Gemfile.lock',
  '**/composer.lock',
  '**/go.sum',
  '**/flake.lock',
  '**/mix.lock',
  '**/pubspec.lock',
  '**/Podfile.lock',
  '**/packages.lock.json',
  '**/gradle.lockfile',
  // Changelogs.
  'CHANGELOG*',
  '**/CHANGES.md',
  '**/HISTORY.md',
  // Forge templates and ownership.
  '.github/ISSUE_TEMPLATE/**',
  '.github/PULL_REQUEST_TEMPLATE/**',
  '.github/PULL_REQUEST_TEMPLATE*',
  '.github/pull_request_template*',
  'PULL_REQUEST_TEMPLATE*',
  'pull_request_template*',
  '.gitlab/issue_templates/**',
  '.gitlab/merge_request_templates/**',
  'CODEOWNERS',
  '.github/CODEOWNERS',
  'docs/CODEOWNERS',
];

export const DEFAULTS = { inGate: true, maxCommitFiles: 30, minCochanges: 3, minConfidence: 0.5 } as const;

export interface CouplingSettings {
  inGate: boolean;
  maxCommitFiles: number;
  minCochanges: number;
  minConfidence: number;
  /** The pattern that leaves `path` out of the analysis, or undefined. */
  ignoredBy(path: string): string | undefined;
  generated(path: string): boolean;
}

export type SettingsRead =
  { ok: true; settings: CouplingSettings } | { ok: false; issues: [DiscernConfigIssue, ...DiscernConfigIssue[]] };

interface IgnorePattern {
  pattern: string;
  /** Text every path the pattern matches contains: a path without it is not tested (most paths, most patterns). */
  literal: string;
  test?: (path: string) => boolean;
}

export function couplingSettings(config: DiscernConfig): SettingsRead {
  const section = config.coupling ?? {};
  const issues: DiscernConfigIssue[] = [];
  const ignore: IgnorePattern[] = [];
  // The built-in patterns are known to compile: each compiles the first time a path gets past its literal, so
  // a call that meets no lockfile never pays for the lockfile patterns (a warm call is a few milliseconds).
  if (section.ignore_builtin !== false)
    for (const pattern of BUILTIN_IGNORE) ignore.push({ pattern, literal: requiredLiteral(pattern) });
  section.ignore?.forEach((pattern, index) => {
    const compiled = compilePattern(pattern);
    if (compiled.ok) ignore.push({ pattern, literal: requiredLiteral(pattern), test: compiled.test });
    else
      issues.push({
        kind: 'invalid_config',
        path: `coupling.ignore.${index}`,
        message: `pattern "${pattern}" ${compiled.reason}`,
      });
  });
  const owners: ((path: string) => boolean)[] = [];
  for (const [name, table] of Object.entries(config.generated ?? {})) {
    table?.paths.forEach((pattern, index) => {
      const compiled = compilePattern(pattern);
      if (compiled.ok) owners.push(compiled.test);
      else
        issues.push({
          kind: 'invalid_config',
          path: `generated.${name}.paths.${index}`,
          message: `pattern "${pattern}" ${compiled.reason}`,
        });
    });
  }
  const [first, ...rest] = issues;
  if (first !== undefined) return { ok: false, issues: [first, ...rest] };
  return {
    ok: true,
    settings: {
      inGate: section.in_gate ?? DEFAULTS.inGate,
      maxCommitFiles: section.max_commit_files ?? DEFAULTS.maxCommitFiles,
      minCochanges: section.min_cochanges ?? DEFAULTS.minCochanges,
      minConfidence: section.min_confidence ?? DEFAULTS.minConfidence,
      ignoredBy: (path) => {
        for (const entry of ignore) if (path.includes(entry.literal) && testOf(entry)(path)) return entry.pattern;
        return undefined;
      },
      generated: (path) => owners.some((test) => test(path)),
    },
  };
}

function testOf(entry: IgnorePattern): (path: string) => boolean {
  if (entry.test === undefined) {
    const compiled = compilePattern(entry.pattern);
    entry.test = compiled.ok ? compiled.test : () => false;
  }
  return entry.test;
}

/**
 * The longest run of plain characters outside wildcards, classes and braces, without its slashes: any path the
 * pattern matches contains it. A pattern with a backslash gets none (it would need unescaping), so it is
 * always tested.
 */
export function requiredLiteral(pattern: string): string {
  if (pattern.includes('\\')) return '';
  const outside = pattern.replace(/\{[^{}]*\}|\[[^\]]*\]/g, '*');
  // Nested braces, or a bracket left open: no safe literal.
  if (/[{}[\]]/.test(outside)) return '';
  let best = '';
  for (const piece of outside.split(/[*?]/)) {
    const trimmed = piece.replace(/^[./]*\//, '').replace(/^\/+|\/+$/g, '');
    if (trimmed.length > best.length) best = trimmed;
  }
  return best;
}
