// Search orchestration: phrase short-circuit, then complete/partial tiers, then the typo fallback.
// Ties always break on target so the same index and query give the same answer everywhere.
import { SHORT_CIRCUIT_WEIGHT } from './fields.js';
import { closeDocuments, measureCloseness, suggestTitles } from './metadata-fallback.js';
import { phraseForms, phraseWeight, type PhraseForms } from './phrase.js';
import { prepareIndex, type PreparedDocument } from './prepared-index.js';
import { parseQuery, type ParsedQuery } from './query.js';
import { fullTextResult, metadataResult } from './result.js';
import { inverseDocumentFrequencies, matchTerms, pageScore, queryTerms, type QueryTerm } from './score.js';
import type { SearchIndex, SearchOptions, SearchOutcome, SearchResult } from './types.js';

const DEFAULT_LIMIT = 5;
/** A partial must match at least this share of the terms (and never fewer than one). */
const COVERAGE_FLOOR = 0.35;
/** Bonus per unit of IDF a partial adds on terms no earlier result covers, to diversify the fill. */
const NOVELTY_WEIGHT = 250;

interface Candidate {
  prepared: PreparedDocument;
  /** Term -> weight of the best field it matched in. */
  matched: ReadonlyMap<string, number>;
  phraseWeight: number | null;
  score: number;
}

function byRank(a: Candidate, b: Candidate): number {
  if (a.score !== b.score) return b.score - a.score;
  const left = a.prepared.doc.target;
  const right = b.prepared.doc.target;
  return left < right ? -1 : left > right ? 1 : 0;
}

function outcome(query: string, count: number, results: SearchResult[], suggestions?: string[]): SearchOutcome {
  return {
    query,
    count,
    truncated: count > results.length,
    results,
    ...(suggestions === undefined || suggestions.length === 0 ? {} : { suggestions }),
  };
}

/**
 * Greedy fill: each pick maximises score + 250 × the IDF of its terms not yet covered by any chosen result,
 * so the slots go to pages that answer different parts of the query rather than the same part repeatedly.
 */
function fillWithPartials(
  chosen: readonly Candidate[],
  partials: readonly Candidate[],
  slots: number,
  idf: ReadonlyMap<string, number>,
): Candidate[] {
  const covered = new Set(chosen.flatMap((candidate) => [...candidate.matched.keys()]));
  const remaining = [...partials].sort(byRank);
  const picked: Candidate[] = [];
  while (picked.length < slots && remaining.length > 0) {
    let bestIndex = 0;
    let bestValue = Number.NEGATIVE_INFINITY;
    remaining.forEach((candidate, index) => {
      let novelty = 0;
      for (const term of candidate.matched.keys()) {
        if (!covered.has(term)) novelty += idf.get(term) ?? 0;
      }
      const value = candidate.score + NOVELTY_WEIGHT * novelty;
      // Strictly greater keeps the earlier (better ranked, then lower target) candidate on ties.
      if (value > bestValue) {
        bestValue = value;
        bestIndex = index;
      }
    });
    const [best] = remaining.splice(bestIndex, 1);
    if (best === undefined) break;
    picked.push(best);
    for (const term of best.matched.keys()) covered.add(term);
  }
  return picked;
}

function clampLimit(limit: number | undefined): number {
  if (limit === undefined || !Number.isFinite(limit)) return DEFAULT_LIMIT;
  return Math.max(0, Math.floor(limit));
}

interface QueryContext {
  parsed: ParsedQuery;
  terms: readonly QueryTerm[];
  phrase: PhraseForms;
}

function toResult(candidate: Candidate, match: 'complete' | 'partial', context: QueryContext): SearchResult {
  const matchedTerms = context.terms.filter((term) => candidate.matched.has(term.term));
  const hasPhrase = candidate.phraseWeight !== null;
  return fullTextResult(candidate.prepared, match, context.parsed, context.phrase, matchedTerms, hasPhrase);
}

export function search(index: SearchIndex, query: string, options: SearchOptions = {}): SearchOutcome {
  const limit = clampLimit(options.limit);
  const parsed = parseQuery(query);
  // A query without a single letter or digit (only punctuation) has nothing to rank on.
  if (parsed.terms.length === 0) return outcome(query, 0, []);

  const all = prepareIndex(index);
  const terms = queryTerms(parsed.terms);
  const matches = all.map((prepared) => matchTerms(prepared, terms));
  const idf = inverseDocumentFrequencies(matches, terms, index.documentCount);
  const phrase = phraseForms(parsed);
  const scope = options.scope;
  const context: QueryContext = { parsed, terms, phrase };

  const candidates: Candidate[] = [];
  all.forEach((prepared, position) => {
    if (scope !== undefined && !scope(prepared.meta)) return;
    const matched = matches[position] ?? new Map<string, number>();
    const weight = phraseWeight(prepared, parsed, phrase);
    if (matched.size === 0 && weight === null) return;
    const score = pageScore(matched, terms.length, idf, prepared.doc.kindWeight, weight);
    candidates.push({ prepared, matched, phraseWeight: weight, score });
  });

  // Exact-phrase short-circuit: a literal technical string, or the phrase in a title, alias, heading or
  // code, is a strong enough signal that loosely related pages would only be noise.
  const phraseHits = candidates.filter((candidate) => candidate.phraseWeight !== null).sort(byRank);
  const strongPhrase = phraseHits.some((candidate) => (candidate.phraseWeight ?? 0) >= SHORT_CIRCUIT_WEIGHT);
  if (phraseHits.length > 0 && (parsed.technical || strongPhrase)) {
    const results = phraseHits.slice(0, limit).map((candidate) => toResult(candidate, 'complete', context));
    return outcome(query, phraseHits.length, results);
  }

  const floor = Math.max(1, Math.ceil(COVERAGE_FLOOR * terms.length));
  const complete = candidates.filter((candidate) => candidate.matched.size === terms.length).sort(byRank);
  const partials = candidates.filter(
    (candidate) =>
      candidate.matched.size < terms.length &&
      candidate.matched.size >= floor &&
      candidate.matched.size / terms.length >= COVERAGE_FLOOR,
  );
  const count = complete.length + partials.length;
  if (count > 0) {
    const chosen = complete.slice(0, limit);
    const filled = fillWithPartials(chosen, partials, limit - chosen.length, idf);
    const results = [
      ...chosen.map((candidate) => toResult(candidate, 'complete', context)),
      ...filled.map((candidate) => toResult(candidate, 'partial', context)),
    ];
    return outcome(query, count, results);
  }

  const inScope = scope === undefined ? all : all.filter((prepared) => scope(prepared.meta));
  const closeness = measureCloseness(inScope, parsed);
  const close = closeDocuments(closeness);
  if (close.length > 0) return outcome(query, close.length, close.slice(0, limit).map(metadataResult));
  return outcome(query, 0, [], suggestTitles(closeness));
}
