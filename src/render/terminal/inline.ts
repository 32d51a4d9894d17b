// Inline Markdown → styled runs: `code`, **strong**, *emphasis*, [text](url), <autolinks>, backslash escapes and
// hard line breaks — the inline forms authored presentations use. Without colour, code keeps its backticks
// (they still mark a literal) and emphasis loses its markers; a link reads `text (url)` unless the text is the url.
import { Delimiters } from './delimiters.js';
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
/** `<scheme:…>`, matched where it stands (sticky) rather than on a copy of the rest of the text. */
const AUTOLINK = /<((?:https?|mailto|file):[^\s<>]*)>/y;

/**
 * Emphasis and links nest by parsing their content again; deeper than this their markers stay literal text,
 * so a pathological `[[[[…` neither exhausts the stack nor rescans the text thousands of times.
 */
const MAX_NESTING = 16;

export function parseInline(source: string, color: boolean, roles: Role[] = [], depth = 0): Run[] {
  const nests = depth < MAX_NESTING;
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
  // Per source string: what the searches for closers learned, so no failed search is repeated.
  const d = new Delimiters(source);
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
      const span = d.codeSpan(i);
      if (span) {
        push([{ text: color ? span.content : span.raw, roles: [...roles, 'code'] }]);
        i = span.end;
        continue;
      }
      // An unmatched run of backticks is literal text.
      const end = d.runEnd(i);
      plain += source.slice(i, end);
      i = end;
      continue;
    }
    if (nests && (ch === '*' || ch === '_') && next === ch) {
      const close = d.closing(i, ch + ch);
      if (close !== -1) {
        push(parseInline(source.slice(i + 2, close), color, [...roles, 'bold'], depth + 1));
        i = close + 2;
        continue;
      }
    }
    if (nests && (ch === '*' || ch === '_')) {
      const close = d.closing(i, ch);
      if (close !== -1) {
        push(parseInline(source.slice(i + 1, close), color, [...roles, 'em'], depth + 1));
        i = close + 1;
        continue;
      }
    }
    if (nests && (ch === '[' || (ch === '!' && next === '['))) {
      const link = linkAt(d, ch === '!' ? i + 1 : i);
      if (link) {
        const text = parseInline(link.text, color, [...roles, 'link'], depth + 1);
        const shown = text.map((r) => r.text).join('');
        push(text);
        if (link.url !== '' && shown !== link.url) runs.push({ text: ` (${link.url})`, roles: [...roles, 'url'] });
        i = link.end;
        continue;
      }
    }
    if (ch === '<') {
      AUTOLINK.lastIndex = i;
      const auto = AUTOLINK.exec(source);
      if (auto?.[1] !== undefined) {
        push([{ text: auto[1], roles: [...roles, 'url'] }]);
        i += auto[0].length;
        continue;
      }
    }
    if (ch === '\n') {
      // Two trailing spaces make a hard break; otherwise a line break inside a paragraph is a space.
      const hard = plain.endsWith('  ');
      plain = trimEndSpaces(plain) + (hard ? BREAK : ' ');
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

/** `[text](url)` or `[text](url "title")` at `start` (the bracket), with balanced brackets and parentheses. */
function linkAt(d: Delimiters, start: number): { text: string; url: string; end: number } | undefined {
  const { source } = d;
  const close = d.closingBracket(start);
  if (close === -1 || source[close + 1] !== '(') return undefined;
  const end = d.closingParen(close + 2);
  if (end === -1) return undefined;
  const target = source.slice(close + 2, end).trim();
  const url = (/^<([^>]*)>/.exec(target)?.[1] ?? target.split(/\s+/)[0] ?? '').replace(/\\([!-/:-@[-`{-~])/g, '$1');
  return { text: source.slice(start + 1, close), url, end: end + 1 };
}

/** `plain` without its trailing spaces, walking back from the end rather than matching the whole string. */
function trimEndSpaces(plain: string): string {
  let end = plain.length;
  while (end > 0 && plain[end - 1] === ' ') end--;
  return plain.slice(0, end);
}
