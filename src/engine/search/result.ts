// Shapes a ranked document into a public result: which passage to quote and under which heading it sits.
// Body is preferred over description because it carries the surrounding explanation and the headings.
import { findPhrase, type PhraseForms, type TextSpan } from './phrase.js';
import type { PreparedDocument } from './prepared-index.js';
import type { ParsedQuery } from './query.js';
import type { QueryTerm } from './score.js';
import { headingAt, leadingSnippet, snippetAround } from './snippet.js';
import { firstTokenSharing } from './tokenize.js';
import type { SearchMatch, SearchResult } from './types.js';

interface Hit {
  inBody: boolean;
  span: TextSpan;
}

function firstMatchedToken(text: string, lower: string, forms: ReadonlySet<string>): TextSpan | null {
  const span = firstTokenSharing(text, lower, forms);
  return span === null ? null : { start: span.start, end: span.end };
}

function locateHit(
  prepared: PreparedDocument,
  query: ParsedQuery,
  phrase: PhraseForms,
  matchedTerms: readonly QueryTerm[],
  hasPhrase: boolean,
): Hit | null {
  const { body, description } = prepared.doc;
  if (hasPhrase) {
    const inBody = findPhrase(body, prepared.lowerBody, query, phrase);
    if (inBody) return { inBody: true, span: inBody };
    const inDescription = findPhrase(description, prepared.lowerDescription, query, phrase);
    if (inDescription) return { inBody: false, span: inDescription };
  }
  const forms = new Set(matchedTerms.flatMap((term) => term.forms));
  if (forms.size === 0) return null;
  const inBody = firstMatchedToken(body, prepared.lowerBody, forms);
  if (inBody) return { inBody: true, span: inBody };
  const inDescription = firstMatchedToken(description, prepared.lowerDescription, forms);
  return inDescription ? { inBody: false, span: inDescription } : null;
}

function assemble(prepared: PreparedDocument, match: SearchMatch, snippet: string, heading?: string): SearchResult {
  const { target, path, section, title, description } = prepared.meta;
  return {
    target,
    path,
    section,
    title,
    description,
    match,
    ...(heading === undefined ? {} : { heading }),
    snippet,
  };
}

export function fullTextResult(
  prepared: PreparedDocument,
  match: SearchMatch,
  query: ParsedQuery,
  phrase: PhraseForms,
  matchedTerms: readonly QueryTerm[],
  hasPhrase: boolean,
): SearchResult {
  const doc = prepared.doc;
  const hit = locateHit(prepared, query, phrase, matchedTerms, hasPhrase);
  if (hit === null) return assemble(prepared, match, leadingSnippet(doc.description || doc.body));
  const text = hit.inBody ? doc.body : doc.description;
  const snippet = snippetAround(text, hit.span.start, hit.span.end);
  const heading = hit.inBody ? headingAt(doc.headings, doc.headingOffsets, hit.span.start) : undefined;
  return assemble(prepared, match, snippet, heading);
}

/** Metadata matches have no passage to point at, so they quote the page's own summary. */
export function metadataResult(prepared: PreparedDocument): SearchResult {
  const doc = prepared.doc;
  return assemble(prepared, 'metadata', leadingSnippet(doc.description || doc.body));
}
