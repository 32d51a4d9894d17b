// discern.toml's own variables: commands, globs and paths may say `${map.dir}`, `${skills.dir}`,
// `${scripts.dir}`, `${project.todo}` or `${project.gotchas_doc}`, and discern puts in the configured value (or
// its default) before anything reads them. Every other `${…}` is left as written, for the shell. The five keys that
// define the variables are taken as written, so a variable never refers to itself. A variable without a value (an
// unset gotchas_doc) is a problem in the file, named with its key, never an empty string handed to a command.
import { posix } from 'node:path';
import type { DiscernConfig } from '../../../generated/types.js';
import { DEFAULT_MAP_DIR, DEFAULT_SCRIPTS_DIR, DEFAULT_SKILLS_DIR, DEFAULT_TODO } from './defaults.js';

const VARIABLE = /\$\{(map\.dir|skills\.dir|scripts\.dir|project\.todo|project\.gotchas_doc)\}/g;

/** The keys that define a variable, as dotted paths: their own values are not substituted. */
const DEFINING = new Set(['map.dir', 'skills.dir', 'scripts.dir', 'project.todo', 'project.gotchas_doc']);

export interface UnsetVariable {
  /** Where the variable is used, as keys from the file's root. */
  keys: string[];
  variable: string;
}

/** The value each variable stands for: the configured one, else the default; none for an unset gotchas_doc. */
export function variableValues(config: DiscernConfig): Record<string, string | undefined> {
  // `./` and repeated slashes go (the schema takes `.//map`), but never into a leading `/`: a value stays
  // project-relative, so a command such as `rm -r ${map.dir}/cache` never reaches outside the project.
  const path = (value: string): string =>
    posix
      .normalize(value)
      .replace(/^(\.\/)+/, '')
      .replace(/\/+$/, '') || '.';
  return {
    'map.dir': path(config.map?.dir ?? DEFAULT_MAP_DIR),
    'skills.dir': path(config.skills?.dir ?? DEFAULT_SKILLS_DIR),
    'scripts.dir': path(config.scripts?.dir ?? DEFAULT_SCRIPTS_DIR),
    'project.todo': path(config.project?.todo ?? DEFAULT_TODO),
    'project.gotchas_doc': config.project?.gotchas_doc === undefined ? undefined : path(config.project.gotchas_doc),
  };
}

/**
 * The configuration with every variable put in. The same object comes back when nothing uses one (the usual
 * case), so a configuration without variables costs one scan.
 */
export function withVariables(config: DiscernConfig): { config: DiscernConfig; unset: UnsetVariable[] } {
  if (!JSON.stringify(config).includes('${')) return { config, unset: [] };
  const values = variableValues(config);
  const unset: UnsetVariable[] = [];
  const visit = (value: unknown, keys: string[]): unknown => {
    if (typeof value === 'string') {
      if (DEFINING.has(keys.join('.'))) return value;
      return value.replace(VARIABLE, (whole, name: string) => {
        const resolved = values[name];
        if (resolved === undefined) {
          unset.push({ keys, variable: whole });
          return whole;
        }
        return resolved;
      });
    }
    // An array item is reported at the key that holds the array.
    if (Array.isArray(value)) return value.map((item) => visit(item, keys));
    if (value !== null && typeof value === 'object')
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, visit(v, [...keys, k])]));
    return value;
  };
  return { config: visit(config, []) as DiscernConfig, unset };
}
