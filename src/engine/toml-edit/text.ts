// Splicing helpers over raw text: replace a span, insert whole lines, remove whole lines, and the blank-line
// facts around a position that decide whether a separating blank line is needed.

export function splice(text: string, start: number, end: number, insert: string): string {
  return text.slice(0, start) + insert + text.slice(end);
}

/** Whether the line before `pos` (a line start) is blank; true at the start of the text. */
export function blankBefore(text: string, pos: number): boolean {
  if (pos === 0) return true;
  return /(^|\n)[ \t]*\r?\n$/.test(text.slice(Math.max(0, pos - 4096), pos));
}

/** Whether the line starting at `pos` is blank, or `pos` is the end of the text. */
export function blankAt(text: string, pos: number): boolean {
  return /^[ \t]*(\r?\n|$)/.test(text.slice(pos, pos + 4096));
}

/**
 * Inserts `lines` as whole lines at `pos`, a line start or the end of the text. A text that ends without a
 * newline keeps doing so: the new lines go after a line break of their own.
 */
export function insertLines(text: string, pos: number, lines: readonly string[], eol: string): string {
  if (pos === text.length && text.length > 0 && !text.endsWith('\n')) return text + eol + lines.join(eol);
  return splice(text, pos, pos, lines.map((l) => l + eol).join(''));
}

/**
 * Removes the whole lines [start, end). When that leaves two blank lines together (one above, one below), the
 * blank line above goes too; at the start of the text, a blank line that would now lead it goes.
 */
export function removeLines(text: string, start: number, end: number): string {
  if (start === 0) {
    const blank = /^[ \t]*\r?\n/.exec(text.slice(end));
    return text.slice(end + (blank && end < text.length ? blank[0].length : 0));
  }
  let from = start;
  if (blankBefore(text, start) && blankAt(text, end)) {
    const before = text.slice(0, start - 1);
    from = before.lastIndexOf('\n') + 1;
  }
  return splice(text, from, end, '');
}
