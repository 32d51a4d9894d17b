// Reads discern.toml into a validated configuration, or a classified problem with a location: invalid_toml
// (syntax, with line and column), unknown_key (a key nothing honours, by dotted path), invalid_config (a value
// of the wrong type or shape), read_failed (the file cannot be read).
import { readFile } from 'node:fs/promises';
import { parse, TomlError } from 'smol-toml';
import type { ErrorObject } from 'ajv';
import { validateConfig } from '../../../generated/validators/config.js';
import type { DiscernConfig, DiscernConfigIssue } from '../../../generated/types.js';
import { locateKey, type Location } from './locate.js';

export type ConfigProblemSlug = 'invalid_toml' | 'invalid_config' | 'unknown_key' | 'read_failed';

export type ConfigLoad =
  | { ok: true; config: DiscernConfig; text: string }
  | { ok: false; error: ConfigProblemSlug; message: string; where: string; issues: DiscernConfigIssue[] };

export async function loadConfig(path: string, displayName = 'discern.toml'): Promise<ConfigLoad> {
  let bytes: Buffer;
  try {
    bytes = await readFile(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'error';
    return { ok: false, error: 'read_failed', message: `${displayName} cannot be read (${code}).`, where: path, issues: [{ path: displayName, message: `cannot be read (${code})` }] };
  }
  return parseConfig(bytes, displayName);
}

export function parseConfig(bytes: Uint8Array, displayName = 'discern.toml'): ConfigLoad {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    return syntaxProblem(displayName, 'is not UTF-8 text; TOML files are UTF-8.', undefined);
  }
  let value: unknown;
  try {
    value = parse(text);
  } catch (error) {
    if (error instanceof TomlError) {
      const reason = (error.message.split('\n')[0] ?? '').replace(/^Invalid TOML document: /, '');
      return syntaxProblem(displayName, `is not valid TOML: ${reason}.`, { line: error.line, column: error.column });
    }
    throw error;
  }
  // smol-toml builds null-prototype objects; a plain copy behaves like any other JSON value downstream.
  const plain = JSON.parse(JSON.stringify(value)) as unknown;
  if (validateConfig(plain)) return { ok: true, config: plain as DiscernConfig, text };
  return schemaProblem(displayName, text, validateConfig.errors ?? []);
}

function syntaxProblem(file: string, reason: string, at: Location | undefined): ConfigLoad {
  const where = at ? `line ${at.line}, column ${at.column}` : 'the start of the file';
  return {
    ok: false,
    error: 'invalid_toml',
    message: `${file} ${reason}${at ? ` (line ${at.line}, column ${at.column})` : ''}`,
    where,
    issues: [{ kind: 'invalid_toml', path: file, message: reason, ...(at ? { line: at.line, column: at.column } : {}) }],
  };
}

function schemaProblem(file: string, text: string, errors: readonly ErrorObject[]): ConfigLoad {
  const unknown = errors.filter((e) => e.keyword === 'additionalProperties');
  if (unknown.length > 0) {
    const issues = unknown
      .map((e) => {
        const path = [...pointerKeys(e.instancePath), String((e.params as { additionalProperty: string }).additionalProperty)];
        return issue('unknown_key', file, text, path, 'is not a key discern honours');
      })
      .sort(inFileOrder);
    const first = issues[0] as DiscernConfigIssue;
    return {
      ok: false,
      error: 'unknown_key',
      message: `${file} has ${issues.length === 1 ? 'a key' : `${issues.length} keys`} nothing honours: ${issues.map((i) => `\`${i.path}\``).join(', ')}. Remove or rename ${issues.length === 1 ? 'it' : 'them'}; see \`discern docs configuration\`.`,
      where: describeWhere(first),
      issues,
    };
  }
  // With anyOf, Ajv reports every branch; the deepest non-combinator error is the most specific one.
  const specific = [...errors].filter((e) => e.keyword !== 'anyOf' && e.keyword !== 'oneOf').sort((a, b) => b.instancePath.length - a.instancePath.length);
  const chosen = specific[0] ?? errors[0];
  const path = chosen ? pointerKeys(chosen.instancePath) : [];
  const detail = chosen ? explain(chosen) : 'does not match the configuration schema';
  const first = issue('invalid_config', file, text, path, detail);
  return {
    ok: false,
    error: 'invalid_config',
    message: `${file}: \`${first.path}\` ${detail}. See \`discern docs configuration\`.`,
    where: describeWhere(first),
    issues: [first],
  };
}

function issue(kind: 'unknown_key' | 'invalid_config', file: string, text: string, path: string[], message: string): DiscernConfigIssue {
  const at = locateKey(text, path);
  return { kind, path: path.length > 0 ? dotted(path) : file, message, ...(at ? { line: at.line, column: at.column } : {}) };
}

/** Issues in the order a reader meets them in the file; unlocated ones last, by key. */
function inFileOrder(a: DiscernConfigIssue, b: DiscernConfigIssue): number {
  const la = a.line ?? Number.MAX_SAFE_INTEGER;
  const lb = b.line ?? Number.MAX_SAFE_INTEGER;
  return la - lb || (a.column ?? 0) - (b.column ?? 0) || a.path.localeCompare(b.path);
}

function describeWhere(issue: DiscernConfigIssue): string {
  return issue.line !== undefined ? `key \`${issue.path}\` (line ${issue.line})` : `key \`${issue.path}\``;
}

function explain(error: ErrorObject): string {
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'type':
      return `must be ${String(params['type'])}`;
    case 'enum':
      return `must be one of ${(params['allowedValues'] as unknown[]).map((v) => JSON.stringify(v)).join(', ')}`;
    case 'required':
      return `needs \`${String(params['missingProperty'])}\``;
    case 'pattern':
      return 'has characters or a form that is not allowed here';
    case 'propertyNames':
      return 'has a name that is not allowed (letters, digits, _ and - only)';
    default:
      return error.message ?? 'does not match the configuration schema';
  }
}

function pointerKeys(pointer: string): string[] {
  return pointer === '' ? [] : pointer.slice(1).split('/').map((k) => k.replace(/~1/g, '/').replace(/~0/g, '~'));
}

export function dotted(keys: readonly string[]): string {
  return keys.map((k) => (/^[A-Za-z0-9_-]+$/.test(k) ? k : JSON.stringify(k))).join('.');
}
