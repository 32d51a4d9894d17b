// Text that fits a terminal cell grid: how many columns a string takes, cutting it to a width without ever
// letting the terminal wrap it, and the glyphs the desk draws with (Unicode, or ASCII where the locale is not
// UTF-8). Everything the desk shows comes from the repository (branch names, paths, job output), so control
// characters are replaced first: an escape sequence in a branch name must not reach the terminal.

export interface Glyphs {
  cursor: string;
  here: string;
  separator: string;
  ellipsis: string;
  move: string;
}

const UNICODE: Glyphs = { cursor: '›', here: '●', separator: '·', ellipsis: '…', move: '↑↓/jk' };
const ASCII: Glyphs = { cursor: '>', here: '*', separator: '-', ellipsis: '~', move: 'up/down/jk' };

/** The locale decides: the first of LC_ALL, LC_CTYPE and LANG that is set names the character set. */
export function glyphsFor(env: Readonly<Record<string, string | undefined>>): Glyphs {
  const locale = [env['LC_ALL'], env['LC_CTYPE'], env['LANG']].find((v) => v !== undefined && v !== '') ?? '';
  return /utf-?8/i.test(locale) ? UNICODE : ASCII;
}

/** Control characters (C0, DEL, C1) become "?": nothing read from the repository can drive the terminal. */
export function clean(text: string): string {
  return text.replace(/[\u0000-\u001f\u007f-\u009f]/g, '?');
}

/** Columns one code point takes: 0 for combining marks and zero-width characters, 2 for wide ones. */
function cellWidth(code: number): number {
  if ((code >= 0x0300 && code <= 0x036f) || (code >= 0x200b && code <= 0x200f) || (code >= 0xfe00 && code <= 0xfe0f)) return 0;
  if (
    (code >= 0x1100 && code <= 0x115f) ||
    (code >= 0x2e80 && code <= 0xa4cf) ||
    (code >= 0xac00 && code <= 0xd7a3) ||
    (code >= 0xf900 && code <= 0xfaff) ||
    (code >= 0xfe30 && code <= 0xfe4f) ||
    (code >= 0xff00 && code <= 0xff60) ||
    (code >= 0xffe0 && code <= 0xffe6) ||
    (code >= 0x1f300 && code <= 0x1faff) ||
    (code >= 0x20000 && code <= 0x3fffd)
  ) {
    return 2;
  }
  return 1;
}

export function width(text: string): number {
  let total = 0;
  for (const ch of text) total += cellWidth(ch.codePointAt(0) ?? 0);
  return total;
}

/** At most `columns` wide; a cut string ends in the ellipsis glyph. */
export function fit(text: string, columns: number, glyphs: Glyphs): string {
  if (columns <= 0) return '';
  if (width(text) <= columns) return text;
  const room = columns - width(glyphs.ellipsis);
  if (room <= 0) return glyphs.ellipsis.slice(0, columns);
  let out = '';
  let used = 0;
  for (const ch of text) {
    const w = cellWidth(ch.codePointAt(0) ?? 0);
    if (used + w > room) break;
    out += ch;
    used += w;
  }
  return out + glyphs.ellipsis;
}

/** Exactly `columns` wide: cut, or padded with spaces on the right. */
export function pad(text: string, columns: number, glyphs: Glyphs): string {
  const cut = fit(text, columns, glyphs);
  return cut + ' '.repeat(Math.max(0, columns - width(cut)));
}

/**
 * Splits a long value into lines of at most `columns`, at spaces where it can; a word longer than a line is cut
 * hard. The desk wraps detail values itself, so the terminal never has to.
 */
export function wrap(text: string, columns: number): string[] {
  if (columns <= 0) return [];
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/ +/)) {
    let rest = word;
    while (width(rest) > columns) {
      if (line !== '') {
        lines.push(line);
        line = '';
      }
      let head = '';
      for (const ch of rest) {
        if (width(head + ch) > columns) break;
        head += ch;
      }
      lines.push(head);
      rest = rest.slice(head.length);
    }
    if (rest === '') continue;
    if (line === '') line = rest;
    else if (width(line) + 1 + width(rest) <= columns) line += ` ${rest}`;
    else {
      lines.push(line);
      line = rest;
    }
  }
  if (line !== '' || lines.length === 0) lines.push(line);
  return lines;
}
