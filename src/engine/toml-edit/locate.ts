// Where a dotted path is written in a parsed document: as an entry of its own (`lint = "x"`, or `lint.run =
// "x"` under [jobs]), as a key inside an inline table (`test = { run = "x" }`), as a table header, or as a
// table that dotted keys in a parent block define. Entries and headers inside arrays of tables never match.
import {
  samePath,
  startsWith,
  type Entry,
  type Header,
  type InlineEntry,
  type Line,
  type TomlDocument,
  type ValueNode,
} from './document.js';

export function findEntry(doc: TomlDocument, path: readonly string[]): Entry | undefined {
  return doc.entries.find((e) => !e.inArray && samePath(e.path, path));
}

export function findHeader(doc: TomlDocument, path: readonly string[]): Header | undefined {
  return doc.headers.find((h) => !h.inArray && samePath(h.path, path));
}

export interface InlineHit {
  /** The top-level entry whose value holds the inline table(s). */
  entry: Entry;
  /** The inline table that holds the key. */
  table: Extract<ValueNode, { kind: 'inline' }>;
  /** The key inside it, when present. */
  item: InlineEntry | undefined;
  /** The path of `table` itself. */
  tablePath: string[];
}

/**
 * `path` inside an inline table: the inline table that holds its last key (or would hold it, when the key is
 * missing and the table exists), found through the entry that starts it and any nested inline tables.
 */
export function findInline(doc: TomlDocument, path: readonly string[]): InlineHit | undefined {
  const entry = doc.entries.find(
    (e) => !e.inArray && e.path.length < path.length && startsWith(path, e.path) && e.value.kind === 'inline',
  );
  if (!entry || entry.value.kind !== 'inline') return undefined;
  let table = entry.value;
  let tablePath = entry.path;
  for (;;) {
    const rest = path.slice(tablePath.length);
    const exact = table.entries.find((i) => samePath(i.key.parts, rest));
    if (exact) return { entry, table, item: exact, tablePath };
    const deeper = table.entries.find(
      (i) => i.key.parts.length < rest.length && startsWith(rest, i.key.parts) && i.value.kind === 'inline',
    );
    if (!deeper || deeper.value.kind !== 'inline')
      return rest.length === 1 ? { entry, table, item: undefined, tablePath } : undefined;
    tablePath = [...tablePath, ...deeper.key.parts];
    table = deeper.value;
  }
}

/** Entries written with a dotted key that passes through `path` (`lint.run` under [jobs] for jobs.lint). */
export function dottedThrough(doc: TomlDocument, path: readonly string[]): Entry[] {
  return doc.entries.filter(
    (e) => !e.inArray && e.path.length > path.length && startsWith(e.path, path) && e.table.length < path.length,
  );
}

/** The entries of a table's own block: after its header (or before the first header, for the root). */
export function blockEntries(doc: TomlDocument, header: Header | undefined): Entry[] {
  return doc.entries.filter((e) => e.header === header);
}

export function lineIndex(doc: TomlDocument, start: number): number {
  return doc.lines.findIndex((l) => l.start === start);
}

/** Where a header's attached comments begin: the comment lines directly above it, up to a blank line. */
export function attachedStart(doc: TomlDocument, header: Header): number {
  let k = lineIndex(doc, header.lineStart);
  while (k > 0 && doc.lines[k - 1]?.kind === 'comment') k--;
  return doc.lines[k]?.start ?? header.lineStart;
}

/**
 * Where a table's block ends: after its last line that is neither blank nor a comment attached to the next
 * header (comments and commented-out keys inside the block stay with it).
 */
export function blockEnd(doc: TomlDocument, header: Header | undefined): number {
  const lines = doc.lines;
  const from = header ? lineIndex(doc, header.lineStart) : -1;
  let next = lines.findIndex((l, k) => k > from && l.kind === 'header');
  if (next < 0) next = lines.length;
  let k = next;
  const nextHeader = lines[next]?.statement;
  if (nextHeader?.type === 'header') {
    const attached = attachedStart(doc, nextHeader);
    while (k - 1 > from && (lines[k - 1]?.start ?? 0) >= attached) k--;
  }
  while (k - 1 > from && lines[k - 1]?.kind === 'blank') k--;
  if (k - 1 === from) return header ? header.lineEnd : 0;
  return (lines[k - 1] as Line).end;
}
