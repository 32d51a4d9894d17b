// The manual bundled at generation time (codegen/emit/manual.ts writes generated/manual-pages.ts and
// generated/manual-index.ts from docs/), typed here so that generated code does not depend on hand-written types.
// Each half loads when a call first needs it: a search reads the index alone, and a page or the listing the pages
// alone; only a search within a page or section reads both.
import type { Corpus, IndexedCorpus } from '../corpus/types.js';
import type { SearchIndex } from '../search/index.js';

export async function manualPages(): Promise<Corpus> {
  return (await import('../../../generated/manual-pages.js')).MANUAL_PAGES as Corpus;
}

export async function manualIndex(): Promise<SearchIndex> {
  return (await import('../../../generated/manual-index.js')).MANUAL_INDEX as SearchIndex;
}

export async function manual(): Promise<IndexedCorpus> {
  const [pages, index] = await Promise.all([manualPages(), manualIndex()]);
  return { ...pages, index };
}
