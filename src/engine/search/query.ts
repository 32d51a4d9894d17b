// Reads a raw query into the pieces the ranker needs: the phrase, its tokens and the meaningful terms.
import { meaningfulTerms, tokenize } from './tokenize.js';

export interface ParsedQuery {
  /** Lowercased, whitespace collapsed, sentence punctuation at the ends removed. */
  phrase: string;
  /** Contains a character other than a letter, digit or whitespace, e.g. "--search" or "refs/notes". */
  technical: boolean;
  /** Every token in order, fillers included: the token sequence a non-technical phrase must match. */
  phraseTokens: string[];
  /** Distinct tokens after filler removal. */
  terms: string[];
}

// Natural-language questions end in "?" and quoted queries are common; neither should make a query
// technical. Leading dots stay because they are meaningful in names like ".discern.toml".
const LEADING_NOISE = /^["'“”‘’]+/u;
const TRAILING_NOISE = /["'“”‘’?!.,;:]+$/u;
const NON_WORD_CHARACTER = /[^\p{L}\p{N}\s]/u;

export function parseQuery(query: string): ParsedQuery {
  const phrase = query
    .toLowerCase()
    .replace(/\s+/g, ' ')
    .trim()
    .replace(LEADING_NOISE, '')
    .replace(TRAILING_NOISE, '')
    .trim();
  const phraseTokens = tokenize(phrase);
  return {
    phrase,
    technical: NON_WORD_CHARACTER.test(phrase),
    phraseTokens,
    terms: meaningfulTerms(phraseTokens),
  };
}
