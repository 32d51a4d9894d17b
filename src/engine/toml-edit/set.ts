// Setting a key's value or a whole table's keys. The two call each other (a table replaced by a value goes
// through removeKey and setValue, a value replaced by a table through setTable), so they live in one module.
//
// setValue: one key's value, in place when the key is written (its trailing comment kept), else inserted at
// the end of its table's keys.
//
// setTable: a whole table's keys — `[jobs.x]`, `[scopes.x]`, `[standards.x]` — made exactly `entries`. An
// existing table is edited key by key (values set in place with their comments, keys it no longer has
// removed, new ones appended), so what did not change keeps its bytes; a missing one gets a new [header]
// block, or an inline table when its parent is one.
import { parseDocument } from './document.js';
import { formatKey, formatValue, isTable, type TomlValue } from './format.js';
import { createTable, insertEntry } from './insert.js';
import { findEntry, findInline } from './locate.js';
import { removeKey } from './remove.js';
import { splice } from './text.js';
import { lookup, parseTree, sameData, withValue } from './values.js';
import { verified } from './verify.js';
import { requirePath } from './paths.js';

export function setValue(text: string, path: readonly string[], value: TomlValue): string {
  requirePath(path);
  const tree = parseTree(text);
  const current = lookup(tree, path);
  const expected = withValue(tree, path, value);
  const valueText = formatValue(value);
  const doc = parseDocument(text);
  const entry = findEntry(doc, path);
  if (entry) return verified(splice(text, entry.value.start, entry.value.end, valueText), expected, 'setting', path);
  const inline = findInline(doc, path);
  if (inline?.item)
    return verified(splice(text, inline.item.value.start, inline.item.value.end, valueText), expected, 'setting', path);
  if (isTable(current)) {
    // A table written as a header or dotted keys.
    if (isTable(value)) return setTable(text, path, value);
    return verified(setValue(removeKey(text, path), path, value), expected, 'setting', path);
  }
  return verified(insertEntry(doc, path, { valueText }), expected, 'setting', path);
}

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
