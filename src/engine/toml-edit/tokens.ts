// The TOML tokenizer: the whole text as a flat list of tokens whose concatenation is the text itself, byte for
// byte (whitespace, newlines and comments included), so an edit can replace exactly the span it means. TOML's
// lexical grammar depends on position — `1.5` is one float after `=` but two keys before it — so the
// tokenizer reads the statement structure too (key/value lines, headers, arrays, inline tables) and labels
// each token with its role. It checks the shape, not every rule of the spec: the caller has already parsed the
// text with smol-toml, so anything that reaches here is TOML.
import { positionOf, TomlEditError } from './errors.js';

export type TokenKind =
  | 'whitespace'
  | 'newline'
  | 'comment'
  /** One part of a key: bare, "basic" or 'literal'. */
  | 'key'
  | 'dot'
  | 'equals'
  | 'comma'
  | 'header-open'
  | 'header-close'
  | 'array-header-open'
  | 'array-header-close'
  | 'array-open'
  | 'array-close'
  | 'inline-open'
  | 'inline-close'
  /** A string value, in any of the four forms. */
  | 'string'
  /** A bare value: a number, boolean, date or time. */
  | 'scalar';

export type StringStyle = 'basic' | 'literal' | 'multiline-basic' | 'multiline-literal';

export interface Token {
  kind: TokenKind;
  /** UTF-16 offsets into the text: [start, end). */
  start: number;
  end: number;
  /** A key's name, decoded (quotes and escapes removed). */
  name?: string;
  /** How a string (or a quoted key) is written. */
  style?: StringStyle;
}

const BARE_KEY = /[A-Za-z0-9_-]/;
// Numbers (incl. 0x, 0o, 0b, inf, nan, exponents, underscores), booleans, dates and times.
const SCALAR_CHAR = /[A-Za-z0-9_+\-.:]/;
const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;

export function tokenize(text: string): Token[] {
  return new Lexer(text).run();
}

class Lexer {
  private pos = 0;
  private readonly tokens: Token[] = [];

  constructor(private readonly text: string) {}

  run(): Token[] {
    // A byte-order mark is not content: it reads as whitespace before the first line.
    if (this.text.startsWith('\uFEFF')) this.emit('whitespace', 1);
    while (this.pos < this.text.length) {
      this.whitespace();
      if (this.atNewline() || this.atEnd()) {
        this.newline();
        continue;
      }
      const c = this.peek();
      if (c === '#') this.comment();
      else if (c === '[') this.header();
      else this.keyValue();
      this.endOfLine();
    }
    return this.tokens;
  }

  // ——— statements ———

  private header(): void {
    const array = this.text.startsWith('[[', this.pos);
    this.emit(array ? 'array-header-open' : 'header-open', array ? 2 : 1);
    this.whitespace();
    this.dottedKey();
    this.whitespace();
    if (array) {
      if (!this.text.startsWith(']]', this.pos)) this.fail('expected ]] to close the array-of-tables header');
      this.emit('array-header-close', 2);
    } else {
      if (this.peek() !== ']') this.fail('expected ] to close the table header');
      this.emit('header-close', 1);
    }
  }

  private keyValue(): void {
    this.dottedKey();
    this.whitespace();
    if (this.peek() !== '=') this.fail('expected = after the key');
    this.emit('equals', 1);
    this.whitespace();
    this.value();
  }

  /** After a statement: optional whitespace and comment, then a newline or the end of the text. */
  private endOfLine(): void {
    this.whitespace();
    if (this.peek() === '#') this.comment();
    if (this.atEnd()) return;
    if (!this.atNewline()) this.fail('expected the end of the line');
    this.newline();
  }

  // ——— keys ———

  private dottedKey(): void {
    this.simpleKey();
    for (;;) {
      let j = this.pos;
      while (this.text[j] === ' ' || this.text[j] === '\t') j++;
      if (this.text[j] !== '.') return;
      this.whitespace();
      this.emit('dot', 1);
      this.whitespace();
      this.simpleKey();
    }
  }

  private simpleKey(): void {
    const c = this.peek();
    const start = this.pos;
    if (c === '"') {
      if (this.text.startsWith('"""', this.pos)) this.fail('a key cannot be a multi-line string');
      const end = this.basicStringEnd(this.pos + 1);
      this.tokens.push({
        kind: 'key',
        start,
        end,
        name: decodeBasic(this.text.slice(start + 1, end - 1)),
        style: 'basic',
      });
      this.pos = end;
      return;
    }
    if (c === "'") {
      if (this.text.startsWith("'''", this.pos)) this.fail('a key cannot be a multi-line string');
      const end = this.literalStringEnd(this.pos + 1);
      this.tokens.push({ kind: 'key', start, end, name: this.text.slice(start + 1, end - 1), style: 'literal' });
      this.pos = end;
      return;
    }
    let end = this.pos;
    while (end < this.text.length && BARE_KEY.test(this.text[end] ?? '')) end++;
    if (end === start) this.fail('expected a key');
    this.tokens.push({ kind: 'key', start, end, name: this.text.slice(start, end) });
    this.pos = end;
  }

  // ——— values ———

  private value(): void {
    const c = this.peek();
    if (c === '"' || c === "'") this.string();
    else if (c === '[') this.array();
    else if (c === '{') this.inlineTable();
    else this.scalar();
  }

  private string(): void {
    const start = this.pos;
    const quote = this.peek();
    const triple = this.text.startsWith(quote.repeat(3), this.pos);
    let end: number;
    let style: StringStyle;
    if (quote === '"') {
      style = triple ? 'multiline-basic' : 'basic';
      end = triple ? this.multilineEnd(this.pos + 3, '"') : this.basicStringEnd(this.pos + 1);
    } else {
      style = triple ? 'multiline-literal' : 'literal';
      end = triple ? this.multilineEnd(this.pos + 3, "'") : this.literalStringEnd(this.pos + 1);
    }
    this.tokens.push({ kind: 'string', start, end, style });
    this.pos = end;
  }

  private scalar(): void {
    const start = this.pos;
    let end = start;
    while (end < this.text.length && SCALAR_CHAR.test(this.text[end] ?? '')) end++;
    // A local date-time may separate the date and the time with a space: 1979-05-27 07:32:00.
    if (
      DATE_ONLY.test(this.text.slice(start, end)) &&
      this.text[end] === ' ' &&
      /^\d{2}:/.test(this.text.slice(end + 1, end + 4))
    ) {
      end++;
      while (end < this.text.length && SCALAR_CHAR.test(this.text[end] ?? '')) end++;
    }
    if (end === start) this.fail('expected a value');
    this.tokens.push({ kind: 'scalar', start, end });
    this.pos = end;
  }

  private array(): void {
    this.emit('array-open', 1);
    for (;;) {
      this.trivia();
      if (this.peek() === ']') break;
      this.value();
      this.trivia();
      if (this.peek() === ',') {
        this.emit('comma', 1);
        continue;
      }
      if (this.peek() !== ']') this.fail('expected , or ] in the array');
      break;
    }
    this.emit('array-close', 1);
  }

  private inlineTable(): void {
    this.emit('inline-open', 1);
    for (;;) {
      this.trivia();
      if (this.peek() === '}') break;
      this.dottedKey();
      this.whitespace();
      if (this.peek() !== '=') this.fail('expected = after the key');
      this.emit('equals', 1);
      this.whitespace();
      this.value();
      this.trivia();
      if (this.peek() === ',') {
        this.emit('comma', 1);
        continue;
      }
      if (this.peek() !== '}') this.fail('expected , or } in the inline table');
      break;
    }
    this.emit('inline-close', 1);
  }

  /** Whitespace, newlines and comments inside an array or inline table. */
  private trivia(): void {
    for (;;) {
      this.whitespace();
      if (this.peek() === '#') this.comment();
      else if (this.atNewline()) this.newline();
      else return;
    }
  }

  // ——— strings ———

  private basicStringEnd(from: number): number {
    let i = from;
    for (;;) {
      const c = this.text[i];
      if (c === undefined || c === '\n' || c === '\r') this.fail('unterminated string', i);
      if (c === '\\') i += 2;
      else if (c === '"') return i + 1;
      else i++;
    }
  }

  private literalStringEnd(from: number): number {
    let i = from;
    for (;;) {
      const c = this.text[i];
      if (c === undefined || c === '\n' || c === '\r') this.fail('unterminated string', i);
      if (c === "'") return i + 1;
      i++;
    }
  }

  /** A multi-line string closes at three quotes; up to two more directly before them belong to its content. */
  private multilineEnd(from: number, quote: string): number {
    let i = from;
    for (;;) {
      const c = this.text[i];
      if (c === undefined) this.fail('unterminated multi-line string', from - 3);
      if (quote === '"' && c === '\\') {
        i += 2;
        continue;
      }
      if (c === quote && this.text.startsWith(quote.repeat(3), i)) {
        let run = 3;
        while (this.text[i + run] === quote && run < 5) run++;
        return i + run;
      }
      i++;
    }
  }

  // ——— trivia ———

  private whitespace(): void {
    let end = this.pos;
    while (this.text[end] === ' ' || this.text[end] === '\t') end++;
    if (end > this.pos) this.emit('whitespace', end - this.pos);
  }

  private comment(): void {
    let end = this.pos;
    while (
      end < this.text.length &&
      this.text[end] !== '\n' &&
      !(this.text[end] === '\r' && this.text[end + 1] === '\n')
    )
      end++;
    this.emit('comment', end - this.pos);
  }

  private newline(): void {
    if (this.atEnd()) return;
    if (this.text[this.pos] === '\r') {
      if (this.text[this.pos + 1] !== '\n') this.fail('a carriage return must be followed by a line feed');
      this.emit('newline', 2);
    } else this.emit('newline', 1);
  }

  private atNewline(): boolean {
    return this.text[this.pos] === '\n' || this.text[this.pos] === '\r';
  }

  private atEnd(): boolean {
    return this.pos >= this.text.length;
  }

  private peek(): string {
    return this.text[this.pos] ?? '';
  }

  private emit(kind: TokenKind, length: number): void {
    this.tokens.push({ kind, start: this.pos, end: this.pos + length });
    this.pos += length;
  }

  private fail(message: string, at = this.pos): never {
    throw new TomlEditError(message, positionOf(this.text, at));
  }
}

/** The value of a basic string's body: its escapes resolved. */
export function decodeBasic(body: string): string {
  return body.replace(/\\(u[0-9A-Fa-f]{4}|U[0-9A-Fa-f]{8}|x[0-9A-Fa-f]{2}|.)/gs, (_m, e: string) => {
    switch (e[0]) {
      case 'b':
        return '\b';
      case 't':
        return '\t';
      case 'n':
        return '\n';
      case 'f':
        return '\f';
      case 'r':
        return '\r';
      case 'e':
        return '\x1b';
      case 'u':
      case 'U':
      case 'x':
        return String.fromCodePoint(parseInt(e.slice(1), 16));
      default:
        return e;
    }
  });
}
