// Which character set the terminal's locale promises: box-drawing glyphs only where it is UTF-8.

/** The locale that decides the character set: the first of LC_ALL, LC_CTYPE, LANG that is set. */
export function utf8Locale(env: Readonly<Record<string, string | undefined>>): boolean {
  const locale = [env['LC_ALL'], env['LC_CTYPE'], env['LANG']].find((v) => v !== undefined && v !== '') ?? '';
  return /utf-?8/i.test(locale);
}
