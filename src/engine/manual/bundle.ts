// The manual bundled at generation time (codegen/emit/manual.ts writes generated/manual-pages.ts and
// generated/manual-index.ts from docs/), typed here so that generated code does not depend on hand-written types.
// Each half loads when a call first needs it (src/engine/corpus/funnel.ts): a search reads the index alone (about a
// megabyte), a page or the listing the pages alone (about half that); a search within a page or section reads both.
import type { Corpus } from '../corpus/types.js';
import type { SearchIndex } from '../search/index.js';

export async function manualPages(): Promise<Corpus> {
  return (await import('../../../generated/manual-pages.js')).MANUAL_PAGES as Corpus;
}

export async function manualIndex(): Promise<SearchIndex> {
  return (await import('../../../generated/manual-index.js')).MANUAL_INDEX as SearchIndex;
}
