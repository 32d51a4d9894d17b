// A pipe table laid out in aligned columns that fit the width. Columns keep their natural width when the table
// fits; otherwise the widest give way first and a cell that no longer fits wraps inside its column, so the
// table fits without a word of it being cut away (a result's facts are arranged, never dropped). When even
// narrow columns do not fit (many columns on a narrow terminal), each row prints as `Header: value` lines.
import { parseInline, type Run } from './inline.js';
import type { Align } from './lexer.js';
import type { TerminalOptions } from './options.js';
import { paint, type Role } from './palette.js';
import { textWidth, visibleWidth } from './text.js';
import { wrapRuns, type Paint } from './wrap.js';

/** Narrower than this a column says too little to be worth aligning. */
const MIN_COLUMN = 8;

export function renderTable(header: string[], align: Align[], rows: string[][], width: number, options: TerminalOptions): string[] {
  const { color, palette, unicode, plain } = options;
  const style: Paint = { palette, color };
  const sep = plain ? '  ' : unicode ? ' │ ' : ' | ';
  const cross = unicode ? '─┼─' : '-+-';
  const head = header.map((h) => oneLine(parseInline(h, color, ['header'])));
  const body = rows.map((r) => r.map((c) => oneLine(parseInline(c, color))));
  const natural = head.map((h, c) => Math.max(runsWidth(h), ...body.map((r) => runsWidth(r[c] ?? [])), 1));
  const room = width - textWidth(sep) * (head.length - 1);
  if (room < MIN_COLUMN * head.length && natural.reduce((a, b) => a + b, 0) > room) return records(header, rows, width, options);
  const widths = fit(natural, room);
  const border = (text: string): string => paint(text, ['border'], palette, color);
  const row = (cellsOfRow: Run[][]): string[] => {
    const wrapped = cellsOfRow.map((runs, c) => wrapRuns(runs, widths[c] ?? 1, style, true));
    const height = Math.max(1, ...wrapped.map((w) => w.length));
    const lines: string[] = [];
    for (let n = 0; n < height; n++) {
      lines.push(wrapped.map((cell, c) => place(cell[n] ?? '', widths[c] ?? 1, align[c] ?? 'left')).join(border(sep)).trimEnd());
    }
    return lines;
  };
  const rule = plain ? widths.map((w) => '-'.repeat(w)).join(sep) : border(widths.map((w) => (unicode ? '─' : '-').repeat(w)).join(cross));
  const bodyRows = body.map(row);
  // When a row wraps, an empty row between rows shows where each one ends.
  const gap = bodyRows.some((r) => r.length > 1) ? [widths.map((w) => ' '.repeat(w)).join(border(sep)).trimEnd()] : [];
  return [...row(head), rule, ...bodyRows.flatMap((r, k) => (k > 0 ? [...gap, ...r] : r))];
}

/** A painted cell line padded to its column's width by its alignment. */
function place(text: string, width: number, align: Align): string {
  const pad = Math.max(0, width - visibleWidth(text));
  const left = align === 'right' ? pad : align === 'center' ? Math.floor(pad / 2) : 0;
  return ' '.repeat(left) + text + ' '.repeat(pad - left);
}

/**
 * Column widths that sum to at most `room`: the widest columns give way first, never below MIN_COLUMN. That is
 * one cap for every column too wide (the largest that fits), with the columns at the cap sharing what is left.
 */
function fit(natural: number[], room: number): number[] {
  const total = (cap: number): number => natural.reduce((sum, w) => sum + Math.min(w, cap), 0);
  if (total(Infinity) <= room) return [...natural];
  let low = MIN_COLUMN;
  let high = Math.max(...natural);
  while (low < high) {
    const mid = Math.ceil((low + high) / 2);
    if (total(mid) <= room) low = mid;
    else high = mid - 1;
  }
  const widths = natural.map((w) => Math.min(w, low));
  let spare = room - total(low);
  for (let c = 0; c < widths.length && spare > 0; c++) {
    if ((natural[c] ?? 0) > low) {
      widths[c] = low + 1;
      spare--;
    }
  }
  return widths;
}

/** Each row as `Header: value` lines, rows apart by a blank line: the form for too many columns. */
function records(header: string[], rows: string[][], width: number, options: TerminalOptions): string[] {
  const out: string[] = [];
  const style = { palette: options.palette, color: options.color };
  rows.forEach((row, r) => {
    if (r > 0) out.push('');
    header.forEach((h, c) => {
      const runs: Run[] = [...parseInline(h, options.color, ['header']), { text: ': ', roles: [] as Role[] }, ...parseInline(row[c] ?? '', options.color)];
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
