// Inline Markdown flattening. Code spans and backslash escapes are parked behind placeholders first so the
// markup passes that follow cannot mistake their contents (underscores, asterisks, pipes) for syntax.

// Private-use characters never occur in the manual, so they cannot collide with real text.
const HOLD_OPEN = '\uE000';
const HOLD_CLOSE = '\uE001';
const HELD = /\uE000(\d+)\uE001/g;

// A backtick run closes only on a run of exactly the same length (CommonMark).
const CODE_SPAN = /(?<!`)(`+)(?!`)([\s\S]*?[^`])\1(?!`)/g;
const ESCAPE = /\\([!-/:-@[-`{-~])/g;
const HTML_COMMENT = /<!--[\s\S]*?-->/g;
const AUTOLINK = /<((?:https?|mailto|ftp):[^<>\s]+)>/gi;
const HTML_TAG = /<\/?[A-Za-z][A-Za-z0-9-]*(?:\s[^<>]*)?\/?>/g;
// One level of nested parentheses covers URLs such as Wikipedia's "Foo_(bar)".
const IMAGE = /!\[([^[\]]*)\]\([^()]*(?:\([^()]*\)[^()]*)*\)/g;
const INLINE_LINK = /\[([^[\]]*)\]\([^()]*(?:\([^()]*\)[^()]*)*\)/g;
const REFERENCE_LINK = /\[([^[\]]*)\]\[[^[\]]*\]/g;
const STRIKETHROUGH = /~~(?=\S)([\s\S]*?\S)~~/g;
const ASTERISK_EMPHASIS = /(\*{1,3})(?=[^\s*])([\s\S]*?[^\s*])\1/g;
// Underscores only emphasise at word edges, so identifiers like discern_docs survive untouched.
const UNDERSCORE_EMPHASIS = /(^|[^\p{L}\p{N}_])(_{1,3})(?=[^\s_])([\s\S]*?[^\s_])\2(?![\p{L}\p{N}_])/gu;

export function collapseWhitespace(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/** Code span content as CommonMark renders it: newlines become spaces, one padding space is dropped. */
function normaliseCodeSpan(content: string): string {
  const flat = content.replace(/\r?\n/g, ' ');
  const padded = flat.length > 2 && flat.startsWith(' ') && flat.endsWith(' ') && flat.trim() !== '';
  return padded ? flat.slice(1, -1) : flat;
}

function stripEmphasis(text: string): string {
  let current = text;
  // Nested emphasis (bold around italic) needs a pass per level; three levels is plenty for prose.
  for (let pass = 0; pass < 3; pass += 1) {
    const next = current
      .replace(STRIKETHROUGH, '$1')
      .replace(ASTERISK_EMPHASIS, '$2')
      .replace(UNDERSCORE_EMPHASIS, '$1$3');
    if (next === current) break;
    current = next;
  }
  return current;
}

/**
 * Flattens inline Markdown to plain text, keeping link text, image alt text and code span contents.
 * Every non-empty code span is appended to `code` in reading order.
 */
export function flattenInline(text: string, code: string[]): string {
  const held: string[] = [];
  const hold = (value: string): string => `${HOLD_OPEN}${held.push(value) - 1}${HOLD_CLOSE}`;

  let out = text.replace(CODE_SPAN, (_match, _ticks: string, content: string) => {
    const span = normaliseCodeSpan(content);
    if (span.trim() !== '') code.push(span);
    return hold(span);
  });
  out = out.replace(ESCAPE, (_match, char: string) => hold(char));
  out = out.replace(HTML_COMMENT, ' ');
  out = out.replace(AUTOLINK, (_match, url: string) => hold(url));
  out = out.replace(HTML_TAG, ' ');
  out = out.replace(IMAGE, '$1');
  out = out.replace(INLINE_LINK, '$1');
  out = out.replace(REFERENCE_LINK, '$1');
  out = stripEmphasis(out);
  // Unescaped pipes only matter as table cell separators; escaped ones and those in code are held.
  out = out.replace(/\|/g, ' ');
  // A held autolink may itself contain a held escape, hence restoring until nothing is left.
  while (out.includes(HOLD_OPEN)) {
    out = out.replace(HELD, (_match, index: string) => held[Number(index)] ?? '');
  }
  return collapseWhitespace(out);
}
