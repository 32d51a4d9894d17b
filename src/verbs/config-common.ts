// What every config command does first: find discern.toml from the resolution (the config commands read, and
// repair, files the resolution refused), read it, and read the key argument. Each returns facts or one refusal.
import type { Refusal } from '../core/outcome.js';
import type { DiscernErrorSlug } from '../../generated/types.js';
import { locateConfigFile, readConfigText, type ConfigLocation, type LocateSlug } from '../engine/config-file/file.js';
import { parseKeyPath } from '../engine/config-file/key-path.js';
import { closeKeys } from '../engine/config-file/suggest.js';
import { knownKeyPaths, schemaAt } from '../engine/config-file/schema.js';
import { allKeys } from '../engine/config-file/tree.js';
import { TomlEditError } from '../engine/toml-edit/errors.js';
import { dotted, lookup, parseTree, type Tree } from '../engine/toml-edit/values.js';
import { CONFIG_FILE } from '../engine/project/resolve.js';
import type { InspectVerbContext } from './context.js';

/** Why discern.toml could not be opened (the file may be missing: a writer creates it). */
export type OpenSlug = LocateSlug | 'invalid_toml' | 'read_failed';

export interface OpenedConfig {
  location: ConfigLocation;
  exists: boolean;
  text: string;
  bom: boolean;
  mode: number | undefined;
  /** The parsed data; {} for a file that does not exist yet. */
  tree: Tree;
}

export type Opened<E extends DiscernErrorSlug> =
  { ok: true; config: OpenedConfig } | { ok: false; refusal: Refusal<E> };

/** discern.toml read and parsed; `missing: 'refuse'` answers no_project when there is none. */
export async function openConfig(ctx: InspectVerbContext, missing: 'refuse'): Promise<Opened<OpenSlug | 'no_project'>>;
export async function openConfig(ctx: InspectVerbContext, missing: 'empty'): Promise<Opened<OpenSlug>>;
export async function openConfig(
  ctx: InspectVerbContext,
  missing: 'refuse' | 'empty',
): Promise<Opened<OpenSlug | 'no_project'>> {
  const located = locateConfigFile(ctx.resolution);
  if (!located.ok) return { ok: false, refusal: located.refusal };
  const { location } = located;
  const read = await readConfigText(location.path);
  if (!read.ok) {
    if (read.reason === 'not-utf8')
      return {
        ok: false,
        refusal: {
          error: 'invalid_toml',
          message: `${CONFIG_FILE} is not UTF-8 text; TOML files are UTF-8.`,
          next: { file: CONFIG_FILE, where: 'the start of the file' },
        },
      };
    return {
      ok: false,
      refusal: {
        error: 'read_failed',
        message: `${location.path} cannot be read (${read.code}).`,
        next: { target: location.path, access: 'readable' },
      },
    };
  }
  if (!read.exists && missing === 'refuse') {
    return {
      ok: false,
      refusal: {
        error: 'no_project',
        message: `${location.root} has no ${CONFIG_FILE}, so there is no configuration to read.`,
        next: { root: location.root },
      },
    };
  }
  try {
    return {
      ok: true,
      config: {
        location,
        exists: read.exists,
        text: read.text,
        bom: read.bom,
        mode: read.mode,
        tree: parseTree(read.text),
      },
    };
  } catch (error) {
    if (!(error instanceof TomlEditError)) throw error;
    const where =
      error.line !== undefined ? `line ${error.line}, column ${error.column ?? 1}` : 'the start of the file';
    return {
      ok: false,
      refusal: {
        error: 'invalid_toml',
        message: `${CONFIG_FILE} is ${error.reason}${error.line !== undefined ? ` (${where})` : ''}.`,
        next: { file: CONFIG_FILE, where },
      },
    };
  }
}

export type ParsedKey = { ok: true; path: string[]; key: string } | { ok: false; refusal: Refusal<'invalid_value'> };

export function readKey(raw: string, command: string): ParsedKey {
  const parsed = parseKeyPath(raw);
  if (!parsed.ok)
    return {
      ok: false,
      refusal: {
        error: 'invalid_value',
        message: `"${raw}" cannot be read as a key: ${parsed.problem}. Write it dotted, like \`jobs.lint\` or \`scopes."my docs".paths\`.`,
        next: { help: `\`discern help ${command}\`` },
      },
    };
  return { ok: true, path: parsed.path, key: dotted(parsed.path) };
}

/** The value at a path, or a refusal when the path runs through an array of tables. */
export function valueAt(
  tree: Tree,
  path: readonly string[],
  command: string,
): { ok: true; value: unknown } | { ok: false; refusal: Refusal<'invalid_value'> } {
  try {
    return { ok: true, value: lookup(tree, path) };
  } catch (error) {
    if (!(error instanceof TomlEditError)) throw error;
    return {
      ok: false,
      refusal: { error: 'invalid_value', message: `${error.reason}.`, next: { help: `\`discern help ${command}\`` } },
    };
  }
}

/** Keys close to `key`: set in the file, or named by the configuration schema. */
export function suggestionsFor(key: string, tree: Tree): string[] {
  return closeKeys(key, [...allKeys(tree), ...knownKeyPaths().map((p) => dotted(p))]);
}

/** The refusal for a key the file does not set, naming close keys and whether the schema knows it. */
export function notSet(
  key: string,
  path: readonly string[],
  tree: Tree,
): { refusal: Refusal<'unknown_key'>; suggestions: string[] } {
  const suggestions = suggestionsFor(key, tree);
  const known = schemaAt(path) !== undefined;
  const close = suggestions.length > 0 ? ` Close keys: ${suggestions.map((s) => `\`${s}\``).join(', ')}.` : '';
  const message = known
    ? `${CONFIG_FILE} does not set \`${key}\`; \`discern config explain ${key}\` says what it does and what applies without it.${close}`
    : `${CONFIG_FILE} does not set \`${key}\`, and it is not a key discern.toml accepts.${close}`;
  return {
    refusal: { error: 'unknown_key', message, next: { file: CONFIG_FILE, where: `key \`${key}\`` } },
    suggestions,
  };
}
