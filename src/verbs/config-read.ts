// The read-only config commands: get, has, keys, subsections, array and explain. They read discern.toml as the
// file sets it (not with defaults filled in) and print bare values for scripts unless --json or --markdown.
import type {
  ConfigArrayOutcome,
  ConfigExplainOutcome,
  ConfigGetOutcome,
  ConfigHasOutcome,
  ConfigKeysOutcome,
  ConfigSubsectionsOutcome,
} from '../../generated/handlers.js';
import type {
  DiscernConfigArrayInput,
  DiscernConfigExplainInput,
  DiscernConfigGetInput,
  DiscernConfigHasInput,
  DiscernConfigKeysInput,
  DiscernConfigSubsectionsInput,
} from '../../generated/types.js';
import { explainKey, knownKeyPaths, schemaAt } from '../engine/config-file/schema.js';
import { closeKeys } from '../engine/config-file/suggest.js';
import { leafKeys, subsections } from '../engine/config-file/tree.js';
import { formatValue, isTable, type TomlValue } from '../engine/toml-edit/format.js';
import { describe, dotted } from '../engine/toml-edit/values.js';
import { CONFIG_FILE } from '../engine/project/resolve.js';
import { notSet, openConfig, readKey, valueAt } from './config-common.js';
import type { InspectVerbContext } from './context.js';
import type { Refusal } from '../core/outcome.js';

export async function configGet(input: DiscernConfigGetInput, ctx: InspectVerbContext): Promise<ConfigGetOutcome> {
  const key = readKey(input.key, 'config get');
  if (!key.ok) return { refusal: key.refusal };
  const opened = await openConfig(ctx, 'refuse');
  if (!opened.ok) return { refusal: opened.refusal };
  const { tree, location } = opened.config;
  const found = valueAt(tree, key.path, 'config get');
  if (!found.ok) return { refusal: found.refusal };
  if (found.value === undefined) {
    const missing = notSet(key.key, key.path, tree);
    return {
      data: {
        key: key.key,
        present: false,
        file: location.path,
        ...(missing.suggestions.length > 0 ? { suggestions: missing.suggestions } : {}),
      },
      refusal: missing.refusal,
    };
  }
  return { data: { key: key.key, present: true, value: found.value as TomlValue, file: location.path } };
}

export async function configHas(input: DiscernConfigHasInput, ctx: InspectVerbContext): Promise<ConfigHasOutcome> {
  const key = readKey(input.key, 'config has');
  if (!key.ok) return { refusal: key.refusal };
  const opened = await openConfig(ctx, 'refuse');
  if (!opened.ok) return { refusal: opened.refusal };
  const found = valueAt(opened.config.tree, key.path, 'config has');
  if (!found.ok) return { refusal: found.refusal };
  return { data: { key: key.key, present: found.value !== undefined, file: opened.config.location.path } };
}

export async function configKeys(input: DiscernConfigKeysInput, ctx: InspectVerbContext): Promise<ConfigKeysOutcome> {
  const opened = await openConfig(ctx, 'refuse');
  if (!opened.ok) return { refusal: opened.refusal };
  const { tree, location } = opened.config;
  if (input.section === undefined) return { data: { keys: leafKeys(tree, []), file: location.path } };
  const section = sectionValue(input.section, tree, 'config keys');
  if (!section.ok) return { refusal: section.refusal };
  return {
    data: {
      section: section.key,
      present: section.value !== undefined,
      keys: section.value === undefined ? [] : leafKeys(section.value, section.path),
      file: location.path,
    },
  };
}

export async function configSubsections(
  input: DiscernConfigSubsectionsInput,
  ctx: InspectVerbContext,
): Promise<ConfigSubsectionsOutcome> {
  const opened = await openConfig(ctx, 'refuse');
  if (!opened.ok) return { refusal: opened.refusal };
  const { tree, location } = opened.config;
  const section = sectionValue(input.section, tree, 'config subsections');
  if (!section.ok) return { refusal: section.refusal };
  if (section.value !== undefined && !isTable(section.value)) {
    return {
      refusal: {
        error: 'invalid_value',
        message: `\`${section.key}\` is ${describe(section.value)}, not a table, so it has no sub-tables; \`discern config get ${section.key}\` prints it.`,
        next: { help: '`discern help config subsections`' },
      },
    };
  }
  return {
    data: {
      section: section.key,
      present: section.value !== undefined,
      keys: subsections(section.value),
      file: location.path,
    },
  };
}

export async function configArray(
  input: DiscernConfigArrayInput,
  ctx: InspectVerbContext,
): Promise<ConfigArrayOutcome> {
  const key = readKey(input.key, 'config array');
  if (!key.ok) return { refusal: key.refusal };
  const opened = await openConfig(ctx, 'refuse');
  if (!opened.ok) return { refusal: opened.refusal };
  const { tree, location } = opened.config;
  const found = valueAt(tree, key.path, 'config array');
  if (!found.ok) return { refusal: found.refusal };
  if (found.value === undefined) {
    const missing = notSet(key.key, key.path, tree);
    return {
      data: {
        key: key.key,
        present: false,
        file: location.path,
        ...(missing.suggestions.length > 0 ? { suggestions: missing.suggestions } : {}),
      },
      refusal: missing.refusal,
    };
  }
  if (isTable(found.value)) {
    return {
      refusal: {
        error: 'invalid_value',
        message: `\`${key.key}\` is a table, not a list; \`discern config keys ${key.key}\` lists its keys.`,
        next: { help: '`discern help config array`' },
      },
    };
  }
  return {
    data: {
      key: key.key,
      present: true,
      value: Array.isArray(found.value) ? found.value : [found.value],
      file: location.path,
    },
  };
}

export async function configExplain(
  input: DiscernConfigExplainInput,
  ctx: InspectVerbContext,
): Promise<ConfigExplainOutcome> {
  const key = readKey(input.key, 'config explain');
  if (!key.ok) return { refusal: key.refusal };
  // The schema answers; the project, when there is a readable one, adds its value.
  const opened = await openConfig(ctx, 'refuse');
  const tree = opened.ok ? opened.config.tree : {};
  const info = explainKey(key.path);
  if (!info) {
    const suggestions = closeKeys(
      key.key,
      knownKeyPaths().map((p) => dotted(p)),
    );
    const close = suggestions.length > 0 ? ` Close keys: ${suggestions.map((s) => `\`${s}\``).join(', ')}.` : '';
    return {
      refusal: {
        error: 'unknown_key',
        message: `\`${key.key}\` is not a key discern.toml accepts.${close} \`discern docs configuration\` lists every key.`,
        next: { file: CONFIG_FILE, where: `key \`${key.key}\`` },
      },
    };
  }
  const found = opened.ok ? valueAt(tree, key.path, 'config explain') : undefined;
  const value = found?.ok ? (found.value as TomlValue | undefined) : undefined;
  const data = {
    key: key.key,
    type: info.type,
    ...(info.description !== undefined ? { description: info.description } : {}),
    ...(info.default !== undefined ? { default: info.default as TomlValue } : {}),
    ...(info.enum !== undefined ? { enum: info.enum } : {}),
    ...(info.keys !== undefined ? { keys: info.keys } : {}),
    present: value !== undefined,
    ...(value !== undefined ? { value } : {}),
    ...(opened.ok ? { file: opened.config.location.path } : {}),
    explanation: '',
  };
  data.explanation = explanationText(data, opened.ok);
  return { data };
}

function explanationText(
  info: {
    key: string;
    type: string;
    description?: string;
    default?: unknown;
    enum?: unknown[];
    keys?: string[];
    present: boolean;
    value?: unknown;
  },
  project: boolean,
): string {
  const literal = (v: unknown): string => {
    try {
      return formatValue(v as TomlValue);
    } catch {
      return JSON.stringify(v);
    }
  };
  const lines = [`${info.key}: ${info.type}${info.default !== undefined ? `, default ${literal(info.default)}` : ''}`];
  if (info.description) lines.push(info.description);
  if (info.enum) lines.push(`Accepts: ${info.enum.map(literal).join(', ')}`);
  if (info.keys) lines.push(`Keys: ${info.keys.join(', ')}`);
  if (project) lines.push(info.present ? `Set here: ${literal(info.value)}` : `Not set in ${CONFIG_FILE}.`);
  return lines.join('\n');
}

type Section =
  | { ok: true; key: string; path: string[]; value: unknown }
  | { ok: false; refusal: Refusal<'invalid_value' | 'unknown_key'> };

/** A section argument: its value, or a refusal for a path that names nothing the file or the schema knows. */
function sectionValue(raw: string, tree: Record<string, unknown>, command: string): Section {
  const key = readKey(raw, command);
  if (!key.ok) return { ok: false, refusal: key.refusal };
  const found = valueAt(tree, key.path, command);
  if (!found.ok) return { ok: false, refusal: found.refusal };
  if (found.value === undefined && schemaAt(key.path) === undefined)
    return { ok: false, refusal: notSet(key.key, key.path, tree).refusal };
  return { ok: true, key: key.key, path: key.path, value: found.value };
}
