// Finds where a dotted key sits in a TOML text, for messages that point at a line and column. It reads table
// headers and key lines (bare, quoted and dotted keys, inline tables); it does not validate TOML — the parser
// already did.

export interface Location {
  line: number;
  column: number;
}

export function locateKey(text: string, path: readonly string[]): Location | undefined {
  if (path.length === 0) return undefined;
  const lines = text.split(/\r?\n/);
  let table: string[] = [];
  let best: { location: Location; depth: number } | undefined;
  const consider = (keys: string[], location: Location): void => {
    const depth = sharedPrefix(keys, path);
    if (depth === 0) return;
    if (depth === keys.length || depth === path.length) {
      if (!best || depth > best.depth) best = { location, depth };
    }
  };
  lines.forEach((raw, index) => {
    const line = stripComment(raw);
    const header = /^\s*\[\[?\s*([^\]]+?)\s*\]\]?\s*$/.exec(line);
    if (header) {
      table = splitDotted(header[1] ?? '');
      consider(table, { line: index + 1, column: raw.indexOf('[') + 1 });
      return;
    }
    const assignment =
      /^(\s*)((?:"[^"]*"|'[^']*'|[A-Za-z0-9_-]+)(?:\s*\.\s*(?:"[^"]*"|'[^']*'|[A-Za-z0-9_-]+))*)\s*=/.exec(line);
    if (!assignment) return;
    const keys = [...table, ...splitDotted(assignment[2] ?? '')];
    consider(keys, { line: index + 1, column: (assignment[1]?.length ?? 0) + 1 });
    // Keys inside an inline table on the same line: `test = { run = "x", timeout = 9 }`.
    if (sharedPrefix(keys, path) === keys.length && path.length > keys.length) {
      const inner = path[keys.length] ?? '';
      const at = findInlineKey(raw, inner, (assignment[0] ?? '').length);
      if (at >= 0) consider([...keys, inner], { line: index + 1, column: at + 1 });
    }
  });
  return best?.location;
}

function findInlineKey(line: string, key: string, from: number): number {
  const pattern = new RegExp(`[{,]\\s*("${escapeRegExp(key)}"|'${escapeRegExp(key)}'|${escapeRegExp(key)})\\s*=`, 'g');
  pattern.lastIndex = from;
  const match = pattern.exec(line);
  return match ? match.index + match[0].indexOf(match[1] ?? '') : -1;
}

function splitDotted(text: string): string[] {
  const keys: string[] = [];
  const pattern = /\s*("([^"]*)"|'([^']*)'|([A-Za-z0-9_-]+))\s*(\.|$)/gy;
  let match: RegExpExecArray | null;
  while ((match = pattern.exec(text)) !== null && match[0].length > 0)
    keys.push(match[2] ?? match[3] ?? match[4] ?? '');
  return keys;
}

function stripComment(line: string): string {
  let quote: string | null = null;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (quote) {
      if (c === '\\' && quote === '"') i++;
      else if (c === quote) quote = null;
    } else if (c === '"' || c === "'") quote = c;
    else if (c === '#') return line.slice(0, i);
  }
  return line;
}

function sharedPrefix(a: readonly string[], b: readonly string[]): number {
  let n = 0;
  while (n < a.length && n < b.length && a[n] === b[n]) n++;
  return n;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
