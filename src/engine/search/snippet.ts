// Snippets quote the text around a hit. The window is lopsided towards what follows, because the words
// after a match usually explain it, and it is cut back to whole words so nothing is quoted mid-word.
import { collapseWhitespace } from './markdown-inline.js';

export const SNIPPET_BEFORE = 72;
export const SNIPPET_AFTER = 112;
const ELLIPSIS = '…';

const isSpace = (char: string | undefined): boolean => char !== undefined && /\s/.test(char);

/** Quotes `text` around the span [start, end); an empty span at 0 quotes the opening of the text. */
export function snippetAround(text: string, start: number, end: number): string {
  const hitStart = Math.max(0, Math.min(start, text.length));
  const hitEnd = Math.max(hitStart, Math.min(end, text.length));
  let from = Math.max(0, hitStart - SNIPPET_BEFORE);
  let to = Math.min(text.length, hitEnd + SNIPPET_AFTER);

  // Mid-word cut at the front: skip to the next word, but never past the hit itself.
  if (from > 0 && !isSpace(text[from - 1])) {
    let next = from;
    while (next < hitStart && !isSpace(text[next])) next += 1;
    from = next;
  }
  // Mid-word cut at the back: retreat to the previous word end, but never into the hit.
  if (to < text.length && !isSpace(text[to])) {
    let previous = to;
    while (previous > hitEnd && !isSpace(text[previous - 1])) previous -= 1;
    to = previous;
  }

  const quoted = collapseWhitespace(text.slice(from, to));
  if (quoted === '') return '';
  const head = from > 0 && collapseWhitespace(text.slice(0, from)) !== '' ? ELLIPSIS : '';
  const tail = to < text.length && collapseWhitespace(text.slice(to)) !== '' ? ELLIPSIS : '';
  return `${head}${quoted}${tail}`;
}

/** The opening of a text, for results that matched on metadata rather than on a quotable passage. */
export function leadingSnippet(text: string): string {
  return snippetAround(text, 0, 0);
}

/** Text of the last heading starting at or before `offset`; undefined before the first heading. */
export function headingAt(
  headings: readonly { text: string }[],
  offsets: readonly number[],
  offset: number,
): string | undefined {
  let found: string | undefined;
  offsets.forEach((headingOffset, index) => {
    if (headingOffset >= 0 && headingOffset <= offset) found = headings[index]?.text;
  });
  return found;
}
