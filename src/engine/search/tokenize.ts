// Query and document text are cut the same way so that a query token can only ever meet document tokens
// produced by identical rules.

// Letters and digits of any script; everything else separates, so "discern_docs" is two tokens.
const TOKEN_PATTERN = /[\p{L}\p{N}]+/gu;

/** Dropped from queries because they carry no topic; documents keep them so phrases still line up. */
export const FILLER_WORDS: ReadonlySet<string> = new Set([
  'a',
  'an',
  'and',
  'the',
  'to',
  'with',
  'of',
  'in',
  'on',
  'for',
  'is',
  'are',
  'be',
  'how',
  'do',
  'i',
  'my',
  'what',
  'or',
  'at',
  'by',
  'from',
  'it',
  'this',
  'that',
]);

export interface TokenSpan {
  token: string;
  start: number;
  end: number;
}

// The tail of an English contraction or possessive ("what's", "don't", "we're"): as a token it would only
// be noise that every page shares, and as a query term it would demote every page lacking it.
const CONTRACTION_TAIL = /^\p{L}{1,2}$/u;
const APOSTROPHES = new Set(["'", '\u2019']);
const LETTER = /\p{L}/u;

function isContractionTail(text: string, start: number, token: string): boolean {
  return CONTRACTION_TAIL.test(token) && APOSTROPHES.has(text.charAt(start - 1)) && LETTER.test(text.charAt(start - 2));
}

/** Tokens with their offsets in the original text, so snippets can be cut around a hit. */
export function tokenSpans(text: string): TokenSpan[] {
  const spans: TokenSpan[] = [];
  for (const match of text.matchAll(TOKEN_PATTERN)) {
    if (isContractionTail(text, match.index, match[0])) continue;
    spans.push({ token: match[0].toLowerCase(), start: match.index, end: match.index + match[0].length });
  }
  return spans;
}

export function tokenize(text: string): string[] {
  return tokenSpans(text).map((span) => span.token);
}

/** Distinct tokens with filler words removed, unless that would leave nothing to search for. */
export function meaningfulTerms(tokens: readonly string[]): string[] {
  const distinct = [...new Set(tokens)];
  const kept = distinct.filter((token) => !FILLER_WORDS.has(token));
  return kept.length > 0 ? kept : distinct;
}

// "-es" is only a plural ending after a sibilant or "o" (classes, matches, boxes, echoes); elsewhere the
// "-s" rule already yields the singular, and stripping "-es" would turn "notes" into the unrelated "not".
const ES_PLURAL_STEM = /(?:s|x|z|ch|sh|o)$/;

/** Candidate singulars of a word longer than 4 characters; short words are too ambiguous to fold. */
export function pluralVariants(word: string): string[] {
  if (word.length <= 4) return [];
  const variants: string[] = [];
  if (word.endsWith('ies')) variants.push(`${word.slice(0, -3)}y`);
  if (word.endsWith('es') && ES_PLURAL_STEM.test(word.slice(0, -2))) variants.push(word.slice(0, -2));
  if (word.endsWith('s') && !word.endsWith('ss')) variants.push(word.slice(0, -1));
  return [...new Set(variants)];
}

/** The word itself followed by its variants: every spelling it may be matched under. */
export function termForms(word: string): string[] {
  return [word, ...pluralVariants(word)];
}

/** Two tokens are interchangeable when they share a form, e.g. "worktree" and "worktrees". */
export function sharesForm(token: string, forms: ReadonlySet<string>): boolean {
  return termForms(token).some((form) => forms.has(form));
}

const WORD_CHAR = /[\p{L}\p{N}]/u;

/** Up to `limit` token spans starting at `start`, where a token begins (the caller checked the boundary). */
export function tokenSpansFrom(text: string, start: number, limit: number): TokenSpan[] {
  const pattern = new RegExp(TOKEN_PATTERN.source, 'gu');
  pattern.lastIndex = start;
  const spans: TokenSpan[] = [];
  let match: RegExpExecArray | null;
  while (spans.length < limit && (match = pattern.exec(text)) !== null) {
    if (isContractionTail(text, match.index, match[0])) continue;
    spans.push({ token: match[0].toLowerCase(), start: match.index, end: match.index + match[0].length });
  }
  return spans;
}

/** Whether a token may start at `offset`: the character before it (if any) is not a letter or digit. */
export function atTokenStart(text: string, offset: number): boolean {
  if (offset === 0) return true;
  const before = text.codePointAt(offset - 1);
  const pair = offset >= 2 ? text.codePointAt(offset - 2) : undefined;
  // A low surrogate: the character before is the astral code point that starts at offset - 2.
  const code =
    before !== undefined && before >= 0xdc00 && before <= 0xdfff && pair !== undefined && pair > 0xffff ? pair : before;
  return code === undefined || !WORD_CHAR.test(String.fromCodePoint(code));
}

/**
 * Offsets in ascending order where a token sharing a form with `forms` may start in `lower` (the text
 * lowercased with equal offsets). Every such token begins with one of the forms, or with a form minus its
 * final "y" (policies/policy), so a substring search finds them all without tokenizing the whole text.
 */
export function candidateStarts(lower: string, forms: ReadonlySet<string>): number[] {
  const keys = new Set([...forms].map((form) => (form.endsWith('y') && form.length > 1 ? form.slice(0, -1) : form)));
  const starts = new Set<number>();
  for (const key of keys) {
    if (key.length === 0) continue;
    for (let at = lower.indexOf(key); at >= 0; at = lower.indexOf(key, at + 1))
      if (atTokenStart(lower, at)) starts.add(at);
  }
  return [...starts].sort((a, b) => a - b);
}

/** The first token of `text` sharing a form with `forms`, found without tokenizing the whole text. */
export function firstTokenSharing(text: string, lower: string, forms: ReadonlySet<string>): TokenSpan | null {
  for (const start of candidateStarts(lower, forms)) {
    const [span] = tokenSpansFrom(text, start, 1);
    if (span !== undefined && span.start === start && sharesForm(span.token, forms)) return span;
  }
  return null;
}
