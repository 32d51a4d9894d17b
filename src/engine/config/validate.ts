// Validates a decoded discern.toml against the generated schema validator and turns Ajv's errors into one
// classified problem with its dotted key and line. Loaded only when the text is not already known valid.
import type { ErrorObject } from 'ajv';
import { validateConfig } from '../../../generated/validators/config.js';
import type { DiscernConfig, DiscernConfigIssue } from '../../../generated/types.js';
import { dotted, type ConfigLoad } from './load.js';
import { locateKey } from './locate.js';
import { decodeToml } from './toml.js';

/** Decodes and validates in one step (tests, and callers with bytes in hand). */
export function parseConfig(bytes: Uint8Array, displayName = 'discern.toml'): ConfigLoad {
  const decoded = decodeToml(bytes, displayName);
  return decoded.ok ? validateDecoded(decoded.value, decoded.text, displayName) : decoded.problem;
}

export function validateDecoded(value: unknown, text: string, displayName: string): ConfigLoad {
  if (validateConfig(value)) return { ok: true, config: value as DiscernConfig, text };
  return schemaProblem(displayName, text, validateConfig.errors ?? []);
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
  const chosen = mostSpecific(errors);
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

/** With anyOf, Ajv reports every branch; the deepest non-combinator error is the most specific one. */
export function mostSpecific(errors: readonly ErrorObject[]): ErrorObject | undefined {
  const specific = [...errors].filter((e) => e.keyword !== 'anyOf' && e.keyword !== 'oneOf').sort((a, b) => b.instancePath.length - a.instancePath.length);
  return specific[0] ?? errors[0];
}

export function explain(error: ErrorObject): string {
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

export function pointerKeys(pointer: string): string[] {
  return pointer === '' ? [] : pointer.slice(1).split('/').map((k) => k.replace(/~1/g, '/').replace(/~0/g, '~'));
}
