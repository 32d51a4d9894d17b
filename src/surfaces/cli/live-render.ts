// Draws the live model as text, pure: the region's lines (one row per producer, a wait, a watch, the overall
// count and time) cut to the terminal's width so a row never wraps, and the durable lines printed above it.
// Markers are Unicode on a UTF-8 locale and ASCII otherwise; colour only when allowed (NO_COLOR, TERM=dumb).
// Text from the project's jobs (labels, failure names and messages, files, details) is shown with its control
// characters as caret notation before it is measured or printed: a job's escape sequence never reaches stderr.
import type { LiveCounts, LiveProducerState } from '../../engine/live/live-events.js';
import type { LiveFact, LiveModel, RowModel } from './live-model.js';
import { charWidth, textWidth, visibleControls } from '../../render/terminal/text.js';

export interface Glyphs {
  pending: string;
  spinner: readonly string[];
  ok: string;
  failed: string;
  cancelled: string;
  skipped: string;
  wait: string;
  sep: string;
  dash: string;
  ellipsis: string;
}

export const UNICODE_GLYPHS: Glyphs = {
  pending: '·',
  spinner: ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'],
  ok: '✓',
  failed: '✗',
  cancelled: '■',
  skipped: '-',
  wait: '…',
  sep: ' · ',
  dash: '—',
  ellipsis: '…',
};
export const ASCII_GLYPHS: Glyphs = {
  pending: '.',
  spinner: ['|', '/', '-', '\\'],
  ok: '+',
  failed: 'x',
  cancelled: '!',
  skipped: '-',
  wait: '~',
  sep: ' - ',
  dash: '-',
  ellipsis: '~',
};

export interface RenderOptions {
  now: number;
  /** Columns available; lines are cut to one less, so the cursor never wraps at the last column. */
  width: number;
  /** Rows of the terminal, when known: the region never grows past it. */
  height?: number;
  glyphs: Glyphs;
  color: boolean;
  /** The spinner's frame: advances with each redraw. */
  frame: number;
}

type Style = 'green' | 'red' | 'yellow' | 'cyan' | 'dim' | 'bold';
type Segment = readonly [text: string, style?: Style];

const SGR: Record<Style, string> = { green: '32', red: '31', yellow: '33', cyan: '36', dim: '2', bold: '1' };

/** Most rows the region shows before it folds the rest into one summary row. */
const MAX_ROWS = 15;
const STATE_WIDTH = 9;
const ELAPSED_WIDTH = 6;

export function renderRegion(model: LiveModel, o: RenderOptions): string[] {
  const lines: Segment[][] = [];
  const extra: Segment[][] = [];
  if (model.wait)
    extra.push([
      [o.glyphs.wait, 'yellow'],
      [
        ` waiting for a test slot: ${model.wait.inUse} of ${model.wait.capacity} in use${o.glyphs.sep}${formatElapsed(o.now - model.wait.since)}`,
      ],
    ]);
  if (model.watch)
    extra.push([
      [spinner(o), 'cyan'],
      [` waiting for ${model.watch.what}${o.glyphs.sep}${formatElapsed(o.now - model.watch.since)}`],
    ]);
  const anyRunning = model.rows.some((r) => r.state === 'running');
  if (model.status !== undefined && !anyRunning && !model.wait && !model.watch)
    extra.push([[spinner(o), 'cyan'], [` ${model.status}`]]);
  const summary = model.rows.length > 0 ? summaryLine(model, o) : undefined;
  const room = Math.max(1, Math.min(MAX_ROWS, (o.height ?? Infinity) - 1 - extra.length - (summary ? 1 : 0)));
  const labelWidth = Math.min(
    Math.max(0, ...model.rows.map((r) => displayWidth(oneLine(r.label)))),
    Math.max(8, Math.floor(o.width / 3)),
  );
  const { shown, hidden } = chooseRows(model.rows, room);
  for (const row of shown) lines.push(rowLine(row, labelWidth, o));
  if (hidden.length > 0) lines.push([[`  ${o.glyphs.ellipsis} ${hidden.length} more: ${tally(hidden)}`, 'dim']]);
  lines.push(...extra);
  if (summary) lines.push(summary);
  return lines.map((segments) => paint(fit(segments, o.width - 1, o.glyphs.ellipsis), o.color));
}

/** A fact's line above the region, or undefined when the region itself shows it well enough. */
export function durableLine(fact: LiveFact, o: Pick<RenderOptions, 'glyphs' | 'color'>): string | undefined {
  switch (fact.kind) {
    case 'note':
      return fact.durable ? `discern: ${visibleControls(fact.text)}` : undefined;
    case 'failure':
      return paint(
        [
          [o.glyphs.failed, 'red'],
          [` ${fact.label}: ${fact.name}`, 'bold'],
          [` ${o.glyphs.dash} ${firstLine(fact.message, o.glyphs.ellipsis)}${where(fact)}`],
        ],
        o.color,
      );
    case 'ended':
      return fact.state === 'failed'
        ? paint(
            [
              [o.glyphs.failed, 'red'],
              [` ${fact.label} failed`, 'bold'],
              [
                `${fact.durationMs !== undefined ? ` after ${formatElapsed(fact.durationMs)}` : ''}${inParens(countParts(fact.counts, false))}`,
              ],
            ],
            o.color,
          )
        : undefined;
    default:
      return undefined;
  }
}

/** A fact as one plain line, for stderr that is not a terminal; undefined for facts not worth a line. */
export function plainLine(fact: LiveFact): string | undefined {
  const line = plainText(fact);
  return line === undefined ? undefined : visibleControls(line);
}

function plainText(fact: LiveFact): string | undefined {
  switch (fact.kind) {
    case 'note':
      return fact.durable ? `discern: ${fact.text}` : undefined;
    case 'started':
      return `discern: ${fact.label} started`;
    case 'ended': {
      if (fact.state === 'skipped') return `discern: ${fact.label} skipped`;
      const time = fact.durationMs !== undefined ? ` in ${formatElapsed(fact.durationMs)}` : '';
      const detail = fact.detail !== undefined ? ` (${fact.detail})` : '';
      const overall = fact.total !== undefined ? ` · ${fact.completed}/${fact.total} finished` : '';
      return `discern: ${fact.label} ${fact.state}${time}${detail}${inParens(countParts(fact.counts, false))}${overall}`;
    }
    case 'failure':
      return `discern: ${fact.label}: ${fact.name} failed — ${firstLine(fact.message)}${where(fact)}`;
    case 'wait-start':
      return `discern: waiting for a test slot: ${fact.inUse} of ${fact.capacity} in use across the repository's worktrees`;
    case 'wait-end':
      return `discern: test slot taken after ${formatElapsed(fact.waitedMs)}`;
    case 'watch':
      return `discern: ${fact.text}`;
  }
}

/** 0.4s, 12s, 3m05s, 1h02m: short enough for a column, precise where it matters. */
export function formatElapsed(ms: number): string {
  const s = Math.max(0, ms) / 1000;
  if (s < 10) return `${s.toFixed(1)}s`;
  if (s < 60) return `${Math.floor(s)}s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m}m${String(Math.floor(s % 60)).padStart(2, '0')}s`;
  return `${Math.floor(m / 60)}h${String(m % 60).padStart(2, '0')}m`;
}

/** Terminal columns a string takes (one width table for every terminal view). */
export const displayWidth = textWidth;

function spinner(o: RenderOptions): string {
  return o.glyphs.spinner[o.frame % o.glyphs.spinner.length] ?? '*';
}

const MARK_STYLE: Record<LiveProducerState, Style> = {
  pending: 'dim',
  running: 'cyan',
  ok: 'green',
  failed: 'red',
  cancelled: 'yellow',
  skipped: 'dim',
};

function rowLine(row: RowModel, labelWidth: number, o: RenderOptions): Segment[] {
  const marker = row.state === 'running' ? spinner(o) : o.glyphs[row.state];
  const elapsed =
    row.state === 'running' && row.startedAt !== undefined
      ? formatElapsed(o.now - row.startedAt)
      : row.durationMs !== undefined && row.state !== 'skipped'
        ? formatElapsed(row.durationMs)
        : '';
  const label = fit([[oneLine(row.label)]], labelWidth, o.glyphs.ellipsis)[0]?.[0] ?? row.label;
  const counts = [
    ...countParts(row.counts, row.state === 'running'),
    ...(row.detail !== undefined ? [row.detail] : []),
  ].join(o.glyphs.sep);
  const quiet = row.state === 'pending' || row.state === 'skipped';
  return [
    [marker, MARK_STYLE[row.state]],
    [' '],
    quiet ? [pad(label, labelWidth), 'dim'] : [pad(label, labelWidth)],
    ['  '],
    [row.state.padEnd(STATE_WIDTH), MARK_STYLE[row.state]],
    [elapsed.padStart(ELAPSED_WIDTH)],
    [counts ? `  ${counts}` : ''],
  ];
}

/** "tests 3/10", "3 passed, 0 failed"; output lines only while nothing else shows a running job is alive. */
function countParts(counts: LiveCounts | undefined, running: boolean): string[] {
  if (!counts) return [];
  const parts: string[] = [];
  if (counts.units)
    parts.push(
      `${counts.units.kind} ${counts.units.completed}${counts.units.total !== undefined ? `/${counts.units.total}` : ''}`,
    );
  if (counts.results && Object.keys(counts.results).length > 0)
    parts.push(
      Object.entries(counts.results)
        .map(([k, v]) => `${v} ${k}`)
        .join(', '),
    );
  if (parts.length === 0 && running && counts.outputLines !== undefined && counts.outputLines > 0)
    parts.push(`${counts.outputLines} line${counts.outputLines === 1 ? '' : 's'} of output`);
  return parts;
}

function inParens(parts: readonly string[]): string {
  return parts.length > 0 ? ` (${parts.join(', ')})` : '';
}

function summaryLine(model: LiveModel, o: RenderOptions): Segment[] {
  const failed = model.rows.filter((r) => r.state === 'failed').length;
  const skipped = model.rows.filter((r) => r.state === 'skipped').length;
  const total = model.total ?? model.rows.length;
  const parts = [`${model.completed}/${total} finished`];
  if (failed > 0) parts.push(`${failed} failed`);
  if (skipped > 0) parts.push(`${skipped} skipped`);
  return [
    [parts.join(o.glyphs.sep), failed > 0 ? 'red' : 'bold'],
    [`${o.glyphs.sep}${formatElapsed(o.now - model.startedAt)}`, 'dim'],
  ];
}

/** Which rows fit: running and failed first, then pending, then the finished; shown in plan order. */
function chooseRows(rows: readonly RowModel[], room: number): { shown: RowModel[]; hidden: RowModel[] } {
  if (rows.length <= room) return { shown: [...rows], hidden: [] };
  const rank: Record<LiveProducerState, number> = {
    running: 0,
    failed: 1,
    cancelled: 2,
    pending: 3,
    ok: 4,
    skipped: 5,
  };
  const keep = Math.max(0, room - 1);
  const order = rows
    .map((row, index) => ({ row, index }))
    .sort((a, b) => rank[a.row.state] - rank[b.row.state] || a.index - b.index);
  const kept = new Set(order.slice(0, keep).map((x) => x.index));
  return { shown: rows.filter((_, i) => kept.has(i)), hidden: rows.filter((_, i) => !kept.has(i)) };
}

function tally(rows: readonly RowModel[]): string {
  const counts = new Map<string, number>();
  for (const r of rows) counts.set(r.state, (counts.get(r.state) ?? 0) + 1);
  return [...counts].map(([state, n]) => `${n} ${state}`).join(', ');
}

function pad(text: string, width: number): string {
  return text + ' '.repeat(Math.max(0, width - displayWidth(text)));
}

/** Text for one row: control characters as caret notation, tabs and line breaks as spaces. */
function oneLine(text: string): string {
  return visibleControls(text.replace(/[\t\n]/g, ' '));
}

/** Cuts segments to `width` columns, ending with the ellipsis when something was cut; measures what is shown. */
function fit(raw: readonly Segment[], width: number, ellipsis: string): Segment[] {
  const segments = raw.map(([text, style]): Segment =>
    style === undefined ? [oneLine(text)] : [oneLine(text), style],
  );
  const total = segments.reduce((n, [t]) => n + displayWidth(t), 0);
  if (total <= width) return [...segments];
  const budget = Math.max(0, width - displayWidth(ellipsis));
  const out: Segment[] = [];
  let used = 0;
  for (const [text, style] of segments) {
    let kept = '';
    for (const ch of text) {
      const w = charWidth(ch.codePointAt(0) ?? 0);
      if (used + w > budget) break;
      kept += ch;
      used += w;
    }
    if (kept.length > 0) out.push(style === undefined ? [kept] : [kept, style]);
    if (kept.length < text.length) break;
  }
  out.push([ellipsis]);
  return out;
}

/** The only escape sequences the view writes are its own SGR; every text between them is shown, not obeyed. */
function paint(segments: readonly Segment[], color: boolean): string {
  return segments
    .map(([raw, style]) => {
      const text = oneLine(raw);
      return color && style !== undefined && text.length > 0 ? `\x1b[${SGR[style]}m${text}\x1b[0m` : text;
    })
    .join('');
}

/** A failure's first line: a multi-line message would push the region off the screen. */
function firstLine(text: string, more = '…'): string {
  const lines = text.split(/\r?\n/).filter((l) => l.trim().length > 0);
  return (lines[0] ?? '').trim() + (lines.length > 1 ? ` ${more}` : '');
}

function where(f: { file?: string; line?: number }): string {
  return f.file !== undefined ? ` (${f.file}${f.line !== undefined ? `:${f.line}` : ''})` : '';
}
