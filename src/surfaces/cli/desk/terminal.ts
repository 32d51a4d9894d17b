// The desk's terminal: the alternate screen, a hidden cursor and raw-mode input while it is open, and the
// terminal given back exactly as it was on every way out — quitting, an error, a signal, an uncaught exception,
// process.exit from anywhere. Restoring is synchronous and idempotent, so each exit path can call it: writes to
// a terminal are synchronous in Node on Linux and macOS, so even an 'exit' listener's write reaches it.
import type { Presentation } from '../../../render/terminal/options.js';
import type { Line, ScreenSize, Tone } from './layout.js';

const ENTER = '\x1b[?1049h\x1b[?25l\x1b[H\x1b[2J';
const LEAVE = '\x1b[0m\x1b[?25h\x1b[?1049l';
const RESET = '\x1b[0m';

const TONES: Readonly<Record<Tone, string>> = {
  title: '\x1b[1m',
  heading: '\x1b[1m',
  selected: '\x1b[7m',
  muted: '\x1b[2m',
  bad: '\x1b[31m',
};

export interface Terminal {
  size(): ScreenSize;
  draw(lines: readonly Line[]): void;
  restore(): void;
}

/** NO_COLOR (any non-empty value, no-color.org) turns every tone off; the selection still shows by its cursor. */
export function colorAllowed(env: Readonly<Record<string, string | undefined>>): boolean {
  return (env['NO_COLOR'] ?? '') === '' && env['TERM'] !== 'dumb';
}

/**
 * Tones become colour unless --no-color or --plain says no, and then as the environment allows. The tones are
 * attributes (bold, reverse, dim) and the basic red, legible on a light and a dark background alike, so --theme
 * has nothing to change here.
 */
export function deskColor(presentation: Presentation, env: Readonly<Record<string, string | undefined>>): boolean {
  return !(presentation.noColor || presentation.plain) && colorAllowed(env);
}

/** One drawn line: its text, wrapped in its tone's attributes only when colour is on. */
export function paintLine(line: Line, color: boolean): string {
  const tone = color && line.tone !== undefined ? TONES[line.tone] : '';
  return `${tone}${line.text}${tone ? RESET : ''}`;
}

export function openTerminal(input: NodeJS.ReadStream, output: NodeJS.WriteStream, color: boolean): Terminal {
  let open = true;
  const write = (text: string): void => {
    try {
      output.write(text);
    } catch {
      // The terminal is gone (hung up): nothing left to draw on or restore.
    }
  };
  const restore = (): void => {
    if (!open) return;
    open = false;
    process.removeListener('exit', restore);
    write(LEAVE);
    try {
      if (input.isTTY) input.setRawMode(false);
    } catch {
      // As above: a terminal that went away has no mode to restore.
    }
    input.pause();
  };
  // Before anything is drawn, so that no way out leaves the screen switched or the terminal raw.
  process.on('exit', restore);
  process.prependOnceListener('uncaughtException', restore);
  process.prependOnceListener('unhandledRejection', restore);
  if (input.isTTY) input.setRawMode(true);
  write(ENTER);
  return {
    size: () => ({ columns: output.columns ?? 80, rows: output.rows ?? 24 }),
    draw: (lines) => {
      if (!open) return;
      const rows = output.rows ?? 24;
      // Each row is cleared and written at its own position: nothing relies on the terminal's line wrapping,
      // and a line as wide as the screen never leaves the cursor waiting to wrap onto the next row.
      let frame = '';
      lines.forEach((line, i) => {
        frame += `\x1b[${i + 1};1H\x1b[2K${paintLine(line, color)}`;
      });
      if (lines.length < rows) frame += `\x1b[${lines.length + 1};1H\x1b[J`;
      write(frame);
    },
    restore,
  };
}
