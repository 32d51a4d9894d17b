// The value side of the editor: the whole text parsed with smol-toml into plain objects (smol-toml builds
// null-prototype objects and TomlDate instances), paths looked up in it, and the value tree an edit must
// produce, which every edit checks its result against.
import { parse, TomlError } from 'smol-toml';
import { TomlEditError } from './errors.js';
import { tomlErrorReason } from '../config/toml.js';
import { isTable, type TomlValue } from './format.js';

export type Tree = Record<string, unknown>;

/** The parsed text as plain JSON-like data: dates become their TOML text. */
export function parseTree(text: string): Tree {
  let value: unknown;
  try {
    value = parse(text);
  } catch (error) {
    if (error instanceof TomlError)
      throw new TomlEditError(`not valid TOML: ${tomlErrorReason(error)}`, { line: error.line, column: error.column });
    throw error;
  }
  if (deeperThan(value, MAX_DEPTH))
    throw new TomlEditError(`nested more than ${MAX_DEPTH} tables or arrays deep, which no discern.toml needs`);
  return plain(value) as Tree;
}

/**
 * Far deeper than any discern.toml needs. The editor's walks (copying, comparing, formatting) recurse, and
 * smol-toml bounds only inline nesting: a header like `[a.b.c.…]` thousands of names long would otherwise end in
 * a RangeError instead of a classified answer.
 */
const MAX_DEPTH = 64;

function deeperThan(root: unknown, limit: number): boolean {
  const stack: [unknown, number][] = [[root, 0]];
  for (let next = stack.pop(); next !== undefined; next = stack.pop()) {
    const [value, depth] = next;
    if (typeof value !== 'object' || value === null || value instanceof Date) continue;
    if (depth > limit) return true;
    for (const child of Object.values(value)) stack.push([child, depth + 1]);
  }
  return false;
}

export function plain(value: unknown): unknown {
  if (value instanceof Date) return value.toISOString();
  if (Array.isArray(value)) return value.map(plain);
  if (typeof value === 'object' && value !== null) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = plain(v);
    return out;
  }
  return value;
}

/** The value at `path`, or undefined; a path through an array (of tables) cannot be addressed. */
export function lookup(tree: Tree, path: readonly string[]): unknown {
  let value: unknown = tree;
  for (let i = 0; i < path.length; i++) {
    if (Array.isArray(value)) throw throughArray(path.slice(0, i));
    if (!isTable(value)) return undefined;
    const key = path[i] ?? '';
    if (!Object.hasOwn(value, key)) return undefined;
    value = value[key];
  }
  return value;
}

/** A copy of `tree` with `value` at `path`, creating tables on the way. */
export function withValue(tree: Tree, path: readonly string[], value: TomlValue): Tree {
  const copy = structuredClone(tree);
  let table: Record<string, unknown> = copy;
  path.slice(0, -1).forEach((key, i) => {
    const next = table[key];
    if (next === undefined) table[key] = {};
    else if (Array.isArray(next)) throw throughArray(path.slice(0, i + 1));
    else if (!isTable(next))
      throw new TomlEditError(
        `\`${dotted(path.slice(0, i + 1))}\` is ${describe(next)}, not a table, so it cannot hold \`${path[i + 1] ?? ''}\``,
      );
    table = table[key] as Record<string, unknown>;
  });
  table[path[path.length - 1] ?? ''] = plain(value);
  return copy;
}

/** A copy of `tree` without `path`. */
export function without(tree: Tree, path: readonly string[]): Tree {
  const copy = structuredClone(tree);
  let table: unknown = copy;
  for (const key of path.slice(0, -1)) table = isTable(table) ? table[key] : undefined;
  if (isTable(table)) delete table[path[path.length - 1] ?? ''];
  return copy;
}

/** Equal as data, ignoring tables left empty (a table only its removed keys defined disappears with them). */
export function sameData(a: unknown, b: unknown): boolean {
  return JSON.stringify(canonical(a)) === JSON.stringify(canonical(b));
}

function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (isTable(value)) {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value).sort()) {
      const v = canonical(value[key]);
      if (isTable(v) && Object.keys(v).length === 0) continue;
      out[key] = v;
    }
    return out;
  }
  if (typeof value === 'number' && !Number.isFinite(value)) return String(value);
  return value;
}

export function dotted(path: readonly string[]): string {
  return path.map((k) => (/^[A-Za-z0-9_-]+$/.test(k) ? k : JSON.stringify(k))).join('.');
}

export function describe(value: unknown): string {
  if (Array.isArray(value)) return 'an array';
  if (isTable(value)) return 'a table';
  return `a ${typeof value}`;
}

function throughArray(prefix: readonly string[]): TomlEditError {
  return new TomlEditError(
    `\`${dotted(prefix)}\` is an array (of tables); the editor does not address keys inside one`,
  );
}
