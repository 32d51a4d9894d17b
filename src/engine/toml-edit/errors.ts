// The one error the TOML editor throws: the text cannot be read as TOML, or the edit cannot be applied to it
// (a path through an array of tables, a value where a table is needed, a result that would not parse). It
// carries the 1-based line and column of the problem when there is one.

export class TomlEditError extends Error {
  override readonly name = 'TomlEditError';
  readonly line: number | undefined;
  readonly column: number | undefined;

  constructor(message: string, at?: { line: number; column: number }) {
    super(at ? `${message} (line ${at.line}, column ${at.column})` : message);
    this.line = at?.line;
    this.column = at?.column;
  }

  /** The reason alone, without the location suffix. */
  get reason(): string {
    return this.line === undefined ? this.message : this.message.replace(/ \(line \d+, column \d+\)$/, '');
  }
}

/** 1-based line and column of a UTF-16 offset into `text`. */
export function positionOf(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < offset && i < text.length; i++) {
    if (text.charCodeAt(i) === 10) {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, column: offset - lineStart + 1 };
}
