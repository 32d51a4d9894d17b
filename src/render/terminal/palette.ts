// The two palettes, as SGR parameter lists per role. Only the 16 basic colours: the terminal's own theme maps
// them, so they stay legible where a fixed 256-colour choice might not.
export type Role =
  'h1' | 'h2' | 'h3' | 'bold' | 'em' | 'code' | 'link' | 'url' | 'quote' | 'border' | 'header' | 'next';

export type Palette = Readonly<Record<Role, readonly number[]>>;

const BOLD = 1;
const DIM = 2;
const ITALIC = 3;
const UNDERLINE = 4;

/** For a dark background: bright accents. */
const DARK: Palette = {
  h1: [BOLD, 96],
  h2: [BOLD, 36],
  h3: [BOLD],
  bold: [BOLD],
  em: [ITALIC],
  code: [33],
  link: [UNDERLINE],
  url: [DIM],
  quote: [36],
  border: [90],
  header: [BOLD],
  next: [BOLD, 92],
};

/** For a light background: darker accents, no bright yellow or cyan (they vanish on white). */
const LIGHT: Palette = {
  h1: [BOLD, 34],
  h2: [BOLD, 34],
  h3: [BOLD],
  bold: [BOLD],
  em: [ITALIC],
  code: [35],
  link: [UNDERLINE],
  url: [90],
  quote: [34],
  border: [90],
  header: [BOLD],
  next: [BOLD, 32],
};

export function paletteFor(theme: 'light' | 'dark'): Palette {
  return theme === 'light' ? LIGHT : DARK;
}

/**
 * Wraps `text` in the roles' attributes. Each styled piece opens everything it needs and resets at its end, so
 * no line ever leaves a style open for the next one (or for the shell prompt).
 */
export function paint(text: string, roles: readonly Role[], palette: Palette, color: boolean): string {
  if (!color || roles.length === 0 || text === '') return text;
  const open = opening(roles, palette);
  return open === '' ? text : `${open}${text}\x1b[0m`;
}

/** The SGR sequence that opens a set of roles, computed once per palette and combination. */
const OPENINGS = new WeakMap<Palette, Map<string, string>>();

function opening(roles: readonly Role[], palette: Palette): string {
  let cache = OPENINGS.get(palette);
  if (!cache) OPENINGS.set(palette, (cache = new Map()));
  const key = roles.join(',');
  let open = cache.get(key);
  if (open === undefined) {
    const codes = [...new Set(roles.flatMap((r) => palette[r]))];
    open = codes.length === 0 ? '' : `\x1b[${codes.join(';')}m`;
    cache.set(key, open);
  }
  return open;
}
