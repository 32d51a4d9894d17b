// Inline Markdown → styled runs: `code`, **strong**, *emphasis*, [text](url), <autolinks>, backslash escapes and
// hard line breaks — the inline forms authored presentations use. Without colour, code keeps its backticks
// (they still mark a literal) and emphasis loses its markers; a link reads `text (url)` unless the text is the url.
import type { Role } from './palette.js';

export interface Run {
  text: string;
  roles: Role[];
}

/** A forced line break inside a paragraph (two trailing spaces or a trailing backslash). */
export const BREAK = '\n';

const PUNCTUATION = /[!-/:-@[-`{-~]/;
/** The characters that may start an inline form; text between them is copied in one piece. */
const SPECIAL = /[\\`*_[!<\n]/g;

export function parseInline(source: string, color: boolean, roles: Role[] = []): Run[] {
  const runs: Run[] = [];
  let plain = '';
  const flush = (): void => {
    if (plain !== '') runs.push({ text: plain, roles });
    plain = '';
  };
  const push = (more: Run[]): void => {
    flush();
    runs.push(...more);
  };
  let i = 0;
  while (i < source.length) {
    const ch = source[i] ?? '';
    const next = source[i + 1] ?? '';
    if (ch === '\\' && next === '\n') {
      plain += BREAK;
      i += 2;
      continue;
    }
    if (ch === '\\' && PUNCTUATION.test(next)) {
      plain += next;
      i += 2;
      continue;
    }
    if (ch === '`') {
      const span = codeSpan(source, i);
      if (span) {
        push([{ text: color ? span.content : span.raw, roles: [...roles, 'code'] }]);
        i = span.end;
        continue;
      }
      // An unmatched run of backticks is literal text.
      const run = /^`+/.exec(source.slice(i))?.[0] ?? '`';
      plain += run;
      i += run.length;
      continue;
    }
    if ((ch === '*' || ch === '_') && next === ch) {
      const close = closing(source, i, ch + ch);
      if (close !== -1) {
        push(parseInline(source.slice(i + 2, close), color, [...roles, 'bold']));
        i = close + 2;
        continue;
      }
    }
    if (ch === '*' || ch === '_') {
      const close = closing(source, i, ch);
      if (close !== -1) {
        push(parseInline(source.slice(i + 1, close), color, [...roles, 'em']));
        i = close + 1;
        continue;
      }
    }
    if (ch === '[' || (ch === '!' && next === '[')) {
      const link = linkAt(source, ch === '!' ? i + 1 : i);
      if (link) {
        const text = parseInline(link.text, color, [...roles, 'link']);
        const shown = text.map((r) => r.text).join('');
        push(text);
        if (link.url !== '' && shown !== link.url) runs.push({ text: ` (${link.url})`, roles: [...roles, 'url'] });
        i = link.end;
        continue;
      }
    }
    if (ch === '<') {
      const auto = /^<((?:https?|mailto|file):[^\s<>]*)>/.exec(source.slice(i));
      if (auto?.[1] !== undefined) {
        push([{ text: auto[1], roles: [...roles, 'url'] }]);
        i += auto[0].length;
        continue;
      }
    }
    if (ch === '\n') {
      // Two trailing spaces make a hard break; otherwise a line break inside a paragraph is a space.
      const hard = plain.endsWith('  ');
      plain = plain.replace(/ +$/, '') + (hard ? BREAK : ' ');
      i += 1;
      continue;
    }
    SPECIAL.lastIndex = i + 1;
    const found = SPECIAL.exec(source);
    const stop = found ? found.index : source.length;
    plain += source.slice(i, stop);
    i = stop;
  }
  flush();
  return runs;
}

/** A code span opening at `start`: the same number of backticks closes it; one padding space each side goes. */
function codeSpan(source: string, start: number): { content: string; raw: string; end: number } | undefined {
  const ticks = /^`+/.exec(source.slice(start))?.[0] ?? '`';
  let at = start + ticks.length;
  while (at < source.length) {
    const found = source.indexOf(ticks, at);
    if (found === -1) return undefined;
    const after = found + ticks.length;
    if (source[after] === '`' || source[found - 1] === '`') {
      at = /^`+/.exec(source.slice(found))?.[0].length ?? 1;
      at += found;
      continue;
    }
    let content = source.slice(start + ticks.length, found).replace(/\n/g, ' ');
    if (content.length >= 2 && content.startsWith(' ') && content.endsWith(' ') && content.trim() !== '') content = content.slice(1, -1);
    return { content, raw: source.slice(start, after).replace(/\n/g, ' '), end: after };
  }
  return undefined;
}

/**
 * Where the emphasis opened at `start` by `marker` closes, or -1. The opener must be followed by a non-space
 * and the closer preceded by one; `_` does not open or close inside a word (snake_case stays as it is).
 */
function closing(source: string, start: number, marker: string): number {
  const inner = start + marker.length;
  const first = source[inner];
  if (first === undefined || /\s/.test(first)) return -1;
  if (marker[0] === '_' && /[\p{L}\p{N}]/u.test(source[start - 1] ?? '')) return -1;
  let at = inner + 1;
  while (at < source.length) {
    const ch = source[at];
    if (ch === '\\') {
      at += 2;
      continue;
    }
    if (ch === '`') {
      const span = codeSpan(source, at);
      if (span) {
        at = span.end;
        continue;
      }
    }
    if (source.startsWith(marker, at) && !/\s/.test(source[at - 1] ?? ' ')) {
      const after = source[at + marker.length] ?? '';
      // A single marker next to another of its kind is part of a stronger one, not this one's end.
      if (marker.length === 1 && after === marker) {
        at += 2;
        continue;
      }
      if (marker[0] === '_' && /[\p{L}\p{N}]/u.test(after)) {
        at += 1;
        continue;
      }
      return at;
    }
    at += 1;
  }
  return -1;
}

/** `[text](url)` or `[text](url "title")` at `start` (the bracket), with balanced brackets and parentheses. */
function linkAt(source: string, start: number): { text: string; url: string; end: number } | undefined {
  let depth = 0;
  let i = start;
  for (; i < source.length; i++) {
    const ch = source[i];
    if (ch === '\\') {
      i++;
      continue;
    }
    if (ch === '`') {
      const span = codeSpan(source, i);
      if (span) i = span.end - 1;
      continue;
    }
    if (ch === '[') depth++;
    if (ch === ']' && --depth === 0) break;
  }
  if (i >= source.length || source[i + 1] !== '(') return undefined;
  const text = source.slice(start + 1, i);
  let parens = 0;
  let j = i + 2;
  for (; j < source.length; j++) {
    const ch = source[j];
    if (ch === '\\') {
      j++;
      continue;
    }
    if (ch === '(') parens++;
    if (ch === ')' && parens-- === 0) break;
    if (ch === '\n') return undefined;
  }
  if (j >= source.length) return undefined;
  const target = source.slice(i + 2, j).trim();
  const url = (/^<([^>]*)>/.exec(target)?.[1] ?? target.split(/\s+/)[0] ?? '').replace(/\\([!-/:-@[-`{-~])/g, '$1');
  return { text, url, end: j + 1 };
}
