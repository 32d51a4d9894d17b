// The discovery funnel docs and map share: neither input → the index; target → one page, or a region's index;
// search → ranked pages; target and search → the search within that page or region. The verbs turn the answer
// into their own data; the rules live here once.
import { search, type SearchIndex, type SearchOutcome } from '../search/index.js';
import { lookupTarget } from './lookup.js';
import type { Corpus, CorpusPage, CorpusRegion } from './types.js';

export interface FunnelInput {
  target?: string;
  search?: string;
}

export type FunnelAnswer =
  | { kind: 'index'; pages: CorpusPage[]; regions: CorpusRegion[]; scope?: CorpusRegion }
  | { kind: 'page'; page: CorpusPage }
  | { kind: 'search'; outcome: SearchOutcome; scope?: string }
  | { kind: 'refused'; target: string; reason: string }
  | { kind: 'unknown'; target: string; suggestions: string[] }
  | { kind: 'ambiguous'; target: string; candidates: string[] };

/**
 * Where the funnel reads from: the pages and the index are asked for only when the input needs them, so a
 * corpus held as two parts (the bundled manual) loads only the part a call reads.
 */
export interface CorpusSource {
  pages(): Promise<Corpus>;
  index(): Promise<SearchIndex>;
}

export async function funnel(source: CorpusSource, input: FunnelInput, targetPrefix?: string): Promise<FunnelAnswer> {
  if (input.target === undefined && input.search !== undefined)
    return { kind: 'search', outcome: search(await source.index(), input.search, {}) };
  const corpus = await source.pages();
  let page: CorpusPage | undefined;
  let region: CorpusRegion | undefined;
  if (input.target !== undefined) {
    const found = lookupTarget(corpus, input.target, targetPrefix);
    if (found.kind === 'refused') return { kind: 'refused', target: input.target, reason: found.reason };
    if (found.kind === 'unknown') return { kind: 'unknown', target: input.target, suggestions: found.suggestions };
    if (found.kind === 'ambiguous') return { kind: 'ambiguous', target: input.target, candidates: found.candidates };
    if (found.kind === 'page') page = found.page;
    else region = found.region;
  }
  if (input.search !== undefined) {
    const scoped = page
      ? { scope: (d: { target: string }) => d.target === page?.target }
      : region
        ? { scope: (d: { section: string }) => d.section === region?.name }
        : {};
    const scopeName = page?.target ?? region?.name;
    return {
      kind: 'search',
      outcome: search(await source.index(), input.search, scoped),
      ...(scopeName !== undefined ? { scope: scopeName } : {}),
    };
  }
  if (page) return { kind: 'page', page };
  if (region) {
    const name = region.name;
    return { kind: 'index', pages: corpus.pages.filter((p) => p.section === name), regions: [region], scope: region };
  }
  return { kind: 'index', pages: corpus.pages, regions: corpus.regions };
}
