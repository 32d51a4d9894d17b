// The human CLI's live view of a long verb, on stderr and only on a terminal: durable facts (the progress
// handle, failures) print as lines that stay; the latest status is one line redrawn in place, at most ten
// times a second, and erased before the result prints. Under --json or --markdown, or when stderr is not a
// terminal, nothing is drawn: the result is the whole output.
import type { LiveProgress, LiveUpdate } from '../../verbs/context.js';
import type { Format } from './argv-check.js';

const REDRAW_MS = 100;

export interface LiveView {
  progress: LiveProgress;
  /** Erases the status line; call before the result is written. */
  clear(): void;
}

export function liveView(format: Format, stream: NodeJS.WriteStream = process.stderr): LiveView | undefined {
  if (format !== 'human' || !stream.isTTY) return undefined;
  const started = Date.now();
  let shown = false;
  let pending: LiveUpdate | undefined;
  let timer: NodeJS.Timeout | undefined;
  const erase = (): void => {
    if (shown) stream.write('\r\x1b[2K');
    shown = false;
  };
  const draw = (): void => {
    timer = undefined;
    if (!pending) return;
    const u = pending;
    pending = undefined;
    const seconds = Math.round((Date.now() - started) / 1000);
    const line = `${u.message} · ${seconds} s`;
    const width = Math.max(20, (stream.columns ?? 80) - 1);
    erase();
    stream.write(line.length > width ? `${line.slice(0, width - 1)}…` : line);
    shown = true;
  };
  let current: LiveUpdate | undefined;
  // A silent job still shows its time passing: the last status is redrawn every second.
  const ticker = setInterval(() => {
    if (current && timer === undefined) {
      pending = current;
      draw();
    }
  }, 1000);
  ticker.unref();
  return {
    progress: (update) => {
      if (update.durable) {
        erase();
        stream.write(`discern: ${update.message}\n`);
      }
      pending = update;
      current = update;
      if (timer === undefined) timer = setTimeout(draw, shown ? REDRAW_MS : 0);
    },
    clear: () => {
      clearInterval(ticker);
      if (timer !== undefined) clearTimeout(timer);
      timer = undefined;
      pending = undefined;
      current = undefined;
      erase();
    },
  };
}
