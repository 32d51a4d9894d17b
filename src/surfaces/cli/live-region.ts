// The live region on a terminal's stderr: a few lines redrawn in place (at most ten times a second, and a few
// times a second while something runs, so times and the spinner move), with durable facts printed above it as
// lines that stay. Every redraw is one write: move up over the region, erase to the end of the screen, print
// what is new above, draw the region again, ending at column 0 below it. Closing erases it and prints any
// durable line still queued (docs/decisions/0033-live-region-on-stderr.md). A terminal that shrinks reflows the
// drawn lines onto more rows, so the erase counts the rows each line takes at the current width, and a resize
// redraws at once.
import type { LiveUpdate } from '../../verbs/context.js';
import { applyUpdate, emptyModel, type LiveModel } from './live-model.js';
import { durableLine, renderRegion, type Glyphs } from './live-render.js';
import { visibleWidth } from '../../render/terminal/text.js';

/** What the region needs of a stream: our own writer's view of a tty.WriteStream. */
export interface RegionStream {
  write(chunk: string): unknown;
  columns?: number;
  rows?: number;
  /** A tty.WriteStream says 'resize' when the terminal's size changes. */
  on?(event: 'resize', listener: () => void): unknown;
  off?(event: 'resize', listener: () => void): unknown;
}

export interface RegionOptions {
  glyphs: Glyphs;
  color: boolean;
  now?: () => number;
}

export interface LiveWriter {
  progress(update: LiveUpdate): void;
  /** A line that stays, printed above the region (a streamed job line); after close, written at once. */
  line(text: string): void;
  /** Erases the region (or stops the lines) for good; later updates are ignored. */
  close(): void;
}

const REDRAW_MS = 100;
/** Streamed lines waiting for the next redraw beyond this many are drawn at once: the queue stays small. */
const MAX_QUEUED_LINES = 64;
const TICK_MS = 200;

export function liveRegion(stream: RegionStream, options: RegionOptions): LiveWriter {
  const now = options.now ?? Date.now;
  let model: LiveModel = emptyModel(now());
  /** The display width of each line of the region on screen, to know how many rows it takes now. */
  let shown: number[] = [];
  let frame = 0;
  let queued: string[] = [];
  let timer: NodeJS.Timeout | undefined;
  let lastDrawAt = -Infinity;
  let closed = false;

  const erase = (): string => {
    const rows = shownRows(shown, stream.columns || 80);
    return rows > 0 ? `\r\x1b[${rows}A\x1b[J` : '';
  };
  const hasContent = (): boolean =>
    model.rows.length > 0 || model.wait !== undefined || model.watch !== undefined || model.status !== undefined;
  const draw = (): void => {
    timer = undefined;
    if (closed) return;
    lastDrawAt = now();
    frame++;
    const lines = hasContent()
      ? renderRegion(model, {
          now: lastDrawAt,
          width: Math.max(10, stream.columns || 80),
          ...(stream.rows ? { height: stream.rows } : {}),
          glyphs: options.glyphs,
          color: options.color,
          frame,
        })
      : [];
    const above = queued.map((l) => `${l}\n`).join('');
    queued = [];
    stream.write(`${erase()}${above}${lines.map((l) => `${l}\n`).join('')}`);
    shown = lines.map(visibleWidth);
  };
  const schedule = (): void => {
    if (timer !== undefined || closed) return;
    timer = setTimeout(draw, Math.max(0, lastDrawAt + REDRAW_MS - now()));
  };
  // Times and the spinner move while nothing reports: a silent job still shows its time passing.
  const ticker = setInterval(() => {
    if (hasContent()) schedule();
  }, TICK_MS);
  ticker.unref();
  const resized = (): void => {
    if (closed || (shown.length === 0 && queued.length === 0)) return;
    if (timer !== undefined) clearTimeout(timer);
    draw();
  };
  stream.on?.('resize', resized);

  return {
    progress: (update) => {
      if (closed) return;
      const applied = applyUpdate(model, update, now());
      model = applied.model;
      for (const fact of applied.facts) {
        const line = durableLine(fact, options);
        if (line !== undefined) queued.push(line);
      }
      schedule();
    },
    line: (text) => {
      if (closed) {
        stream.write(`${text}\n`);
        return;
      }
      queued.push(text);
      if (queued.length < MAX_QUEUED_LINES) return schedule();
      if (timer !== undefined) clearTimeout(timer);
      draw();
    },
    close: () => {
      if (closed) return;
      closed = true;
      clearInterval(ticker);
      stream.off?.('resize', resized);
      if (timer !== undefined) clearTimeout(timer);
      timer = undefined;
      const above = queued.map((l) => `${l}\n`).join('');
      const out = `${erase()}${above}`;
      if (out.length > 0) stream.write(out);
      shown = [];
      queued = [];
    },
  };
}

/** Rows the drawn lines take at `columns`: a line wider than the terminal now wraps onto more than one. */
export function shownRows(widths: readonly number[], columns: number): number {
  const cols = Math.max(1, columns);
  return widths.reduce((n, w) => n + Math.max(1, Math.ceil(w / cols)), 0);
}
