// The parts of docs and map results built the same way from a corpus: an index entry, a page, a search.
import type { FunnelAnswer } from './funnel.js';
import type { CorpusPage } from './types.js';

export interface EntryPayload {
  target: string;
  path: string;
  section: string;
  slug: string;
  title: string;
  description: string;
  order: number;
  aliases?: string[];
  publish?: boolean;
}

export function entryOf(page: CorpusPage): EntryPayload {
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

export function pageOf(page: CorpusPage): { target: string; path: string; section: string; slug: string; title: string; description: string; content: string } {
  return { target: page.target, path: page.path, section: page.section, slug: page.slug, title: page.title, description: page.description, content: page.content };
}

export function searchOf(answer: Extract<FunnelAnswer, { kind: 'search' }>): {
  query: string;
  scope?: string;
  count: number;
  truncated: boolean;
  results: Extract<FunnelAnswer, { kind: 'search' }>['outcome']['results'];
  suggestions?: string[];
} {
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
