// Typo tolerance, used only when full-text search finds nothing: the query and its words are compared with
// page titles and aliases by edit distance. Close matches become "metadata" results; near misses only
// become suggestions, so a wild guess never masquerades as an answer.
import { editDistance } from './edit-distance.js';
import type { PreparedDocument } from './prepared-index.js';
import type { ParsedQuery } from './query.js';
import { tokenize } from './tokenize.js';

/** Below this length almost every word is within one edit of some title word. */
const MIN_FUZZY_LENGTH = 4;
const WHOLE_NAME_SHARE = 0.25;
const SUGGESTION_SHARE = 0.4;
const MAX_SUGGESTIONS = 3;

export interface DocumentCloseness {
  prepared: PreparedDocument;
  /** Smallest relative distance of a close match, or null when none is close. */
  close: number | null;
  /** Smallest relative distance within the looser suggestion threshold, or null. */
  loose: number | null;
}

/** Close enough for a word to count as a typo: 1 edit for 4–7 characters, 2 from 8. */
function wordThreshold(length: number): number {
  return length >= 8 ? 2 : 1;
}

/**
 * Looser bound for suggestions: 40% of the length. Words under 6 characters keep the typo bound, because
 * two edits in five letters turn most words into unrelated ones ("chart" and "start").
 */
function suggestionThreshold(length: number): number {
  return length < 6 ? wordThreshold(length) : Math.floor(SUGGESTION_SHARE * length);
}

function lesser(current: number | null, candidate: number): number {
  return current === null ? candidate : Math.min(current, candidate);
}

const lengthOf = (text: string): number => Array.from(text).length;

/**
 * Ordering uses distance relative to the longer string: three edits in "configuration" are a nearer miss
 * than three edits in "integration", although both pass the same absolute threshold.
 */
function relative(distance: number, a: string, b: string): number {
  return distance / Math.max(1, lengthOf(a), lengthOf(b));
}

function measure(prepared: PreparedDocument, phrase: string, words: readonly string[]): DocumentCloseness {
  const names = [prepared.lowerTexts.title, prepared.lowerTexts.aliases].flat();
  let close: number | null = null;
  let loose: number | null = null;
  for (const name of names) {
    const distance = editDistance(phrase, name);
    const nearness = relative(distance, phrase, name);
    if (distance <= Math.floor(WHOLE_NAME_SHARE * lengthOf(name))) close = lesser(close, nearness);
    if (distance <= suggestionThreshold(lengthOf(phrase))) loose = lesser(loose, nearness);
    for (const nameWord of tokenize(name)) {
      if (lengthOf(nameWord) < MIN_FUZZY_LENGTH) continue;
      for (const word of words) {
        const wordDistance = editDistance(word, nameWord);
        const wordNearness = relative(wordDistance, word, nameWord);
        if (wordDistance <= wordThreshold(lengthOf(word))) close = lesser(close, wordNearness);
        if (wordDistance <= suggestionThreshold(lengthOf(word))) loose = lesser(loose, wordNearness);
      }
    }
  }
  return { prepared, close, loose };
}

/** Closeness of every in-scope page to the query, or an empty list when the query is too short. */
export function measureCloseness(documents: readonly PreparedDocument[], query: ParsedQuery): DocumentCloseness[] {
  if (lengthOf(query.phrase) < MIN_FUZZY_LENGTH) return [];
  const words = query.terms.filter((term) => lengthOf(term) >= MIN_FUZZY_LENGTH);
  return documents.map((prepared) => measure(prepared, query.phrase, words));
}

const byTarget = (a: DocumentCloseness, b: DocumentCloseness): number =>
  a.prepared.doc.target < b.prepared.doc.target ? -1 : a.prepared.doc.target > b.prepared.doc.target ? 1 : 0;

/** Pages with a close title or alias, nearest first. */
export function closeDocuments(closeness: readonly DocumentCloseness[]): PreparedDocument[] {
  return closeness
    .filter((entry) => entry.close !== null)
    .sort((a, b) => (a.close ?? 0) - (b.close ?? 0) || byTarget(a, b))
    .map((entry) => entry.prepared);
}

/** Up to three distinct titles within the looser threshold, nearest first. */
export function suggestTitles(closeness: readonly DocumentCloseness[]): string[] {
  const ranked = closeness
    .filter((entry) => entry.loose !== null)
    .sort((a, b) => (a.loose ?? 0) - (b.loose ?? 0) || byTarget(a, b));
  const titles: string[] = [];
  for (const entry of ranked) {
    const title = entry.prepared.doc.title;
    if (!titles.includes(title)) titles.push(title);
    if (titles.length === MAX_SUGGESTIONS) break;
  }
  return titles;
}
