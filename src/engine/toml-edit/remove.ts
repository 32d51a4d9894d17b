// removeKey: a key's line (a multi-line value's lines), a key inside an inline table with its comma, or a
// whole table — its header, the comments attached above it, its block, its sub-tables and any dotted keys
// elsewhere that define into it. Comments above a removed key stay: they may describe more than it. A key that
// is not set leaves the text as it is.
import { parseDocument, startsWith, type InlineEntry, type TomlDocument, type ValueNode } from './document.js';
import { attachedStart, blockEnd, findEntry, findInline } from './locate.js';
import { removeLines, splice } from './text.js';
import { lookup, parseTree, without } from './values.js';
import { verified } from './verify.js';
import { requirePath } from './paths.js';

export function removeKey(text: string, path: readonly string[]): string {
  requirePath(path);
  const tree = parseTree(text);
  if (lookup(tree, path) === undefined) return text;
  const expected = without(tree, path);
  const doc = parseDocument(text);
  const entry = findEntry(doc, path);
  if (entry) return verified(removeLines(text, entry.lineStart, entry.lineEnd), expected, 'removing', path);
  const inline = findInline(doc, path);
  if (inline?.item) return verified(removeInline(text, inline.table, inline.item), expected, 'removing', path);
  return verified(removeTable(doc, path), expected, 'removing', path);
}

function removeInline(text: string, table: Extract<ValueNode, { kind: 'inline' }>, item: InlineEntry): string {
  const k = table.entries.indexOf(item);
  const next = table.entries[k + 1];
  const previous = table.entries[k - 1];
  if (next) return splice(text, item.key.start, next.key.start, '');
  if (previous) return splice(text, previous.value.end, item.value.end, '');
  return splice(text, table.start, table.end, '{}');
}

/** Every span that defines the table: its headers' blocks (sub-tables included) and dotted keys into it. */
function removeTable(doc: TomlDocument, path: readonly string[]): string {
  const spans: [number, number][] = [];
  const removedHeaders = doc.headers.filter((h) => startsWith(h.path, path));
  for (const h of removedHeaders) spans.push([attachedStart(doc, h), blockEnd(doc, h)]);
  for (const e of doc.entries) {
    if (e.inArray || !startsWith(e.path, path) || (e.header && removedHeaders.includes(e.header))) continue;
    spans.push([e.lineStart, e.lineEnd]);
  }
  let text = doc.text;
  for (const [start, end] of spans.sort((a, b) => b[0] - a[0])) text = removeLines(text, start, end);
  return text;
}
