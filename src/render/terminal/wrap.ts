// Fills styled runs into lines of at most `width` columns, breaking at spaces. A word longer than a whole line
// (a path, a URL) stands alone on its line uncut, so it can still be copied whole; only a table cell, which must
// keep its column, cuts it. Styles are applied per piece after wrapping, so a wrapped line never carries a style across its end.
import { BREAK, type Run } from './inline.js';
import { paint, type Palette } from './palette.js';
import { charWidth, textWidth } from './text.js';

export interface Paint {
  palette: Palette;
  color: boolean;
}

type Word = Run[];

/** The lines, painted; a paragraph that is empty gives no lines. */
export function wrapRuns(runs: readonly Run[], width: number, style: Paint, cutLongWords = false): string[] {
  const single = oneLine(runs, width);
  if (single) return single.length === 0 ? [] : [paintRuns(single, style)];
  const lines: Word[][] = [];
  let line: Word[] = [];
  let used = 0;
  const room = Math.max(1, width);
  const endLine = (): void => {
    lines.push(line);
    line = [];
    used = 0;
  };
  for (const item of words(runs, room)) {
    if (item === BREAK) {
      endLine();
      continue;
    }
    for (const word of cutLongWords ? cut(item, room) : [item]) {
      const w = wordWidth(word);
      if (line.length > 0 && used + 1 + w > room) endLine();
      used += (line.length > 0 ? 1 : 0) + w;
      line.push(word);
    }
  }
  if (line.length > 0) lines.push(line);
  return lines.map((l) => paintLine(l, style));
}

/**
 * The common case, text that fits on one line: its runs with whitespace collapsed as wrapping would, or
 * undefined when it needs wrapping (or holds a forced break).
 */
function oneLine(runs: readonly Run[], width: number): Run[] | undefined {
  const out: Run[] = [];
  let used = 0;
  let space = true;
  for (const run of runs) {
    if (run.text.includes(BREAK)) return undefined;
    let text = run.text.replace(/[ \t]+/g, ' ');
    if (space && text.startsWith(' ')) text = text.slice(1);
    if (text === '') continue;
    used += textWidth(text);
    if (used > width + (text.endsWith(' ') ? 1 : 0)) return undefined;
    space = text.endsWith(' ');
    out.push({ text, roles: run.roles });
  }
  const last = out[out.length - 1];
  if (last && space) {
    last.text = last.text.slice(0, -1);
    if (last.text === '') out.pop();
  }
  return out;
}

function paintRuns(runs: readonly Run[], style: Paint): string {
  const merged: Run[] = [];
  for (const piece of runs) {
    const last = merged[merged.length - 1];
    if (last && sameRoles(last.roles, piece.roles)) last.text += piece.text;
    else merged.push({ text: piece.text, roles: piece.roles });
  }
  return merged.map((r) => paint(r.text, r.roles, style.palette, style.color)).join('');
}

/**
 * One line's words painted, neighbours with the same style in one sequence (a space between two words of a
 * heading takes the heading's style), so a styled phrase is one escape sequence, not one per word.
 */
function paintLine(line: Word[], style: Paint): string {
  const pieces: Run[] = [];
  line.forEach((word, k) => {
    if (k > 0) {
      const before = pieces[pieces.length - 1]?.roles ?? [];
      const after = word[0]?.roles ?? [];
      pieces.push({ text: ' ', roles: sameRoles(before, after) ? before : [] });
    }
    pieces.push(...word);
  });
  return paintRuns(pieces, style);
}

function sameRoles(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((r, i) => r === b[i]);
}

/**
 * The runs as words: runs split at whitespace, and pieces of differently styled text with no space between
 * stay one word. A code span that fits on a line is one word (a command is not broken at its spaces).
 */
function words(runs: readonly Run[], width: number): (Word | typeof BREAK)[] {
  const out: (Word | typeof BREAK)[] = [];
  let current: Word = [];
  const end = (): void => {
    if (current.length > 0) out.push(current);
    current = [];
  };
  for (const run of runs) {
    const whole = run.roles.includes('code') && !run.text.includes(BREAK) && textWidth(run.text) <= width;
    const parts = whole ? [run.text] : run.text.split(/([ \t]+|\n)/);
    parts.forEach((part, index) => {
      if (index % 2 === 1) {
        end();
        if (part === BREAK) out.push(BREAK);
        return;
      }
      if (part !== '') current.push({ text: part, roles: run.roles });
    });
  }
  end();
  return out;
}

function wordWidth(word: Word): number {
  return word.reduce((sum, r) => sum + textWidth(r.text), 0);
}

/** A word wider than the line, cut into line-wide pieces (a long URL or path). */
function cut(word: Word, width: number): Word[] {
  if (wordWidth(word) <= width) return [word];
  const pieces: Word[] = [];
  let piece: Word = [];
  let used = 0;
  for (const run of word) {
    let text = '';
    for (const ch of run.text) {
      const w = charWidth(ch.codePointAt(0) ?? 0);
      if (used + w > width && used > 0) {
        if (text !== '') piece.push({ text, roles: run.roles });
        pieces.push(piece);
        piece = [];
        text = '';
        used = 0;
      }
      text += ch;
      used += w;
    }
    if (text !== '') piece.push({ text, roles: run.roles });
  }
  if (piece.length > 0) pieces.push(piece);
  return pieces;
}
