// Raw-mode terminal input → the desk's keys. In raw mode the terminal sends bytes as typed: arrows as escape
// sequences (CSI `ESC [ A` or, in application mode, SS3 `ESC O A`), Enter as CR, Ctrl-C as 0x03 (no SIGINT is
// raised). A lone ESC in a chunk is the Escape key; an escape sequence the desk has no use for is skipped whole,
// so its tail is never read as letters.

export type DeskKey = 'up' | 'down' | 'home' | 'end' | 'page-up' | 'page-down' | 'enter' | 'back' | 'refresh' | 'quit';

const SEQUENCES: Readonly<Record<string, DeskKey>> = {
  '[A': 'up',
  OA: 'up',
  '[B': 'down',
  OB: 'down',
  '[C': 'enter',
  OC: 'enter',
  '[D': 'back',
  OD: 'back',
  '[H': 'home',
  OH: 'home',
  '[1~': 'home',
  '[7~': 'home',
  '[F': 'end',
  OF: 'end',
  '[4~': 'end',
  '[8~': 'end',
  '[5~': 'page-up',
  '[6~': 'page-down',
};

const SINGLE: Readonly<Record<string, DeskKey>> = {
  j: 'down',
  k: 'up',
  g: 'home',
  G: 'end',
  '\r': 'enter',
  '\n': 'enter',
  '\x7f': 'back',
  '\b': 'back',
  r: 'refresh',
  q: 'quit',
  '\x03': 'quit',
  '\x04': 'quit',
};

export function decodeKeys(chunk: string): DeskKey[] {
  const keys: DeskKey[] = [];
  let i = 0;
  while (i < chunk.length) {
    const ch = chunk[i] ?? '';
    if (ch !== '\x1b') {
      const key = SINGLE[ch];
      if (key !== undefined) keys.push(key);
      i++;
      continue;
    }
    const next = chunk[i + 1];
    if (next === undefined || (next !== '[' && next !== 'O')) {
      // ESC on its own (or ESC ESC): the Escape key.
      keys.push('back');
      i++;
      continue;
    }
    // CSI: parameters and intermediates (0x20–0x3f) up to a final byte (0x40–0x7e); SS3: one final byte.
    let end = i + 2;
    if (next === '[') while (end < chunk.length && /[\x20-\x3f]/.test(chunk[end] ?? '')) end++;
    const sequence = chunk.slice(i + 1, end + 1);
    const key = SEQUENCES[sequence];
    if (key !== undefined) keys.push(key);
    i = end + 1;
  }
  return keys;
}
