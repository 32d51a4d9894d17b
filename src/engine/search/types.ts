// Shapes shared by the index builder and the ranker. The index is generated at code-generation time and
// shipped as JSON, so every index type is plain data: arrays and records only, no Maps, Sets or classes.

export interface SearchDocument {
  /** Canonical lookup key, e.g. "guides/connect-a-coding-agent". */
  target: string;
  /** Source path, e.g. "10-guides/connect-a-coding-agent.md". */
  path: string;
  /** Section the page belongs to, e.g. "guides". */
  section: string;
  title: string;
  description: string;
  aliases: readonly string[];
  /** `offset`: where the heading's text starts in `body`, when the producer knows it (extractFields does). */
  headings: readonly { depth: number; text: string; offset?: number }[];
  code: readonly string[];
  /** Plain text, as produced by extractFields. */
  body: string;
  /** Small additive manual "kind" weight; 0 when absent. */
  kindWeight?: number;
}

export interface IndexedDocumentMeta {
  target: string;
  path: string;
  section: string;
  title: string;
  description: string;
}

export type SearchMatch = 'complete' | 'partial' | 'metadata';

export interface SearchResult {
  target: string;
  path: string;
  section: string;
  title: string;
  description: string;
  match: SearchMatch;
  heading?: string;
  snippet: string;
}

export interface SearchOutcome {
  query: string;
  count: number;
  truncated: boolean;
  results: SearchResult[];
  suggestions?: string[];
}

export interface SearchOptions {
  /** Maximum number of results returned; 5 when absent. */
  limit?: number;
  /** Restricts which documents may be returned. Document frequencies still span the whole index. */
  scope?: (doc: IndexedDocumentMeta) => boolean;
}

/** Sorted, distinct tokens of one field, with the singular variants of plural tokens folded in. */
export interface IndexedFieldTerms {
  title: string[];
  aliases: string[];
  headings: string[];
  code: string[];
  /** Description and body together: they share the body weight. */
  body: string[];
}

export interface IndexedDocument extends IndexedDocumentMeta {
  kindWeight: number;
  aliases: string[];
  /** Headings of depth >= 2 only, in document order. */
  headings: { depth: number; text: string }[];
  code: string[];
  body: string;
  /** Character offset of each heading's text inside body, or -1 when it could not be located. */
  headingOffsets: number[];
  terms: IndexedFieldTerms;
}

export interface SearchIndex {
  version: 1;
  /** N in the IDF formula: every document, regardless of any search scope. */
  documentCount: number;
  /** Sorted by target so the serialised index is stable whatever order the pages were read in. */
  documents: IndexedDocument[];
}
