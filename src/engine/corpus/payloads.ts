// The parts of docs and map results built the same way from a corpus: an index entry, a page, a search —
// in the shapes the shared document definitions publish (spec/common.schema.json).
import type { DiscernDocumentEntry, DiscernDocumentPage, DiscernDocumentSearch } from '../../../generated/types.js';
import type { FunnelAnswer } from './funnel.js';
import type { CorpusPage } from './types.js';

export function entryOf(page: CorpusPage): DiscernDocumentEntry {
  return {
    target: page.target,
    path: page.path,
    section: page.section,
    slug: page.slug,
    title: page.title,
    description: page.description,
    order: page.order,
    ...(page.aliases.length > 0 ? { aliases: page.aliases } : {}),
    ...(page.publish ? {} : { publish: false }),
  };
}

export function pageOf(page: CorpusPage): DiscernDocumentPage {
  return {
    target: page.target,
    path: page.path,
    section: page.section,
    slug: page.slug,
    title: page.title,
    description: page.description,
    content: page.content,
  };
}

export function searchOf(answer: Extract<FunnelAnswer, { kind: 'search' }>): DiscernDocumentSearch {
  const { outcome } = answer;
  return {
    query: outcome.query,
    ...(answer.scope !== undefined ? { scope: answer.scope } : {}),
    count: outcome.count,
    truncated: outcome.truncated,
    results: outcome.results,
    ...(outcome.suggestions && outcome.suggestions.length > 0 ? { suggestions: outcome.suggestions } : {}),
  };
}
