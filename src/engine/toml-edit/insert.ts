// Inserting a key that is not there yet, into the nearest table that exists: at the end of that table's key
// block (after the keys it shares a dotted prefix with, when there are some), inside an inline table, or —
// when no parent table exists — under a new [table] header placed after the last table of the same section,
// or at the end of the file.
import { startsWith, type Header, type TomlDocument, type ValueNode } from './document.js';
import { TomlEditError } from './errors.js';
import { formatKeyPath } from './format.js';
import { attachedStart, blockEnd, blockEntries, dottedThrough, findEntry, findHeader, findInline } from './locate.js';
import { blankAt, blankBefore, insertLines, splice } from './text.js';

/** What to write for the key: its value's text, and optionally the comments above it and after it. */
export interface NewEntry {
  valueText: string;
  /** Comment lines to keep directly above the key (moved with it). */
  leading?: string[];
  /** What followed the value on its line (a trailing comment), written after the value. */
  trailing?: string;
}

export function insertEntry(doc: TomlDocument, path: readonly string[], item: NewEntry): string {
  for (let k = path.length - 1; k >= 1; k--) {
    const prefix = path.slice(0, k);
    const rest = path.slice(k);
    const header = findHeader(doc, prefix);
    if (header) return insertInBlock(doc, header, rest, item);
    const entry = findEntry(doc, prefix);
    if (entry) {
      if (entry.value.kind !== 'inline')
        throw new TomlEditError(`the value at ${formatKeyPath(prefix)} is not a table`);
      return insertInInline(doc, entry.value, rest, item);
    }
    const inline = findInline(doc, prefix);
    if (inline?.item) {
      if (inline.item.value.kind !== 'inline')
        throw new TomlEditError(`the value at ${formatKeyPath(prefix)} is not a table`);
      return insertInInline(doc, inline.item.value, rest, item);
    }
    const dotted = dottedThrough(doc, prefix);
    const last = dotted[dotted.length - 1];
    if (last)
      return insertInBlock(doc, last.header, path.slice(last.table.length), item, prefix.length - last.table.length);
  }
  if (path.length === 1) return insertInBlock(doc, undefined, path, item);
  const key = path[path.length - 1] ?? '';
  return createTable(doc, path.slice(0, -1), entryLines([key], item, ''));
}

function entryLines(relKey: readonly string[], item: NewEntry, indent: string): string[] {
  return [
    ...(item.leading ?? []).map((c) => indent + c.trimStart()),
    `${indent}${formatKeyPath(relKey)} = ${item.valueText}${item.trailing ?? ''}`,
  ];
}

/**
 * Appends `relKey = value` to a table's block: after the last entry sharing the longest dotted prefix with it
 * (at least `minShared` parts), else after the block's last entry, else right after the header.
 */
function insertInBlock(
  doc: TomlDocument,
  header: Header | undefined,
  relKey: readonly string[],
  item: NewEntry,
  minShared = 0,
): string {
  const entries = blockEntries(doc, header);
  let anchor = entries[entries.length - 1];
  let best = Math.max(minShared, 1);
  for (const e of entries) {
    const shared = sharedPrefix(e.key.parts, relKey);
    if (shared >= best) {
      best = shared;
      anchor = e;
    }
  }
  if (anchor) {
    const indent = doc.text.slice(anchor.lineStart, anchor.key.start);
    return insertLines(doc.text, anchor.lineEnd, entryLines(relKey, item, indent), doc.eol);
  }
  if (header) return insertLines(doc.text, header.lineEnd, entryLines(relKey, item, ''), doc.eol);
  // A root key in a file whose root has none yet: before the first header (and its comments), apart from it.
  const first = doc.headers[0];
  if (!first) return insertLines(doc.text, doc.text.length, entryLines(relKey, item, ''), doc.eol);
  return insertLines(doc.text, attachedStart(doc, first), [...entryLines(relKey, item, ''), ''], doc.eol);
}

function insertInInline(
  doc: TomlDocument,
  table: Extract<ValueNode, { kind: 'inline' }>,
  relKey: readonly string[],
  item: NewEntry,
): string {
  if ((item.leading ?? []).length > 0 || (item.trailing ?? '').trim() !== '')
    throw new TomlEditError('comments cannot move into an inline table');
  const pair = `${formatKeyPath(relKey)} = ${item.valueText}`;
  const last = table.entries[table.entries.length - 1];
  if (!last) return splice(doc.text, table.start, table.end, `{ ${pair} }`);
  return splice(doc.text, last.value.end, last.value.end, `, ${pair}`);
}

/**
 * A new `[path]` table holding `lines`: before its first sub-table when one exists (a super-table reads better
 * first), else after the last table of the same section, else at the end of the file; set apart by blank lines.
 */
export function createTable(doc: TomlDocument, path: readonly string[], lines: readonly string[]): string {
  const block = [`[${formatKeyPath(path)}]`, ...lines];
  const sub = doc.headers.find((h) => h.path.length > path.length && startsWith(h.path, path));
  if (sub) {
    const pos = attachedStart(doc, sub);
    return insertLines(doc.text, pos, [...(blankBefore(doc.text, pos) ? [] : ['']), ...block, ''], doc.eol);
  }
  const section = [...doc.headers].reverse().find((h) => h.path[0] === path[0]);
  const pos = section ? blockEnd(doc, section) : doc.text.length;
  const text = doc.text;
  const atEnd = pos === text.length;
  // A blank line before the header, unless there is one already (or nothing at all).
  const before = blankBefore(text, pos) ? [] : [''];
  const after = atEnd || blankAt(text, pos) ? [] : [''];
  if (atEnd && text.length > 0 && !text.endsWith('\n')) return text + doc.eol + [...before, ...block].join(doc.eol);
  return insertLines(text, pos, [...before, ...block, ...after], doc.eol);
}

function sharedPrefix(a: readonly string[], b: readonly string[]): number {
  let n = 0;
  while (n < a.length && n < b.length && a[n] === b[n]) n++;
  return n;
}
