// A pipe table laid out in aligned columns that fit the width. Columns keep their natural width when the table
// fits; otherwise each column keeps at least its longest word and the room left is shared in proportion to
// what each still wants, and a cell wraps inside its column — the table fits and nothing is cut away (a
// result's facts are arranged, never dropped). When even the longest words do not fit side by side (many or
// wide columns on a narrow terminal), each row prints as `Header: value` lines instead.
import { parseInline, type Run } from './inline.js';
import type { Align } from './lexer.js';
import type { TerminalOptions } from './options.js';
import { paint, type Role } from './palette.js';
import { textWidth, visibleWidth } from './text.js';
import { wrapRuns, type Paint } from './wrap.js';

/** A longer word (a path, a URL) does not claim its whole width: it continues on the next line of its cell. */
const LONGEST_KEPT_WORD = 30;

export function renderTable(
  header: string[],
  align: Align[],
  rows: string[][],
  width: number,
  options: TerminalOptions,
): string[] {
  const { color, palette, unicode, plain } = options;
  const style: Paint = { palette, color };
  const sep = plain ? '  ' : unicode ? ' │ ' : ' | ';
  const cross = unicode ? '─┼─' : '-+-';
  const head = header.map((h) => oneLine(parseInline(h, color, ['header'])));
  const body = rows.map((r) => r.map((c) => oneLine(parseInline(c, color))));
  const natural = head.map((h, c) => Math.max(runsWidth(h), ...body.map((r) => runsWidth(r[c] ?? [])), 1));
  const room = width - textWidth(sep) * (head.length - 1);
  const longest = head.map((h, c) => Math.max(longestWord(h), ...body.map((r) => longestWord(r[c] ?? []))));
  const widths = share(natural, longest, room);
  if (!widths) return records(header, rows, width, options);
  const border = (text: string): string => paint(text, ['border'], palette, color);
  const row = (cellsOfRow: Run[][]): string[] => {
    const wrapped = cellsOfRow.map((runs, c) => wrapRuns(runs, widths[c] ?? 1, style, true));
    const height = Math.max(1, ...wrapped.map((w) => w.length));
    const lines: string[] = [];
    for (let n = 0; n < height; n++) {
      lines.push(
        wrapped
          .map((cell, c) => place(cell[n] ?? '', widths[c] ?? 1, align[c] ?? 'left'))
          .join(border(sep))
          .trimEnd(),
      );
    }
    return lines;
  };
  const rule = plain
    ? widths.map((w) => '-'.repeat(w)).join(sep)
    : border(widths.map((w) => (unicode ? '─' : '-').repeat(w)).join(cross));
  const bodyRows = body.map(row);
  // When a row wraps, an empty row between rows shows where each one ends.
  const gap = bodyRows.some((r) => r.length > 1)
    ? [
        widths
          .map((w) => ' '.repeat(w))
          .join(border(sep))
          .trimEnd(),
      ]
    : [];
  return [...row(head), rule, ...bodyRows.flatMap((r, k) => (k > 0 ? [...gap, ...r] : r))];
}

/** A painted cell line padded to its column's width by its alignment. */
function place(text: string, width: number, align: Align): string {
  const pad = Math.max(0, width - visibleWidth(text));
  const left = align === 'right' ? pad : align === 'center' ? Math.floor(pad / 2) : 0;
  return ' '.repeat(left) + text + ' '.repeat(pad - left);
}

/**
 * Column widths when every column can keep its longest word: that much each, and the rest of the room shared in
 * proportion to how much wider each column would like to be. Undefined when the longest words alone overflow.
 */
function share(natural: number[], longest: number[], room: number): number[] | undefined {
  if (natural.reduce((a, b) => a + b, 0) <= room) return [...natural];
  const min = natural.map((w, c) => Math.min(w, Math.max(1, Math.min(longest[c] ?? 1, LONGEST_KEPT_WORD))));
  const spare = room - min.reduce((a, b) => a + b, 0);
  if (spare < 0) return undefined;
  const want = natural.map((w, c) => w - (min[c] ?? 0));
  const wanted = want.reduce((a, b) => a + b, 0);
  const exact = want.map((w) => (spare * w) / wanted);
  const widths = min.map((m, c) => m + Math.floor(exact[c] ?? 0));
  // What flooring left over goes, a column each, to those that lost the largest fractions.
  let left = room - widths.reduce((a, b) => a + b, 0);
  const order = exact.map((e, c) => [e - Math.floor(e), c] as const).sort((a, b) => b[0] - a[0]);
  for (const [, c] of order) {
    if (left <= 0) break;
    if ((widths[c] ?? 0) < (natural[c] ?? 0)) {
      widths[c] = (widths[c] ?? 0) + 1;
      left--;
    }
  }
  return widths;
}

/** The widest piece the wrapper will not break: a word, or a code span that fits (a command stays whole). */
function longestWord(runs: readonly Run[]): number {
  let longest = 0;
  let current = 0;
  for (const run of runs) {
    const whole = run.roles.includes('code') && textWidth(run.text) <= LONGEST_KEPT_WORD;
    const parts = whole ? [run.text] : run.text.split(' ');
    parts.forEach((part, k) => {
      if (k > 0) current = 0;
      current += textWidth(part);
      longest = Math.max(longest, current);
    });
  }
  return longest;
}

/** Each row as `Header: value` lines, rows apart by a blank line: the form for too many columns. */
function records(header: string[], rows: string[][], width: number, options: TerminalOptions): string[] {
  const out: string[] = [];
  const style = { palette: options.palette, color: options.color };
  rows.forEach((row, r) => {
    if (r > 0) out.push('');
    header.forEach((h, c) => {
      const runs: Run[] = [
        ...parseInline(h, options.color, ['header']),
        { text: ': ', roles: [] as Role[] },
        ...parseInline(row[c] ?? '', options.color),
      ];
      wrapRuns(runs, width - 2, style).forEach((l, i) => out.push(i === 0 ? l : `  ${l}`));
    });
  });
  return out;
}

/** A cell's runs on one line: whitespace (and a hard break) collapsed to single spaces, none at the ends. */
function oneLine(runs: Run[]): Run[] {
  const out = runs.map((r) => ({ text: r.text.replace(/\s+/g, ' '), roles: r.roles })).filter((r) => r.text !== '');
  const first = out[0];
  if (first) first.text = first.text.trimStart();
  const last = out[out.length - 1];
  if (last) last.text = last.text.trimEnd();
  return out.filter((r) => r.text !== '');
}

function runsWidth(runs: readonly Run[]): number {
  return runs.reduce((sum, r) => sum + textWidth(r.text), 0);
}
