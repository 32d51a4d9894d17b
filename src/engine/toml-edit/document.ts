// The statement structure of a TOML text, read from its tokens: table headers and key/value entries with the
// exact spans of their keys and values, and every top-level line classified (blank, comment, header, entry),
// so edits can find what a path names, where a table's keys end, and which comments belong to a header.
import { positionOf, TomlEditError } from './errors.js';
import { tokenize, type Token } from './tokens.js';

export interface KeySpan {
  parts: string[];
  /** From the first key part's first character to the last part's last: [start, end). */
  start: number;
  end: number;
}

export type ValueNode =
  | { kind: 'string' | 'scalar'; start: number; end: number }
  | { kind: 'array'; start: number; end: number; items: ValueNode[] }
  | { kind: 'inline'; start: number; end: number; entries: InlineEntry[] };

export interface InlineEntry {
  key: KeySpan;
  value: ValueNode;
}

export interface Header {
  type: 'header';
  array: boolean;
  path: string[];
  key: KeySpan;
  /** The line the header stands on, newline included: [lineStart, lineEnd). */
  lineStart: number;
  lineEnd: number;
  /** The header is an array of tables, or lies under one: its keys are not addressable by a plain path. */
  inArray: boolean;
}

export interface Entry {
  type: 'entry';
  /** The table the entry sits in: its header's path, or [] before the first header. */
  table: string[];
  header: Header | undefined;
  key: KeySpan;
  value: ValueNode;
  /** table + key: the entry's full dotted path. */
  path: string[];
  /** First line of the entry to the end of its last line, newline included (a multi-line value spans several). */
  lineStart: number;
  lineEnd: number;
  inArray: boolean;
}

export type Statement = Header | Entry;

export interface Line {
  kind: 'blank' | 'comment' | 'header' | 'entry';
  start: number;
  end: number;
  statement?: Statement;
}

export interface TomlDocument {
  text: string;
  tokens: Token[];
  headers: Header[];
  entries: Entry[];
  lines: Line[];
  /** The line ending new lines are written with: CRLF when most of the file's line breaks are CRLF. */
  eol: '\n' | '\r\n';
}

export function parseDocument(text: string): TomlDocument {
  return new Builder(text, tokenize(text)).build();
}

export function detectEol(text: string): '\n' | '\r\n' {
  const crlf = text.split('\r\n').length - 1;
  const lf = text.split('\n').length - 1 - crlf;
  return crlf > lf ? '\r\n' : '\n';
}

class Builder {
  private i = 0;
  private readonly headers: Header[] = [];
  private readonly entries: Entry[] = [];
  private readonly lines: Line[] = [];
  private header: Header | undefined;
  private readonly arrayPaths: string[][] = [];

  constructor(
    private readonly text: string,
    private readonly tokens: Token[],
  ) {}

  build(): TomlDocument {
    // A byte-order mark stays where it is, before the first line.
    if (this.text.startsWith('\uFEFF')) this.i = 1;
    while (this.i < this.tokens.length) this.line();
    return {
      text: this.text,
      tokens: this.tokens,
      headers: this.headers,
      entries: this.entries,
      lines: this.lines,
      eol: detectEol(this.text),
    };
  }

  private line(): void {
    const lineStart = this.tokens[this.i]?.start ?? this.text.length;
    this.skip('whitespace');
    const t = this.tokens[this.i];
    if (t === undefined) {
      this.lines.push({ kind: 'blank', start: lineStart, end: this.text.length });
      return;
    }
    if (t.kind === 'newline') {
      this.i++;
      this.lines.push({ kind: 'blank', start: lineStart, end: t.end });
      return;
    }
    if (t.kind === 'comment') {
      this.i++;
      this.lines.push({ kind: 'comment', start: lineStart, end: this.endOfLine() });
      return;
    }
    if (t.kind === 'header-open' || t.kind === 'array-header-open') {
      const array = t.kind === 'array-header-open';
      this.i++;
      this.skip('whitespace');
      const key = this.key();
      this.skip('whitespace');
      this.expect(array ? 'array-header-close' : 'header-close');
      const inArray = array || this.arrayPaths.some((p) => startsWith(key.parts, p));
      if (array) this.arrayPaths.push(key.parts);
      const header: Header = {
        type: 'header',
        array,
        path: key.parts,
        key,
        lineStart,
        lineEnd: this.endOfLine(),
        inArray,
      };
      this.header = header;
      this.headers.push(header);
      this.lines.push({ kind: 'header', start: lineStart, end: header.lineEnd, statement: header });
      return;
    }
    const key = this.key();
    this.skip('whitespace');
    this.expect('equals');
    this.skip('whitespace');
    const value = this.value();
    const table = this.header?.path ?? [];
    const entry: Entry = {
      type: 'entry',
      table,
      header: this.header,
      key,
      value,
      path: [...table, ...key.parts],
      lineStart,
      lineEnd: this.endOfLine(),
      inArray: this.header?.inArray ?? false,
    };
    this.entries.push(entry);
    this.lines.push({ kind: 'entry', start: lineStart, end: entry.lineEnd, statement: entry });
  }

  /** Past the statement: whitespace, a comment, then the newline (included) or the end of the text. */
  private endOfLine(): number {
    this.skip('whitespace');
    this.skip('comment');
    const t = this.tokens[this.i];
    if (t === undefined) return this.text.length;
    if (t.kind !== 'newline') this.fail(t, 'expected the end of the line');
    this.i++;
    return t.end;
  }

  private key(): KeySpan {
    const parts: string[] = [];
    let start = -1;
    for (;;) {
      const t = this.tokens[this.i];
      if (t?.kind !== 'key') return this.fail(t, 'expected a key');
      parts.push(t.name ?? '');
      if (start < 0) start = t.start;
      const end = t.end;
      this.i++;
      const save = this.i;
      this.skip('whitespace');
      if (this.tokens[this.i]?.kind !== 'dot') {
        this.i = save;
        return { parts, start, end };
      }
      this.i++;
      this.skip('whitespace');
    }
  }

  private value(): ValueNode {
    const t = this.tokens[this.i];
    if (t === undefined) return this.fail(t, 'expected a value');
    if (t.kind === 'string' || t.kind === 'scalar') {
      this.i++;
      return { kind: t.kind, start: t.start, end: t.end };
    }
    if (t.kind === 'array-open') {
      this.i++;
      const items: ValueNode[] = [];
      for (;;) {
        this.skipTrivia();
        const next = this.tokens[this.i];
        if (next?.kind === 'array-close') {
          this.i++;
          return { kind: 'array', start: t.start, end: next.end, items };
        }
        items.push(this.value());
      }
    }
    if (t.kind === 'inline-open') {
      this.i++;
      const entries: InlineEntry[] = [];
      for (;;) {
        this.skipTrivia();
        const next = this.tokens[this.i];
        if (next?.kind === 'inline-close') {
          this.i++;
          return { kind: 'inline', start: t.start, end: next.end, entries };
        }
        const key = this.key();
        this.skip('whitespace');
        this.expect('equals');
        this.skip('whitespace');
        entries.push({ key, value: this.value() });
      }
    }
    return this.fail(t, 'expected a value');
  }

  /** Inside an array or inline table: whitespace, newlines, comments and separating commas. */
  private skipTrivia(): void {
    for (;;) {
      const kind = this.tokens[this.i]?.kind;
      if (kind === 'whitespace' || kind === 'newline' || kind === 'comment' || kind === 'comma') this.i++;
      else return;
    }
  }

  private skip(kind: Token['kind']): void {
    while (this.tokens[this.i]?.kind === kind) this.i++;
  }

  private expect(kind: Token['kind']): void {
    const t = this.tokens[this.i];
    if (t?.kind !== kind) this.fail(t, `expected ${kind}`);
    this.i++;
  }

  private fail(t: Token | undefined, message: string): never {
    throw new TomlEditError(message, positionOf(this.text, t?.start ?? this.text.length));
  }
}

export function startsWith(path: readonly string[], prefix: readonly string[]): boolean {
  return prefix.length <= path.length && prefix.every((p, i) => path[i] === p);
}

export function samePath(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && startsWith(a, b);
}
