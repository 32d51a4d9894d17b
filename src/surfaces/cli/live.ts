// The human CLI's live view of a long verb (done, test, standards, accept, await), always on stderr, never on
// stdout. On a terminal: a small region redrawn in place, one row per producer, with durable facts above it
// (live-region.ts). When stderr is not a terminal, or TERM=dumb: plain lines, one per fact worth keeping
// (live-lines.ts). Under --json, --markdown or --render nothing is printed while the verb runs: the result is
// the whole output (docs/decisions/0033-live-region-on-stderr.md).
import type { LiveProgress } from '../../verbs/context.js';
import type { Format } from './argv-check.js';
import { liveLines } from './live-lines.js';
import { liveRegion, type RegionStream } from './live-region.js';
import { ASCII_GLYPHS, UNICODE_GLYPHS } from './live-render.js';
import { utf8Locale } from './locale.js';

export { utf8Locale } from './locale.js';

export interface LiveView {
  progress: LiveProgress;
  /** A line that stays ([gate] stream's job lines): above the region on a terminal, else written as it comes. */
  line(text: string): void;
  /** Erases the region (or ends the lines); call before the result is written, or when a signal ends the run. */
  clear(): void;
}

export interface LiveViewOptions {
  stream?: RegionStream & { isTTY?: boolean };
  env?: Readonly<Record<string, string | undefined>>;
  /** An explicit choice (a --no-color or --plain flag) wins over NO_COLOR and TERM. */
  color?: boolean;
  /** --plain: ASCII markers whatever the locale. */
  ascii?: boolean;
  now?: () => number;
}

export function liveView(format: Format, options: LiveViewOptions = {}): LiveView | undefined {
  if (format !== 'human') return undefined;
  const stream = options.stream ?? process.stderr;
  const env = options.env ?? process.env;
  const now = options.now !== undefined ? { now: options.now } : {};
  const terminal = stream.isTTY === true && env['TERM'] !== 'dumb';
  const writer = terminal
    ? liveRegion(stream, {
        glyphs: utf8Locale(env) && options.ascii !== true ? UNICODE_GLYPHS : ASCII_GLYPHS,
        color: options.color ?? colorAllowed(env),
        ...now,
      })
    : liveLines(stream, now);
  return { progress: writer.progress, line: writer.line, clear: writer.close };
}

/** no-color.org: a NO_COLOR that is set and not empty turns colour off; so does a dumb terminal. */
export function colorAllowed(env: Readonly<Record<string, string | undefined>>): boolean {
  return (env['NO_COLOR'] ?? '') === '' && env['TERM'] !== 'dumb';
}
