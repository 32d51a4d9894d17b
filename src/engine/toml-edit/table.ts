// setTable: a whole table's keys — `[jobs.x]`, `[scopes.x]`, `[standards.x]` — made exactly `entries`. An
// existing table is edited key by key (values set in place with their comments, keys it no longer has
// removed, new ones appended), so what did not change keeps its bytes; a missing one gets a new [header]
// block, or an inline table when its parent is one.
import { parseDocument } from './document.js';
import { formatKey, formatValue, isTable, type TomlValue } from './format.js';
import { createTable } from './insert.js';
import { findEntry, findInline } from './locate.js';
import { removeKey } from './remove.js';
import { setValue } from './set.js';
import { lookup, parseTree, sameData, withValue } from './values.js';
import { verified } from './verify.js';
import { requirePath } from './paths.js';

export function setTable(text: string, path: readonly string[], entries: Record<string, TomlValue>): string {
  requirePath(path);
  const tree = parseTree(text);
  const current = lookup(tree, path);
  const expected = withValue(tree, path, entries);
  if (current === undefined) {
    const doc = parseDocument(text);
    // Under a value written inline, the new table must be inline too.
    const inlineParent = path.slice(0, -1).some((_, k) => {
      const prefix = path.slice(0, k + 1);
      return findEntry(doc, prefix) !== undefined || findInline(doc, prefix)?.item !== undefined;
    });
    if (inlineParent) return verified(setValue(text, path, entries), expected, 'writing the table', path);
    const lines = Object.entries(entries).map(([k, v]) => `${formatKey(k)} = ${formatValue(v)}`);
    return verified(createTable(doc, path, lines), expected, 'writing the table', path);
  }
  if (!isTable(current)) return verified(setValue(text, path, entries), expected, 'writing the table', path);
  let out = text;
  for (const key of Object.keys(current)) if (!Object.hasOwn(entries, key)) out = removeKey(out, [...path, key]);
  for (const [key, value] of Object.entries(entries)) {
    if (sameData(current[key], value) && current[key] !== undefined) continue;
    out = setValue(out, [...path, key], value);
  }
  return verified(out, expected, 'writing the table', path);
}
