// Character-level helpers shared by every terminal view (the renderer, the live view, the desk): how many terminal
// columns text takes, and making control
// characters visible so that nothing in a result's content (a file name, a job's output) can drive the terminal.

/** Columns a code point takes: 0 for combining marks and zero-width characters, 2 for wide East Asian and emoji. */
export function charWidth(cp: number): number {
  if (cp < 0x20 || (cp >= 0x7f && cp < 0xa0)) return 0;
  if (
    (cp >= 0x300 && cp <= 0x36f) ||
    (cp >= 0x200b && cp <= 0x200f) ||
    (cp >= 0x20d0 && cp <= 0x20ff) ||
    (cp >= 0xfe00 && cp <= 0xfe0f)
  )
    return 0;
  if (
    (cp >= 0x1100 && cp <= 0x115f) ||
    (cp >= 0x2e80 && cp <= 0xa4cf && cp !== 0x303f) ||
    (cp >= 0xac00 && cp <= 0xd7a3) ||
    (cp >= 0xf900 && cp <= 0xfaff) ||
    (cp >= 0xfe30 && cp <= 0xfe4f) ||
    (cp >= 0xff00 && cp <= 0xff60) ||
    (cp >= 0xffe0 && cp <= 0xffe6) ||
    (cp >= 0x1f300 && cp <= 0x1faff) ||
    (cp >= 0x20000 && cp <= 0x3fffd)
  ) {
    return 2;
  }
  return 1;
}

const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;

export function textWidth(text: string): number {
  // Most text is printable ASCII, one column a character: skip the per-character walk.
  if (PRINTABLE_ASCII.test(text)) return text.length;
  let width = 0;
  for (const ch of text) width += charWidth(ch.codePointAt(0) ?? 0);
  return width;
}

/**
 * Control characters other than tab and newline shown in caret notation (ESC as `^[`, CR as `^M`, DEL as `^?`)
 * and C1 controls as `?`: the renderer's own styling is then the only control sequence in its output.
 */
export function visibleControls(text: string): string {
  return text.replace(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g, (c) => {
    const code = c.charCodeAt(0);
    if (code === 0x7f) return '^?';
    if (code < 0x20) return `^${String.fromCharCode(code + 0x40)}`;
    return '?';
  });
}

/** The renderer's own SGR sequences removed: what the reader sees. */
export function stripSgr(text: string): string {
  return text.replace(/\x1b\[[0-9;]*m/g, '');
}

/** Columns painted text takes on screen. */
export function visibleWidth(text: string): number {
  return textWidth(stripSgr(text));
}
