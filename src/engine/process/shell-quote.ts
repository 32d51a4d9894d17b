// One word of a command line as a POSIX shell reads it back: as is when it needs no quoting, else single-quoted.
export function shellQuote(s: string): string {
  return /^[A-Za-z0-9_./:@-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}
