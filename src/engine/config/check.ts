// Checks a discern.toml text the way discern would use it, reporting every problem at once with its dotted key,
// line and column: TOML syntax; the schema (every unknown key and every wrong value); then what the schema
// cannot see — globs that do not compile, [acceptance] pre_authorized naming no scope, a trunk branch that does
// not exist, and (warnings) job commands that do not resolve. What validate-config and the refine_config prompt
// report. Writes nothing; job commands are looked up, never run.
//
// The semantic checks need a schema-valid configuration. When the schema finds problems, they run on the text
// with those keys removed (an unknown key, a wrong value, the table missing a required key), so one pass still
// shows the semantic problems of everything else.
import type { DiscernConfig, DiscernConfigIssue } from '../../../generated/types.js';
import { git } from '../git/git.js';
import { localBranchExists } from '../git/local-branch.js';
import { chooseTrunk } from '../project/resolve.js';
import { dotted } from './load-result.js';
import { at, commandIssues, globIssues, keysOf, preAuthorizedIssues } from './semantic-checks.js';
import { decodeToml } from './toml.js';
import { accountingIssues, schemaIssues, variableIssues, type LocatedIssue } from './validate.js';
import { withVariables } from './substitutions.js';

export { keysOf };

export type CheckName = 'syntax' | 'schema' | 'globs' | 'pre_authorized' | 'trunk' | 'commands';

export interface CheckVerdict {
  name: CheckName;
  status: 'ok' | 'fail' | 'warn' | 'skipped';
  detail: string;
}

/** The checkout the repository checks run against: absent outside a git checkout. */
export interface CheckRepository {
  root: string;
  commonDir: string;
}

export interface CheckOptions {
  /** How messages name the text: `inline TOML`, or the file as given. */
  displayName: string;
  repository?: CheckRepository;
  env: Readonly<Record<string, string | undefined>>;
  signal?: AbortSignal;
}

export interface ConfigCheck {
  /** Every error in file order (unlocated ones last). */
  errors: DiscernConfigIssue[];
  warnings: DiscernConfigIssue[];
  checks: CheckVerdict[];
  /** The slug discern would refuse this text with: the same precedence loading applies. */
  slug?: 'invalid_toml' | 'unknown_key' | 'invalid_config';
  /** The configuration, when it has no error. */
  config?: DiscernConfig;
  /** The text as decoded, for callers that show it. */
  text?: string;
}

export async function checkConfigText(bytes: Uint8Array, options: CheckOptions): Promise<ConfigCheck> {
  const file = options.displayName;
  const checks: CheckVerdict[] = [];
  const decoded = decodeToml(bytes, file);
  if (!decoded.ok && decoded.problem.error === 'invalid_config') {
    // TOML, but holding a date or time where discern.toml takes none: a schema problem at the key.
    const problem = decoded.problem;
    checks.push({ name: 'syntax', status: 'ok', detail: 'valid TOML' });
    checks.push({ name: 'schema', status: 'fail', detail: problem.message });
    for (const name of ['globs', 'pre_authorized', 'trunk', 'commands'] as const)
      checks.push({ name, status: 'skipped', detail: 'a value is a date or time, not text' });
    return { errors: problem.issues, warnings: [], checks, slug: 'invalid_config' };
  }
  if (!decoded.ok) {
    const problem = decoded.problem;
    checks.push({ name: 'syntax', status: 'fail', detail: problem.message });
    for (const name of ['schema', 'globs', 'pre_authorized', 'trunk', 'commands'] as const)
      checks.push({ name, status: 'skipped', detail: 'the text is not TOML' });
    return { errors: problem.issues, warnings: [], checks, slug: 'invalid_toml' };
  }
  checks.push({ name: 'syntax', status: 'ok', detail: 'valid TOML' });
  const { text, value } = decoded;

  const shaped = schemaIssues(value, text, file);
  // The rest of the text checks on without the schema's problems; its variables are put in, and one without a
  // value is a problem of the file too, at the key that uses it (substitutions.ts), reported in the same pass.
  const pruned = shaped.length === 0 ? (value as DiscernConfig) : withoutProblems(value, shaped, text, file);
  const variables = pruned === undefined ? undefined : withVariables(pruned);
  const schema = [
    ...shaped,
    ...(variables
      ? [...accountingIssues(variables.config, text, file), ...variableIssues(variables.unset, text, file)]
      : []),
  ];
  checks.push(
    schema.length === 0
      ? { name: 'schema', status: 'ok', detail: 'every key and value fits the discern.toml schema' }
      : { name: 'schema', status: 'fail', detail: `${count(schema.length, 'problem')}: ${summary(schema)}` },
  );
  const candidate = variables?.config;
  const partly = schema.length > 0 ? ' (on the rest of the text, with the schema problems left out)' : '';

  const errors: DiscernConfigIssue[] = [...schema.map(({ keys: _keys, ...issue }) => issue)];
  const warnings: DiscernConfigIssue[] = [];
  if (candidate === undefined) {
    for (const name of ['globs', 'pre_authorized', 'trunk', 'commands'] as const)
      checks.push({ name, status: 'skipped', detail: 'the schema problems must be fixed first' });
  } else {
    const globs = globIssues(candidate, text);
    errors.push(...globs);
    checks.push(
      globs.length === 0
        ? { name: 'globs', status: 'ok', detail: `every glob compiles${partly}` }
        : { name: 'globs', status: 'fail', detail: `${count(globs.length, 'glob')} cannot be used: ${summary(globs)}` },
    );

    const scopes = preAuthorizedIssues(candidate, text);
    errors.push(...scopes);
    const granted = candidate.acceptance?.pre_authorized?.length ?? 0;
    checks.push(
      scopes.length > 0
        ? { name: 'pre_authorized', status: 'fail', detail: summary(scopes) }
        : {
            name: 'pre_authorized',
            status: 'ok',
            detail:
              granted === 0
                ? 'no standing authority is granted'
                : `every pre_authorized name is a [scopes] table${partly}`,
          },
    );

    const repository = options.repository;
    if (repository === undefined) {
      checks.push({ name: 'trunk', status: 'skipped', detail: 'not in a git checkout' });
      checks.push({ name: 'commands', status: 'skipped', detail: 'not in a git checkout' });
    } else {
      // A trunk the schema refused was left out: checking the default in its place would mislead.
      if (schema.some((i) => i.keys[0] === 'repository' && (i.keys.length === 1 || i.keys[1] === 'trunk'))) {
        checks.push({ name: 'trunk', status: 'skipped', detail: '[repository] trunk has a schema problem' });
      } else {
        const trunk = await trunkIssue(candidate, text, file, repository, options);
        if (trunk === undefined)
          checks.push({
            name: 'trunk',
            status: 'ok',
            detail: `the trunk "${chooseTrunk(candidate, options.env).name}" exists`,
          });
        else {
          (trunk.severity === 'error' ? errors : warnings).push(trunk.issue);
          checks.push({
            name: 'trunk',
            status: trunk.severity === 'error' ? 'fail' : 'warn',
            detail: trunk.issue.message,
          });
        }
      }
      const commands = await commandIssues(candidate, text, repository.root, options.env);
      warnings.push(...commands);
      checks.push(
        commands.length === 0
          ? { name: 'commands', status: 'ok', detail: `every job's program resolves${partly}` }
          : {
              name: 'commands',
              status: 'warn',
              detail: `${count(commands.length, 'command')} may not run: ${summary(commands)}`,
            },
      );
    }
  }
  errors.sort(inFileOrder);
  warnings.sort(inFileOrder);
  const slug =
    errors.length === 0 ? undefined : schema.some((i) => i.kind === 'unknown_key') ? 'unknown_key' : 'invalid_config';
  return {
    errors,
    warnings,
    checks,
    ...(slug ? { slug } : {}),
    ...(errors.length === 0 ? { config: value as DiscernConfig } : {}),
    text,
  };
}

/**
 * The decoded value with each schema problem's key removed (a value inside an array takes the whole array with
 * it, so indices stay meaningful), repeated while removing one problem exposes another (a table left without a
 * required key). Undefined when no valid remainder is found.
 */
function withoutProblems(
  value: unknown,
  issues: readonly LocatedIssue[],
  text: string,
  file: string,
): DiscernConfig | undefined {
  const copy = structuredClone(value) as Record<string, unknown>;
  let pending = issues;
  for (let round = 0; round < 8; round++) {
    let removed = false;
    for (const issue of pending) removed = remove(copy, issue.keys) || removed;
    if (!removed) return undefined;
    pending = schemaIssues(copy, text, file);
    if (pending.length === 0) return copy as DiscernConfig;
  }
  return undefined;
}

function remove(root: Record<string, unknown>, keys: readonly string[]): boolean {
  let node: unknown = root;
  for (let i = 0; i < keys.length; i++) {
    if (node === null || typeof node !== 'object' || Array.isArray(node)) return false;
    const table = node as Record<string, unknown>;
    const key = keys[i] ?? '';
    if (!(key in table)) return false;
    if (i === keys.length - 1 || Array.isArray(table[key])) {
      delete table[key];
      return true;
    }
    node = table[key];
  }
  return false;
}

/**
 * The trunk discern would use must be a branch here. In a repository with no commit yet no branch exists,
 * so that is only a warning: the first commit creates it.
 */
async function trunkIssue(
  config: DiscernConfig,
  text: string,
  file: string,
  repository: CheckRepository,
  options: CheckOptions,
): Promise<{ severity: 'error' | 'warning'; issue: DiscernConfigIssue } | undefined> {
  const trunk = chooseTrunk(config, options.env);
  const run = { cwd: repository.root, env: options.env, ...(options.signal ? { signal: options.signal } : {}) };
  if (await localBranchExists(repository.commonDir, trunk.name, run)) return undefined;
  const keys = trunk.source === 'config' ? ['repository', 'trunk'] : [];
  const from =
    trunk.source === 'env'
      ? ' (from DISCERN_TRUNK)'
      : trunk.source === 'default'
        ? ' (the default, as [repository] trunk is not set)'
        : '';
  const listed = await git(['for-each-ref', '--count=6', '--format=%(refname:short)', 'refs/heads/'], run).catch(
    () => undefined,
  );
  const branches = listed?.code === 0 ? listed.stdout.split('\n').filter((b) => b.length > 0) : [];
  if (branches.length === 0) {
    return {
      severity: 'warning',
      issue: at(text, keys, {
        kind: 'no_trunk',
        path: keys.length > 0 ? dotted(keys) : file,
        message: `"${trunk.name}"${from} is not a branch yet: the repository has no commit, and its first commit on "${trunk.name}" creates it`,
      }),
    };
  }
  return {
    severity: 'error',
    issue: at(text, keys, {
      kind: 'no_trunk',
      path: keys.length > 0 ? dotted(keys) : file,
      message: `"${trunk.name}"${from} is not a branch of this repository (its branches: ${branches.slice(0, 5).join(', ')}${branches.length > 5 ? ', …' : ''})`,
    }),
  };
}

function inFileOrder(a: DiscernConfigIssue, b: DiscernConfigIssue): number {
  const la = a.line ?? Number.MAX_SAFE_INTEGER;
  const lb = b.line ?? Number.MAX_SAFE_INTEGER;
  return la - lb || (a.column ?? 0) - (b.column ?? 0) || a.path.localeCompare(b.path);
}

function count(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}

function summary(issues: readonly DiscernConfigIssue[]): string {
  return issues.map((i) => `${i.path}${i.line !== undefined ? ` (line ${i.line})` : ''}`).join(', ');
}
