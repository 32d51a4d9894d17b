// Which git filter drivers the gate may run under (issue 20, "the commit proved is the commit tested"). A clean,
// smudge or process filter rewrites content between the working tree and the repository, so a local driver can
// make the jobs see a tree that a fresh checkout never gets while git status calls it clean. Drivers are
// trusted by command, never by name: Git LFS's own commands, exactly as `git lfs install` writes them, or a
// command listed verbatim in the trunk's `[gate] trusted_filters` (the owner's policy; a change's own
// discern.toml cannot trust its own filter).
//
// Reading the drivers costs a git process, so it is read only when some attribute source could apply one: a
// filter runs only for a path whose `filter` attribute names it, and every such assignment is the text
// `filter=<name>` in a .gitattributes file, info/attributes, the global or system attributes file (or a macro
// defined in one). Those files are read here directly; a config that could point git at another attributes
// file (core.attributesFile, an include, config from the environment) makes the git read happen anyway.
import { readFile } from 'node:fs/promises';
import { dirname, isAbsolute, join } from 'node:path';
import type { DiscernConfig } from '../../../generated/types.js';
import { git, gitComplaint, type GitResult } from '../git/git.js';
import { decodeToml } from '../config/toml.js';

export type FilterKey = 'clean' | 'smudge' | 'process';

/** Git LFS's own driver commands, as `git lfs install` (Debian's git-lfs 3.x included) writes them. */
export const LFS_COMMANDS: Readonly<Record<FilterKey, string>> = {
  clean: 'git-lfs clean -- %f',
  smudge: 'git-lfs smudge -- %f',
  process: 'git-lfs filter-process',
};

export interface FilterDriver {
  name: string;
  key: FilterKey;
  command: string;
}

export interface JudgedCommand extends FilterDriver {
  trusted: boolean;
  reason: string;
}

/** One git process: every configured driver command, and core.attributesFile (which may name another source). */
export const FILTER_CONFIG_ARGS = [
  'config',
  '-z',
  '--get-regexp',
  '^(filter\\..*\\.(clean|smudge|process)|core\\.attributesfile)$',
] as const;

export const FILTER_CONFIG_COMMAND = "git config --get-regexp '^filter\\..*\\.(clean|smudge|process)$'";

export interface FilterConfig {
  drivers: FilterDriver[];
  attributesFile?: string;
}

type Env = Readonly<Record<string, string | undefined>>;

export async function readFilterConfig(opts: {
  cwd: string;
  env: Env;
  signal?: AbortSignal;
}): Promise<{ ok: true; config: FilterConfig } | { ok: false; reason: string }> {
  const result: GitResult = await git(FILTER_CONFIG_ARGS, opts);
  // 1: nothing matched.
  if (result.code === 1 && result.stdout === '') return { ok: true, config: { drivers: [] } };
  if (result.code !== 0) return { ok: false, reason: gitComplaint(result) };
  return { ok: true, config: parseFilterConfig(result.stdout) };
}

/** `git config -z --get-regexp` answers `key\nvalue\0` per entry (a key without a value: `key\0`). */
export function parseFilterConfig(stdout: string): FilterConfig {
  const drivers: FilterDriver[] = [];
  let attributesFile: string | undefined;
  for (const entry of stdout.split('\0')) {
    const newline = entry.indexOf('\n');
    // A key without a value, or an empty command, runs no filter (git skips an empty one; a missing one is a
    // config error that stops git itself).
    if (newline < 0) continue;
    const key = entry.slice(0, newline);
    const value = entry.slice(newline + 1);
    if (key === 'core.attributesfile') {
      attributesFile = value;
      continue;
    }
    const last = key.lastIndexOf('.');
    const which = key.slice(last + 1);
    if (!key.startsWith('filter.') || (which !== 'clean' && which !== 'smudge' && which !== 'process')) continue;
    if (value.trim() === '') continue;
    const driver = { name: key.slice('filter.'.length, last), key: which, command: value } as const;
    // The same setting in two files (the system's and the repository's `git lfs install`) is one driver.
    if (!drivers.some((d) => d.name === driver.name && d.key === driver.key && d.command === driver.command))
      drivers.push(driver);
  }
  return { drivers, ...(attributesFile !== undefined ? { attributesFile } : {}) };
}

/** Each command judged: Git LFS's own for its key, or listed verbatim in `trusted` (the trunk's list). */
export function judgeDrivers(drivers: readonly FilterDriver[], trusted: readonly string[]): JudgedCommand[] {
  return drivers.map((d) => {
    if (d.command === LFS_COMMANDS[d.key]) return { ...d, trusted: true, reason: "Git LFS's own command" };
    if (trusted.includes(d.command))
      return { ...d, trusted: true, reason: "listed in the trunk's [gate] trusted_filters" };
    const lfsName = d.name === 'lfs' ? " (named lfs, but not Git LFS's own command: trust goes by command)" : '';
    return {
      ...d,
      trusted: false,
      reason: `neither Git LFS's own command nor listed in the trunk's [gate] trusted_filters${lfsName}`,
    };
  });
}

/** The trunk's `[gate] trusted_filters`, from the answer of `git show <trunk>:discern.toml` (empty when unreadable). */
export function trustedFiltersFrom(shown: GitResult | undefined): string[] {
  if (shown === undefined || shown.code !== 0) return [];
  return trustedFiltersOf(shown.stdout);
}

export function trustedFiltersOf(text: string): string[] {
  const decoded = decodeToml(Buffer.from(text, 'utf8'), 'discern.toml');
  if (!decoded.ok) return [];
  const listed = ((decoded.value ?? {}) as DiscernConfig).gate?.trusted_filters;
  return Array.isArray(listed) ? listed.filter((c): c is string => typeof c === 'string') : [];
}

/** The `[gate]` line that trusts `commands` besides the `existing` ones (TOML basic strings, as JSON writes them). */
export function trustLine(existing: readonly string[], commands: readonly string[]): string {
  const all = [...new Set([...existing, ...commands])];
  return `trusted_filters = [${all.map((c) => JSON.stringify(c)).join(', ')}]`;
}

/**
 * The filter names some attribute source assigns (`filter=<name>`), read from the files without git ('all' when
 * there are too many directories to look in), and whether the config may point git at an attributes file not
 * read here (then the git read must happen and name it).
 * `tracked`: the index's paths (`git ls-files` order); a `.gitattributes` in any of their directories counts,
 * tracked or not (an ignored one is honoured by git and unseen by git status).
 */
export async function attributeFilterNames(opts: {
  root: string;
  gitDir: string;
  commonDir: string;
  env: Env;
  tracked: readonly string[];
}): Promise<{ names: Set<string> | 'all'; elsewhere: boolean }> {
  const { root, gitDir, commonDir, env } = opts;
  const dirs = new Set<string>(['']);
  for (const path of opts.tracked) {
    let dir = dirname(path);
    while (dir !== '.' && dir !== '' && !dirs.has(dir)) {
      dirs.add(dir);
      dir = dirname(dir);
    }
  }
  // Past this many directories one git process is cheaper than looking in each: every configured driver counts.
  if (dirs.size > MAX_DIRECTORIES) return { names: 'all', elsewhere: true };
  const home = env['HOME'] ?? '';
  const xdg = env['XDG_CONFIG_HOME'] || (home ? join(home, '.config') : '');
  const attributeFiles = [
    ...[...dirs].map((d) => join(root, d, '.gitattributes')),
    join(commonDir, 'info', 'attributes'),
    join(gitDir, 'info', 'attributes'),
    ...(xdg ? [join(xdg, 'git', 'attributes')] : []),
    ...(env['GIT_ATTR_NOSYSTEM'] ? [] : ['/etc/gitattributes']),
  ];
  const configFiles = [
    ...(env['GIT_CONFIG_NOSYSTEM'] ? [] : [env['GIT_CONFIG_SYSTEM'] || '/etc/gitconfig']),
    ...(env['GIT_CONFIG_GLOBAL']
      ? [env['GIT_CONFIG_GLOBAL']]
      : [...(home ? [join(home, '.gitconfig')] : []), ...(xdg ? [join(xdg, 'git', 'config')] : [])]),
    join(commonDir, 'config'),
    join(commonDir, 'config.worktree'),
    join(gitDir, 'config.worktree'),
  ];
  const [attributes, configs] = await Promise.all([
    Promise.all(attributeFiles.map(readIfPresent)),
    Promise.all(configFiles.map(readIfPresent)),
  ]);
  const names = new Set<string>();
  for (const text of attributes) for (const name of filterNamesIn(text)) names.add(name);
  const fromEnv = [
    env['GIT_CONFIG_PARAMETERS'] ?? '',
    ...Object.entries(env)
      .filter(([k]) => /^GIT_CONFIG_KEY_\d+$/.test(k))
      .map(([, v]) => v ?? ''),
  ].join('\n');
  const elsewhere = [...configs, fromEnv].some((text) => /attributesfile|include/i.test(text));
  return { names, elsewhere };
}

const MAX_DIRECTORIES = 2000;

/** Every `filter=<name>` assignment in an attributes file's text (a superset: a pattern may look like one). */
export function filterNamesIn(text: string): string[] {
  return [...text.matchAll(/(?:^|\s)filter=(\S+)/g)].map((m) => m[1] ?? '').filter((n) => n.length > 0);
}

/** core.attributesFile's names, resolved as git does (`~/` from HOME, relative to the checkout root). */
export async function namesInAttributesFile(file: string, root: string, env: Env): Promise<string[]> {
  const path = file.startsWith('~/')
    ? join(env['HOME'] ?? '', file.slice(2))
    : isAbsolute(file)
      ? file
      : join(root, file);
  return filterNamesIn(await readIfPresent(path));
}

async function readIfPresent(path: string): Promise<string> {
  try {
    return await readFile(path, 'utf8');
  } catch {
    return '';
  }
}
