// The manual bundled at generation time (codegen/emit/manual.ts writes generated/manual-pages.ts and
// generated/manual-index.ts from docs/), typed here so that generated code does not depend on hand-written types.
// Each half loads when a call first needs it (src/engine/corpus/funnel.ts): a search reads the index alone (about a
// megabyte), a page or the listing the pages alone (about half that); a search within a page or section reads both.
// Each half is a file of the install: a missing one, or a manual with no pages, throws
// DamagedInstall (docs answers no_docs).
import type { Corpus } from '../corpus/types.js';
import { DamagedInstall, loadBundled } from '../install/bundled.js';
import type { SearchIndex } from '../search/index.js';

export async function manualPages(): Promise<Corpus> {
  const what = "the manual's pages";
  const corpus = await loadBundled(
    what,
    async () => (await import('../../../generated/manual-pages.js')).MANUAL_PAGES as Corpus,
  );
  if (corpus.pages.length === 0) throw new DamagedInstall(what, 'the manual bundled in it has no pages');
  return corpus;
}

export async function manualIndex(): Promise<SearchIndex> {
  const what = "the manual's search index";
  const index = await loadBundled(
    what,
    async () => (await import('../../../generated/manual-index.js')).MANUAL_INDEX as SearchIndex,
  );
  if (index.documents.length === 0) throw new DamagedInstall(what, 'the manual bundled in it has no pages');
  return index;
}
