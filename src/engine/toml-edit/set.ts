// setValue: one key's value, in place when the key is written (its trailing comment kept), else inserted at
// the end of its table's keys; a table replaced by a value, or a value by a table, goes through removeKey and
// setTable.
import { parseDocument } from './document.js';
import { formatValue, isTable, type TomlValue } from './format.js';
import { insertEntry } from './insert.js';
import { findEntry, findInline } from './locate.js';
import { removeKey } from './remove.js';
import { setTable } from './table.js';
import { splice } from './text.js';
import { lookup, parseTree, withValue } from './values.js';
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
