// What the terminal renderer may draw, decided once from the presentation flags, the environment and stdout:
// the width, whether colour is allowed, whether Unicode box and bullet characters are, and the palette.
// The rules (docs/decisions/0032): colour needs stdout to be a terminal — a redirected run never carries a
// control sequence, whatever FORCE_COLOR says — and is off under --plain, --no-color, FORCE_COLOR=0/false,
// a non-empty NO_COLOR (https://no-color.org) or TERM=dumb.
import { paletteFor, type Palette } from './palette.js';

export type Theme = 'auto' | 'light' | 'dark';

/** The presentation flags (--no-color, --plain, --theme), as the CLI grammar checked them. */
export interface Presentation {
  noColor: boolean;
  plain: boolean;
  theme: Theme;
}

export const DEFAULT_PRESENTATION: Presentation = { noColor: false, plain: false, theme: 'auto' };

/** The terminal the output goes to; tests pass their own. */
export interface TerminalTarget {
  env: Readonly<Record<string, string | undefined>>;
  isTTY: boolean;
  columns?: number | undefined;
}

export interface TerminalOptions {
  width: number;
  color: boolean;
  /** Box-drawing, bullet and arrow characters; off means ASCII only. */
  unicode: boolean;
  /** No colour and no decoration: headings without rules, tables without borders. */
  plain: boolean;
  /** The human view: tighter spacing and the next action as one highlighted line. */
  compact: boolean;
  palette: Palette;
}

/** Below this width paragraphs and tables stop being readable; a narrower terminal wraps what we print. */
export const MIN_WIDTH = 40;
const DEFAULT_WIDTH = 80;

export function terminalOptions(presentation: Presentation, target: TerminalTarget, compact: boolean): TerminalOptions {
  const { env } = target;
  const plain = presentation.plain;
  return {
    width: widthOf(target),
    color: colorAllowed(presentation, target),
    unicode: !plain && localeIsUtf8(env),
    plain,
    compact,
    palette: paletteFor(presentation.theme === 'auto' ? themeFromEnv(env) : presentation.theme),
  };
}

function widthOf(target: TerminalTarget): number {
  const fromTty = target.isTTY && target.columns !== undefined && target.columns > 0 ? target.columns : undefined;
  const fromEnv = /^\d+$/.test(target.env['COLUMNS'] ?? '') ? Number(target.env['COLUMNS']) : undefined;
  const width = fromTty ?? (fromEnv !== undefined && fromEnv > 0 ? fromEnv : DEFAULT_WIDTH);
  return Math.max(MIN_WIDTH, width);
}

function colorAllowed(presentation: Presentation, target: TerminalTarget): boolean {
  if (presentation.plain || presentation.noColor) return false;
  // Redirected output is read by programs and files: FORCE_COLOR cannot put escape sequences into it.
  if (!target.isTTY) return false;
  const { env } = target;
  const force = env['FORCE_COLOR'];
  if (force === '0' || force === 'false') return false;
  if ((env['NO_COLOR'] ?? '') !== '') return false;
  return env['TERM'] !== 'dumb';
}

/** The locale that governs character classification, in POSIX precedence: LC_ALL, then LC_CTYPE, then LANG. */
function localeIsUtf8(env: TerminalTarget['env']): boolean {
  const locale = [env['LC_ALL'], env['LC_CTYPE'], env['LANG']].find((v) => v !== undefined && v !== '') ?? '';
  return /utf-?8/i.test(locale);
}

/**
 * COLORFGBG ("15;0", "0;default;15") names the terminal's foreground and background colours; its last field is
 * the background. Backgrounds 7 and 9–15 are light; everything else, and no variable at all, reads as dark.
 */
function themeFromEnv(env: TerminalTarget['env']): 'light' | 'dark' {
  const fields = (env['COLORFGBG'] ?? '').split(';');
  const bg = Number(fields[fields.length - 1]);
  return Number.isInteger(bg) && (bg === 7 || (bg >= 9 && bg <= 15)) ? 'light' : 'dark';
}
