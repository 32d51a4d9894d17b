// `config set`'s value argument: a TOML value when it reads as one (`true`, `42`, `["a", "b"]`,
// `{ run = "x" }`), else the text itself; a key whose schema takes a string but not what the text parsed as
// (`repository.trunk 2024`) gets the text, so a string never needs TOML quotes on the command line.
import { parse } from 'smol-toml';
import type { TomlValue } from '../toml-edit/format.js';
import { plain } from '../toml-edit/values.js';
import { explainKey } from './schema.js';

export function parseCliValue(raw: string, path: readonly string[]): TomlValue {
  let parsed: unknown;
  try {
    const doc = parse(`v = ${raw}\n`) as Record<string, unknown>;
    if (Object.keys(doc).length !== 1 || !('v' in doc)) return raw;
    // A TOML date or time (no discern key takes one) is kept as the text typed, not a reformatted timestamp.
    if (doc['v'] instanceof Date) return raw;
    parsed = plain(doc['v']);
  } catch {
    return raw;
  }
  const accepts = explainKey(path)?.accepts;
  const type = jsonType(parsed);
  if (accepts && accepts.has('string') && !accepts.has(type) && !(type === 'integer' && accepts.has('number')))
    return raw;
  return parsed as TomlValue;
}

function jsonType(value: unknown): string {
  if (Array.isArray(value)) return 'array';
  if (value === null) return 'null';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}
