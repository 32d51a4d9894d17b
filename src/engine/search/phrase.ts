// Whole-query phrase matching. Technical queries match literally on lowercased text, because their
// punctuation is the point ("--search", "discern_docs"); other queries match as a token sequence with the
// same plural folding as single terms, so "progress handle" still finds "Progress handles".
import { FIELD_NAMES, FIELD_WEIGHTS, type FieldName } from './fields.js';
import type { PreparedDocument } from './prepared-index.js';
import type { ParsedQuery } from './query.js';
import { candidateStarts, sharesForm, termForms, tokenSpansFrom } from './tokenize.js';

export interface TextSpan {
  start: number;
  end: number;
}

/** Forms of each phrase token, computed once per query rather than once per document token. */
export type PhraseForms = readonly ReadonlySet<string>[];

export function phraseForms(query: ParsedQuery): PhraseForms {
  return query.phraseTokens.map((token) => new Set(termForms(token)));
}

/** First occurrence of the phrase in `text`; `lower` is the same text lowercased with equal offsets. */
export function findPhrase(text: string, lower: string, query: ParsedQuery, forms: PhraseForms): TextSpan | null {
  if (query.technical) {
    const start = lower.indexOf(query.phrase);
    return start < 0 || query.phrase === '' ? null : { start, end: start + query.phrase.length };
  }
  const [first] = forms;
  if (first === undefined) return null;
  // Only offsets where the first phrase token can start are tried; each is checked token by token.
  for (const start of candidateStarts(lower, first)) {
    const spans = tokenSpansFrom(text, start, forms.length);
    if (spans.length < forms.length || spans[0]?.start !== start) continue;
    if (forms.every((wanted, offset) => sharesForm(spans[offset]?.token ?? '', wanted))) {
      return { start, end: spans[forms.length - 1]?.end ?? start };
    }
  }
  return null;
}

/** Cheap necessary condition: a field can only hold the token phrase if it holds every phrase token. */
function mayContainPhrase(prepared: PreparedDocument, field: FieldName, forms: PhraseForms): boolean {
  const terms = prepared.terms[field];
  return forms.every((wanted) => [...wanted].some((form) => terms.has(form)));
}

/** Weight of the heaviest field holding the whole phrase, or null when no field does. */
export function phraseWeight(prepared: PreparedDocument, query: ParsedQuery, forms: PhraseForms): number | null {
  for (const field of FIELD_NAMES) {
    if (!query.technical && !mayContainPhrase(prepared, field, forms)) continue;
    const lowers = prepared.lowerTexts[field];
    const hit = lowers.some((lower) => {
      // Technical matching only needs the lowercased text; token matching lowercases tokens itself.
      return findPhrase(lower, lower, query, forms) !== null;
    });
    if (hit) return FIELD_WEIGHTS[field];
  }
  return null;
}
