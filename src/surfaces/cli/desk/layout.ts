// The desk's screen as lines: a title, the body (the three sections, or the selected row's details), and a
// footer with the keys. Every line is cut to the terminal's width here, so the terminal never wraps; when the
// body is taller than the screen, the part around the selection is shown. Lines carry a tone, not escape codes:
// the terminal executor decides whether tones become colour (NO_COLOR) and the tests read plain text.
import type { DiscernQueueRow, DiscernStatusFleetRow } from '../../../../generated/types.js';
import { detailsFor, elapsed, fleetName } from './details.js';
import { items, type DeskState, type OperationRow } from './model.js';
import { clean, fit, pad, width, wrap, type Glyphs } from './text.js';

export type Tone = 'title' | 'heading' | 'selected' | 'muted' | 'bad';

export interface Line {
  text: string;
  tone?: Tone;
}

export interface ScreenSize {
  columns: number;
  rows: number;
}

export interface LayoutOptions extends ScreenSize {
  glyphs: Glyphs;
  /** ms since the epoch: elapsed times are measured to it. */
  now: number;
}

export function layout(state: DeskState, options: LayoutOptions): Line[] {
  const { columns, rows, glyphs } = options;
  if (columns <= 0 || rows <= 0) return [];
  const snapshot = state.snapshot;
  const s = ` ${glyphs.separator} `;
  const title: Line = {
    text: snapshot ? `discern desk${s}${snapshot.project}${s}${snapshot.root}` : 'discern desk',
    tone: 'title',
  };
  const keys =
    state.view.kind === 'details'
      ? `esc back${s}r refresh${s}q quit`
      : `${glyphs.move} move${s}enter details${s}r refresh${s}q quit`;
  const read = snapshot ? `${s}as of ${clock(snapshot.readAt)}` : '';
  const footer: Line[] = [
    ...(state.problem !== undefined ? [{ text: `cannot refresh: ${state.problem}`, tone: 'bad' as const }] : []),
    { text: `${keys}${read}`, tone: 'muted' },
  ];
  const body = state.view.kind === 'details' ? detailsBody(state, options) : listBody(state, options);
  const room = Math.max(0, rows - 2 - footer.length);
  let shown = body.lines;
  if (shown.length > room) {
    const at = body.selectedLine ?? 0;
    const start = Math.max(0, Math.min(shown.length - room, at - Math.floor(room / 2)));
    shown = shown.slice(start, start + room);
  }
  // The footer keeps to the bottom rows, wherever the body ends.
  const top: Line[] = [title, { text: '' }, ...shown];
  while (top.length < rows - footer.length) top.push({ text: '' });
  const lines = [...top, ...footer].slice(0, rows);
  return lines.map((line) => ({ ...line, text: fit(clean(line.text), columns, glyphs) }));
}

interface Body {
  lines: Line[];
  /** The line the selection is on, to keep in view. */
  selectedLine?: number;
}

function listBody(state: DeskState, options: LayoutOptions): Body {
  const snapshot = state.snapshot;
  if (snapshot === undefined) return { lines: [{ text: 'reading the repository', tone: 'muted' }] };
  const { glyphs, now, columns } = options;
  const list = items(snapshot);
  const selectedKey = list[state.cursor]?.key;
  const lines: Line[] = [];
  let selectedLine: number | undefined;
  const row = (key: string, text: string, tone?: Tone): void => {
    const selected = key === selectedKey;
    if (selected) selectedLine = lines.length;
    const line = `${selected ? glyphs.cursor : ' '} ${text}`;
    // The selected row is padded to the full width so its highlight reads as a bar.
    lines.push({
      text: selected ? pad(clean(line), columns, glyphs) : line,
      ...(selected ? { tone: 'selected' as const } : tone ? { tone } : {}),
    });
  };
  const more =
    snapshot.fleetTotal > snapshot.fleet.length
      ? `, ${snapshot.fleetTotal - snapshot.fleet.length} more with discern status --verbose`
      : '';
  lines.push({ text: `Fleet (${snapshot.fleet.length}${more})`, tone: 'heading' });
  const fleet = fleetColumns(snapshot.fleet, columns, glyphs);
  snapshot.fleet.forEach((r, i) => row(`fleet:${r.path}`, fleet[i] ?? '', r.broken ? 'bad' : undefined));
  if (snapshot.fleet.length === 0) lines.push({ text: '  none', tone: 'muted' });
  lines.push({ text: '' }, { text: `Landing queue (${snapshot.queue.length})`, tone: 'heading' });
  const queue = queueColumns(snapshot.queue, columns, glyphs);
  snapshot.queue.forEach((r, i) => row(`queue:${r.effort}:${r.submitted_at}`, queue[i] ?? ''));
  if (snapshot.queue.length === 0) lines.push({ text: '  empty', tone: 'muted' });
  // Records an earlier discern wrote (or copied, edited ones) are not in the queue: each says what replaces it.
  for (const u of snapshot.unhonoured ?? [])
    lines.push({ text: `  ${u.kind} ${u.effort}: ${u.message}; ${u.command}`, tone: 'bad' });
  lines.push({ text: '' }, { text: `Running operations (${snapshot.operations.length})`, tone: 'heading' });
  const operations = operationColumns(snapshot.operations, now, columns, glyphs);
  snapshot.operations.forEach((r, i) => row(`operation:${r.handle}`, operations[i] ?? ''));
  if (snapshot.operations.length === 0) lines.push({ text: '  none', tone: 'muted' });
  return selectedLine === undefined ? { lines } : { lines, selectedLine };
}

/** Columns aligned across the rows of one section, each capped so one long name cannot push the rest away. */
function table(cells: string[][], caps: number[], glyphs: Glyphs): string[] {
  const widths = caps.map((cap, c) => Math.min(cap, Math.max(0, ...cells.map((r) => width(clean(r[c] ?? ''))))));
  return cells.map((r) =>
    r.map((cell, c) => (c === r.length - 1 ? clean(cell) : pad(clean(cell), widths[c] ?? 0, glyphs))).join('  '),
  );
}

/** A name column's cap: a quarter of the screen, within [8, most], so a narrow screen still shows the rest. */
function share(columns: number, most: number): number {
  return Math.max(8, Math.min(most, Math.floor(columns / 4)));
}

function fleetColumns(rows: readonly DiscernStatusFleetRow[], columns: number, glyphs: Glyphs): string[] {
  const cells = rows.map((r) => [
    r.is_current ? glyphs.here : ' ',
    `${fleetName(r)}${r.is_main ? ' (main)' : ''}`,
    r.branch ?? 'detached',
    (r.head ?? '').slice(0, 8) || '-',
    r.broken ? 'broken' : r.clean === undefined ? '-' : r.clean ? 'clean' : `${r.changed_files ?? 0} changed`,
    r.ahead === undefined || r.ahead === null ? '-' : `+${r.ahead}/-${r.behind ?? 0}`,
    `proof ${r.gate_proof?.status ?? '-'}${r.locked ? ', locked' : ''}`,
  ]);
  return table(cells, [1, share(columns, 28), share(columns, 32), 8, 10, 9, 40], glyphs);
}

function queueColumns(rows: readonly DiscernQueueRow[], columns: number, glyphs: Glyphs): string[] {
  const cells = rows.map((r) => [
    `${r.position}.`,
    r.effort,
    r.branch,
    r.head.slice(0, 8),
    r.authority,
    r.readiness === 'ready' ? 'ready' : `waiting${r.reason ? `: ${r.reason}` : ''}`,
  ]);
  return table(cells, [4, share(columns, 28), share(columns, 32), 8, 14, 60], glyphs);
}

function operationColumns(rows: readonly OperationRow[], now: number, columns: number, glyphs: Glyphs): string[] {
  const cells = rows.map((r) => [
    r.handle,
    r.verb,
    r.branch ?? 'detached',
    elapsed(r.started_at, now),
    `${r.phase}: ${r.state}${r.executor === 'unknown' ? ' (another machine)' : ''}`,
  ]);
  return table(cells, [20, 10, share(columns, 32), 7, 60], glyphs);
}

function detailsBody(state: DeskState, options: LayoutOptions): Body {
  if (state.view.kind !== 'details' || state.snapshot === undefined) return { lines: [] };
  const details = detailsFor(state.snapshot, state.view.key, state.view.operation, options.now);
  const labelWidth = Math.max(0, ...details.fields.map(([label]) => width(label))) + 2;
  const valueWidth = Math.max(10, options.columns - 2 - labelWidth);
  const lines: Line[] = [{ text: details.title, tone: 'heading' }];
  for (const [label, value] of details.fields) {
    wrap(clean(value), valueWidth).forEach((part, i) => {
      lines.push({ text: `  ${pad(i === 0 ? label : '', labelWidth, options.glyphs)}${part}` });
    });
  }
  return { lines };
}

function clock(ms: number): string {
  const d = new Date(ms);
  return [d.getHours(), d.getMinutes(), d.getSeconds()].map((n) => String(n).padStart(2, '0')).join(':');
}
