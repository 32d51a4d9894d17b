// renameKey: a key (or table) under a new path with its value and comments. In the same table the key text is
// rewritten in place; to another table the entry's line moves, with the comment lines directly above it and
// the comment after its value; a table's headers (and its sub-tables') are renamed where they stand. Any other
// shape is removed and set again, which keeps the value but not the layout. A key that is not set leaves the
// text as it is.
import { parseDocument, samePath, startsWith, type Entry, type TomlDocument } from './document.js';
import { TomlEditError } from './errors.js';
import { formatKeyPath, isTable, type TomlValue } from './format.js';
import { insertEntry } from './insert.js';
import { dottedThrough, findEntry, findHeader, findInline, lineIndex } from './locate.js';
import { removeKey } from './remove.js';
import { setTable, setValue } from './set.js';
import { removeLines, splice } from './text.js';
import { dotted, lookup, parseTree, without, withValue } from './values.js';
import { attempt, verified } from './verify.js';
import { requirePath } from './paths.js';

export function renameKey(text: string, from: readonly string[], to: readonly string[]): string {
  requirePath(from);
  requirePath(to);
  const tree = parseTree(text);
  const value = lookup(tree, from);
  if (value === undefined) return text;
  if (startsWith(to, from))
    throw new TomlEditError(`\`${dotted(from)}\` cannot move inside itself (to \`${dotted(to)}\`)`);
  if (lookup(tree, to) !== undefined)
    throw new TomlEditError(`\`${dotted(to)}\` is set already; remove it before renaming \`${dotted(from)}\` to it`);
  const expected = withValue(without(tree, from), to, value as TomlValue);
  const doc = parseDocument(text);
  const check = (result: string): string => verified(result, expected, 'renaming', from);
  const inPlace = (): string | undefined => {
    const entry = findEntry(doc, from);
    if (entry) {
      const moved = samePath(to.slice(0, -1), from.slice(0, -1))
        ? attempt(() =>
            check(splice(text, entry.key.start, entry.key.end, formatKeyPath(to.slice(entry.table.length)))),
          )
        : undefined;
      return moved ?? attempt(() => check(moveEntry(doc, entry, to)));
    }
    const inline = findInline(doc, from);
    if (
      inline?.item &&
      to.length === from.length &&
      startsWith(to, inline.tablePath.concat(inline.item.key.parts.slice(0, -1)))
    ) {
      const rel = to.slice(inline.tablePath.length);
      return attempt(() => check(splice(text, inline.item!.key.start, inline.item!.key.end, formatKeyPath(rel))));
    }
    if (findHeader(doc, from) && dottedThrough(doc, from).length === 0)
      return attempt(() => check(renameHeaders(doc, from, to)));
    return undefined;
  };
  const rest = removeKey(text, from);
  return inPlace() ?? check(isTable(value) ? setTable(rest, to, value) : setValue(rest, to, value as TomlValue));
}

/** The entry's line to `to`'s table, with the comment lines directly above it and its trailing comment. */
function moveEntry(doc: TomlDocument, entry: Entry, to: readonly string[]): string {
  const text = doc.text;
  let k = lineIndex(doc, entry.lineStart);
  while (k > 0 && doc.lines[k - 1]?.kind === 'comment') k--;
  const first = doc.lines[k]?.start ?? entry.lineStart;
  const leading = text
    .slice(first, entry.lineStart)
    .split(/\r?\n/)
    .filter((l) => l.length > 0);
  const trailing = text.slice(entry.value.end, entry.lineEnd).replace(/\r?\n$/, '');
  const valueText = text.slice(entry.value.start, entry.value.end);
  const removed = removeLines(text, first, entry.lineEnd);
  return insertEntry(parseDocument(removed), to, {
    valueText,
    leading,
    ...(trailing.trim() !== '' ? { trailing } : {}),
  });
}

/** Every header at or under `from`, rewritten to the same place under `to`. */
function renameHeaders(doc: TomlDocument, from: readonly string[], to: readonly string[]): string {
  let text = doc.text;
  const headers = doc.headers.filter((h) => startsWith(h.path, from)).sort((a, b) => b.key.start - a.key.start);
  for (const h of headers)
    text = splice(text, h.key.start, h.key.end, formatKeyPath([...to, ...h.path.slice(from.length)]));
  return text;
}
