// Term matching and page scoring, following the documented formula:
//   coverage share × 1000 + Σ IDF(term) × best field weight + kindWeight
//   + (2000 + 10 × phrase field weight) when the whole query occurs as a phrase.
import { FIELD_NAMES, FIELD_WEIGHTS } from './fields.js';
import type { PreparedDocument } from './prepared-index.js';
import { termForms } from './tokenize.js';

const COVERAGE_WEIGHT = 1000;
const PHRASE_BONUS = 2000;
const PHRASE_FIELD_FACTOR = 10;

/** A meaningful query term with every spelling it may match under. */
export interface QueryTerm {
  term: string;
  forms: readonly string[];
}

export function queryTerms(terms: readonly string[]): QueryTerm[] {
  return terms.map((term) => ({ term, forms: termForms(term) }));
}

/** Matched terms, in query order, each with the weight of the heaviest field it occurs in. */
export function matchTerms(prepared: PreparedDocument, terms: readonly QueryTerm[]): Map<string, number> {
  const matched = new Map<string, number>();
  for (const { term, forms } of terms) {
    const field = FIELD_NAMES.find((name) => forms.some((form) => prepared.terms[name].has(form)));
    if (field !== undefined) matched.set(term, FIELD_WEIGHTS[field]);
  }
  return matched;
}

/**
 * IDF = ln((N + 1) / (df + 1)) + 1, where df counts documents matching the term under any spelling in
 * any field. It is taken over every document, whatever the search scope.
 */
export function inverseDocumentFrequencies(
  matchesByDocument: readonly ReadonlyMap<string, number>[],
  terms: readonly QueryTerm[],
  documentCount: number,
): Map<string, number> {
  const idf = new Map<string, number>();
  for (const { term } of terms) {
    const df = matchesByDocument.filter((matched) => matched.has(term)).length;
    idf.set(term, Math.log((documentCount + 1) / (df + 1)) + 1);
  }
  return idf;
}

export function pageScore(
  matched: ReadonlyMap<string, number>,
  termCount: number,
  idf: ReadonlyMap<string, number>,
  kindWeight: number,
  phraseWeight: number | null,
): number {
  let score = termCount === 0 ? 0 : (matched.size / termCount) * COVERAGE_WEIGHT;
  for (const [term, weight] of matched) score += (idf.get(term) ?? 0) * weight;
  score += kindWeight;
  if (phraseWeight !== null) score += PHRASE_BONUS + PHRASE_FIELD_FACTOR * phraseWeight;
  return score;
}
