// Turns raw terminal output into plain text. Tools colour their output when they think they talk to a terminal
// (FORCE_COLOR, CI detection), so every parser works on the stripped text rather than hoping colour is off.

// CSI sequences (colours, erase-line as gcc emits `ESC[K`), OSC sequences (terminal hyperlinks, titles) and
// the remaining two-byte escapes.
const ANSI = /\u001b\[[0-?]*[ -/]*[@-~]|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)|\u001b[@-Z\\-_]/g;
// C0 controls other than tab and newline: left in, binary output would make the diagnostic JSON unreadable.
const CONTROLS = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g;

export function stripAnsi(text: string): string {
  return text.includes('\u001b') ? text.replace(ANSI, '') : text;
}

/**
 * Plain lines: ANSI stripped, CRLF and CR handled, controls removed. A bare CR means the tool redrew the line
 * (progress bars), so only what followed the last CR was visible.
 */
export function plainLines(text: string): string[] {
  return stripAnsi(text)
    .split('\n')
    .map((raw) => {
      let line = raw.replace(/\r+$/, '');
      const cr = line.lastIndexOf('\r');
      if (cr !== -1) line = line.slice(cr + 1);
      return line.replace(CONTROLS, '').trimEnd();
    });
}

/** The output as the diagnostic shows it: plain lines, no leading blank lines, runs of blank lines collapsed to one. */
export function normaliseOutput(text: string): string {
  const kept: string[] = [];
  for (const line of plainLines(text)) {
    if (line === '' && (kept.length === 0 || kept[kept.length - 1] === '')) continue;
    kept.push(line);
  }
  while (kept.length > 0 && kept[kept.length - 1] === '') kept.pop();
  return kept.join('\n');
}
