// Public surface of the search engine; everything else in this folder is an implementation detail.
export { buildIndex } from './build-index.js';
export { extractFields, splitFrontMatter, type FrontMatterSplit, type MarkdownFields } from './markdown-fields.js';
export { search } from './rank.js';
export type {
  IndexedDocument,
  IndexedDocumentMeta,
  IndexedFieldTerms,
  SearchDocument,
  SearchIndex,
  SearchMatch,
  SearchOptions,
  SearchOutcome,
  SearchResult,
} from './types.js';
