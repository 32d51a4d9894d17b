// Reads the front matter of a Markdown page: the small YAML subset pages use — `key: value` scalars (plain,
// single- or double-quoted; numbers and true/false typed), block scalars (`|`, `>-`…), inline lists `[a, b]`,
// and block lists of `- item`. Anything else is reported as a problem rather than guessed at. Run-time code
// never loads a YAML library.
import { blockHeader, readBlock } from './block-scalar.js';

export type FrontMatterValue = string | number | boolean | string[];

export type FrontMatterRead =
  { ok: true; data: Record<string, FrontMatterValue> } | { ok: false; line: number; reason: string };

const KEY_LINE = /^([A-Za-z_][A-Za-z0-9_-]*):(?:[ \t]+(.*))?$/;
// YAML lets a list's items sit at the key's own indentation (`aliases:` then `- a`) or deeper.
const ITEM_LINE = /^[ \t]*-[ \t]+(.*)$/;

export function readFrontMatter(text: string): FrontMatterRead {
  const data: Record<string, FrontMatterValue> = {};
  let list: string[] | null = null;
  const lines = text.split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? '';
    if (line.trim() === '' || line.trimStart().startsWith('#')) continue;
    const item = ITEM_LINE.exec(line);
    if (item) {
      if (list === null) return { ok: false, line: i + 1, reason: 'a list item outside a list' };
      const raw = stripComment((item[1] ?? '').trim());
      if (/^[[{]/.test(raw))
        return { ok: false, line: i + 1, reason: 'list items must be text, not a nested list or mapping' };
      // As in an inline list, an item reads as text: `- 2024` is the alias "2024".
      list.push(String(scalar(raw)));
      continue;
    }
    const key = KEY_LINE.exec(line);
    if (!key) return { ok: false, line: i + 1, reason: `not a "key: value" line` };
    const name = key[1] ?? '';
    if (name in data) return { ok: false, line: i + 1, reason: `"${name}" appears twice` };
    const raw = (key[2] ?? '').trim();
    if (raw === '') {
      list = [];
      data[name] = list;
      continue;
    }
    list = null;
    const block = blockHeader(stripComment(raw));
    if (block) {
      const read = readBlock(block, lines, i + 1);
      data[name] = read.value;
      i = read.next - 1;
      continue;
    }
    const value = stripComment(raw);
    if (value.startsWith('{'))
      return {
        ok: false,
        line: i + 1,
        reason: 'a {…} mapping is not read here; front matter keys hold text, numbers, true/false or lists',
      };
    if (value.startsWith('[')) {
      if (!value.endsWith(']')) return { ok: false, line: i + 1, reason: 'an inline list must end with ]' };
      const inner = value.slice(1, -1).trim();
      data[name] = inner === '' ? [] : splitInline(inner).map((part) => String(scalar(part)));
      continue;
    }
    data[name] = scalar(raw);
  }
  return { ok: true, data };
}

function scalar(raw: string): string | number | boolean {
  const text = stripComment(raw.trim());
  if (text.startsWith('"') && text.endsWith('"') && text.length >= 2) {
    return text
      .slice(1, -1)
      .replace(/\\(["\\/bfnrt])/g, (_m, c: string) => ({ b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' })[c] ?? c);
  }
  if (text.startsWith("'") && text.endsWith("'") && text.length >= 2) return text.slice(1, -1).replace(/''/g, "'");
  if (text === 'true') return true;
  if (text === 'false') return false;
  if (/^-?\d+$/.test(text)) return Number(text);
  return text;
}

/** A plain scalar's comment starts at " #". */
function stripComment(text: string): string {
  if (text.startsWith('"') || text.startsWith("'")) return text;
  const at = text.indexOf(' #');
  return at === -1 ? text : text.slice(0, at).trimEnd();
}

function splitInline(inner: string): string[] {
  const parts: string[] = [];
  let current = '';
  let quote: string | null = null;
  for (const char of inner) {
    if (quote) {
      current += char;
      if (char === quote) quote = null;
    } else if (char === '"' || char === "'") {
      quote = char;
      current += char;
    } else if (char === ',') {
      parts.push(current.trim());
      current = '';
    } else current += char;
  }
  if (current.trim() !== '') parts.push(current.trim());
  return parts;
}
