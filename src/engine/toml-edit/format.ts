// TOML literals for values and keys, as the editor writes them: basic strings with escapes, integers and
// floats, booleans, single-line arrays and inline tables; keys bare when they can be, quoted otherwise.
import { TomlEditError } from './errors.js';

export type TomlValue = string | number | boolean | TomlValue[] | { [key: string]: TomlValue };

const BARE = /^[A-Za-z0-9_-]+$/;

export function formatValue(value: TomlValue): string {
  if (typeof value === 'string') return basicString(value);
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (typeof value === 'number') return formatNumber(value);
  if (typeof value === 'bigint') return String(value);
  if (Array.isArray(value)) return `[${value.map(formatValue).join(', ')}]`;
  if (isTable(value)) {
    const entries = Object.entries(value);
    return entries.length === 0
      ? '{}'
      : `{ ${entries.map(([k, v]) => `${formatKey(k)} = ${formatValue(v)}`).join(', ')} }`;
  }
  throw new TomlEditError(`${value === null ? 'null' : typeof value} cannot be written as a TOML value`);
}

export function formatKey(key: string): string {
  return BARE.test(key) ? key : basicString(key);
}

/** A dotted key or header path: `jobs.lint`, `scopes."my docs"`. */
export function formatKeyPath(path: readonly string[]): string {
  return path.map(formatKey).join('.');
}

export function isTable(value: unknown): value is Record<string, TomlValue> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Date);
}

function formatNumber(n: number): string {
  if (Number.isNaN(n)) return 'nan';
  if (n === Infinity) return 'inf';
  if (n === -Infinity) return '-inf';
  return String(n);
}

function basicString(text: string): string {
  let out = '"';
  for (const ch of text) {
    const code = ch.codePointAt(0) ?? 0;
    if (ch === '"') out += '\\"';
    else if (ch === '\\') out += '\\\\';
    else if (ch === '\n') out += '\\n';
    else if (ch === '\t') out += '\\t';
    else if (ch === '\r') out += '\\r';
    else if (ch === '\b') out += '\\b';
    else if (ch === '\f') out += '\\f';
    else if (code < 0x20 || code === 0x7f) out += `\\u${code.toString(16).padStart(4, '0')}`;
    else if (code >= 0xd800 && code <= 0xdfff)
      throw new TomlEditError('a string with a lone surrogate cannot be written as TOML');
    else out += ch;
  }
  return `${out}"`;
}
