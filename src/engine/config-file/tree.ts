// The data of discern.toml walked for listing: every key set (full dotted names, in file order), and the
// tables directly under one table.
import { isTable } from '../toml-edit/format.js';
import { dotted } from '../toml-edit/values.js';

// Both walks keep their own stack instead of recursing: a hostile discern.toml can nest tables thousands deep
// (`[a.b.c.…]`), and a recursive walk would end in a RangeError instead of a classified answer.

/** Full dotted names of every value under `value` that is not a table; an array is one value. */
export function leafKeys(value: unknown, prefix: readonly string[]): string[] {
  return walk(value, prefix, false);
}

/** Every key path set (tables included), for suggestions. */
export function allKeys(value: unknown, prefix: readonly string[] = []): string[] {
  return walk(value, prefix, true);
}

/** Depth-first, in file order: a table's own name (when `tables`) comes before the keys under it. */
function walk(value: unknown, prefix: readonly string[], tables: boolean): string[] {
  if (!isTable(value)) return !tables && prefix.length > 0 ? [dotted(prefix)] : [];
  const keys: string[] = [];
  const stack: [readonly string[], unknown][] = Object.entries(value)
    .reverse()
    .map(([k, v]) => [[...prefix, k], v]);
  for (let next = stack.pop(); next !== undefined; next = stack.pop()) {
    const [path, v] = next;
    if (!isTable(v)) {
      keys.push(dotted(path));
      continue;
    }
    if (tables) keys.push(dotted(path));
    for (const [k, child] of Object.entries(v).reverse()) stack.push([[...path, k], child]);
  }
  return keys;
}

export function subsections(value: unknown): string[] {
  return isTable(value)
    ? Object.entries(value)
        .filter(([, v]) => isTable(v))
        .map(([k]) => k)
    : [];
}
