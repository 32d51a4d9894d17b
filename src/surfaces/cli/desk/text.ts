// Text that fits a terminal cell grid: how many columns a string takes, cutting it to a width without ever
// letting the terminal wrap it, and the glyphs the desk draws with (Unicode, or ASCII where the locale is not
// UTF-8). Everything the desk shows comes from the repository (branch names, paths, job output), so control
// characters are replaced first: an escape sequence in a branch name must not reach the terminal.
import { charWidth, textWidth } from '../../../render/terminal/text.js';

export interface Glyphs {
  cursor: string;
  here: string;
  separator: string;
  ellipsis: string;
  move: string;
}

const UNICODE: Glyphs = { cursor: '›', here: '●', separator: '·', ellipsis: '…', move: '↑↓/jk' };
const ASCII: Glyphs = { cursor: '>', here: '*', separator: '-', ellipsis: '~', move: 'up/down/jk' };

/** --plain asks for ASCII; otherwise the locale decides: the first of LC_ALL, LC_CTYPE and LANG that is set. */
export function glyphsFor(env: Readonly<Record<string, string | undefined>>, plain = false): Glyphs {
  if (plain) return ASCII;
  const locale = [env['LC_ALL'], env['LC_CTYPE'], env['LANG']].find((v) => v !== undefined && v !== '') ?? '';
  return /utf-?8/i.test(locale) ? UNICODE : ASCII;
}

/** Control characters (C0, DEL, C1) become "?": nothing read from the repository can drive the terminal. */
export function clean(text: string): string {
  return text.replace(/[\u0000-\u001f\u007f-\u009f]/g, '?');
}

/** Terminal columns a string takes (one width table for every terminal view). */
export const width = textWidth;

/** At most `columns` wide; a cut string ends in the ellipsis glyph. */
export function fit(text: string, columns: number, glyphs: Glyphs): string {
  if (columns <= 0) return '';
  if (width(text) <= columns) return text;
  const room = columns - width(glyphs.ellipsis);
  if (room <= 0) return glyphs.ellipsis.slice(0, columns);
  let out = '';
  let used = 0;
  for (const ch of text) {
    const w = charWidth(ch.codePointAt(0) ?? 0);
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
