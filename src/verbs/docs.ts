// docs: the bundled manual's index, one page or section, or a ranked search (optionally within a target).
// Project-independent: it reads only the manual bundled at build time.
import { MANUAL } from '../engine/manual/bundle.js';
import { VERBS } from '../../generated/registry.js';
import type { DocsOutcome } from '../../generated/handlers.js';
import type { DiscernDocsDocEntry, DiscernDocsDocRegion, DiscernDocsInput } from '../../generated/types.js';
import { search } from '../engine/search/index.js';
import { lookupTarget } from '../engine/manual/lookup.js';
import type { ManualPage, ManualRegion } from '../engine/manual/types.js';
import type { VerbContext } from './context.js';

const HINTS = VERBS.docs.hints;

export async function docs(input: DiscernDocsInput, _ctx: VerbContext): Promise<DocsOutcome> {
  let scopePage: ManualPage | undefined;
  let scopeRegion: ManualRegion | undefined;
  if (input.target !== undefined) {
    const found = lookupTarget(MANUAL, input.target);
    switch (found.kind) {
      case 'refused':
        return {
          refusal: {
            error: 'invalid_arguments',
            message: `target "${input.target}" is refused: ${found.reason}. A target names a page inside the manual (slug, section/slug or path).`,
            next: { help: '`discern docs`' },
          },
        };
      case 'unknown':
        return {
          data: { target: input.target, suggestions: found.suggestions },
          refusal: {
            error: 'unknown_target',
            message: `The manual has no page or section "${input.target}".${found.suggestions.length > 0 ? ` Closest: ${found.suggestions.join(', ')}.` : ''}`,
            next: { list: 'discern docs' },
          },
        };
      case 'ambiguous':
        return {
          data: { target: input.target, candidates: found.candidates },
          refusal: {
            error: 'ambiguous',
            message: `"${input.target}" names several pages: ${found.candidates.join(', ')}. Use section/slug.`,
            next: { help: '`discern docs`' },
          },
        };
      case 'page':
        scopePage = found.page;
        break;
      case 'region':
        scopeRegion = found.region;
        break;
    }
  }

  if (input.search !== undefined) {
    const scope = scopePage ?? scopeRegion;
    const outcome = search(MANUAL.index, input.search, {
      ...(scopePage ? { scope: (d) => d.target === scopePage?.target } : {}),
      ...(scopeRegion ? { scope: (d) => d.section === scopeRegion?.name } : {}),
    });
    return {
      data: {
        query: outcome.query,
        ...(scope ? { scope: 'target' in scope ? scope.target : scope.name } : {}),
        count: outcome.count,
        truncated: outcome.truncated,
        results: outcome.results,
        ...(outcome.suggestions && outcome.suggestions.length > 0 ? { suggestions: outcome.suggestions } : {}),
      },
      hints: outcome.results.length === 0 ? [HINTS.search_empty] : [HINTS.read_page],
    };
  }

  if (scopePage) {
    const p = scopePage;
    return { data: { doc: { target: p.target, path: p.path, section: p.section, slug: p.slug, title: p.title, description: p.description, content: p.content } } };
  }
  const pages = scopeRegion ? MANUAL.pages.filter((p) => p.section === scopeRegion?.name) : MANUAL.pages;
  const regions = scopeRegion ? [scopeRegion] : MANUAL.regions;
  return {
    data: { ...(scopeRegion ? { scope: scopeRegion.name } : {}), count: pages.length, docs: pages.map(entry), regions: regions.map(region) },
    hints: [HINTS.read_page],
  };
}

function entry(page: ManualPage): DiscernDocsDocEntry {
  return {
    target: page.target,
    path: page.path,
    section: page.section,
    slug: page.slug,
    title: page.title,
    description: page.description,
    order: page.order,
    ...(page.aliases.length > 0 ? { aliases: page.aliases } : {}),
  };
}

function region(r: ManualRegion): DiscernDocsDocRegion {
  return { name: r.name, title: r.title, page_count: r.page_count };
}
