// Finds where a key path sits in a JSON text (the deepest key of the path that occurs), for messages that
// point at a line and column, as locate.ts does for TOML. It scans tokens; it does not validate JSON — the
// parser already did.
import type { Location } from './locate.js';

type Frame = { kind: 'object'; key: string | undefined; expectingKey: boolean } | { kind: 'array'; index: number };

export function locateJsonKey(text: string, path: readonly string[]): Location | undefined {
  if (path.length === 0) return undefined;
  const frames: Frame[] = [];
  let best: { location: Location; depth: number } | undefined;
  let line = 1;
  let column = 1;
  for (let i = 0; i < text.length; i++) {
    const c = text[i] ?? '';
    const top = frames[frames.length - 1];
    if (c === '"') {
      const start = { line, column };
      let value = '';
      for (i++, column++; i < text.length && text[i] !== '"'; i++, column++) {
        if (text[i] === '\\') {
          i++;
          column++;
          value += text[i] === 'u' ? String.fromCharCode(parseInt(text.slice(i + 1, i + 5), 16)) : (text[i] ?? '');
          if (text[i] === 'u') {
            i += 4;
            column += 4;
          }
        } else value += text[i] ?? '';
      }
      if (top?.kind === 'object' && top.expectingKey) {
        top.key = value;
        const keys = frames.map((f) => (f.kind === 'object' ? (f.key ?? '') : String(f.index)));
        const depth = sharedPrefix(keys, path);
        if (depth === keys.length && (!best || depth > best.depth)) best = { location: start, depth };
      }
    } else if (c === '{') frames.push({ kind: 'object', key: undefined, expectingKey: true });
    else if (c === '[') frames.push({ kind: 'array', index: 0 });
    else if (c === '}' || c === ']') frames.pop();
    else if (c === ':' && top?.kind === 'object') top.expectingKey = false;
    else if (c === ',' && top?.kind === 'object') top.expectingKey = true;
    else if (c === ',' && top?.kind === 'array') top.index++;
    if (c === '\n') {
      line++;
      column = 1;
    } else column++;
  }
  return best?.location;
}

function sharedPrefix(a: readonly string[], b: readonly string[]): number {
  let n = 0;
  while (n < a.length && n < b.length && a[n] === b[n]) n++;
  return n;
}
