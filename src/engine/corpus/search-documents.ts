// A corpus's pages as the search engine indexes them.
import { buildIndex, extractFields, type SearchDocument } from '../search/index.js';
import type { Corpus, IndexedCorpus } from './types.js';

export function indexCorpus(corpus: Corpus): IndexedCorpus {
  const documents: SearchDocument[] = corpus.pages.map((page) => {
    const fields = extractFields(page.content);
    return {
      target: page.target,
      path: page.path,
      section: page.section,
      title: page.title,
      description: page.description,
      aliases: page.aliases,
      headings: fields.headings,
      code: fields.code,
      body: fields.body,
    };
  });
  return { ...corpus, index: buildIndex(documents) };
}
