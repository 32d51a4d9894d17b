// docs: the bundled manual's index, one page or section, or a ranked search (optionally within a target),
// through the discovery funnel it shares with map. Project-independent: it reads only the manual bundled at
// build time.
import { VERBS } from '../../generated/registry.js';
import type { DocsOutcome } from '../../generated/handlers.js';
import type { DiscernDocsInput } from '../../generated/types.js';
import { funnel } from '../engine/corpus/funnel.js';
import { entryOf, pageOf, searchOf } from '../engine/corpus/payloads.js';
import { MANUAL } from '../engine/manual/bundle.js';
import { argumentsHelp, type VerbContext } from './context.js';

const HINTS = VERBS.docs.hints;

export async function docs(input: DiscernDocsInput, ctx: VerbContext): Promise<DocsOutcome> {
  const answer = funnel(MANUAL, input, 'docs');
  switch (answer.kind) {
    case 'refused':
      return {
        refusal: {
          error: 'invalid_arguments',
          message: `target "${answer.target}" is refused: ${answer.reason}. A target names a page inside the manual (slug, section/slug or path).`,
          next: { help: argumentsHelp(ctx, 'docs') },
        },
      };
    case 'unknown':
      return {
        data: { target: answer.target, suggestions: answer.suggestions },
        refusal: {
          error: 'unknown_target',
          message: `The manual has no page or section "${answer.target}".${answer.suggestions.length > 0 ? ` Closest: ${answer.suggestions.join(', ')}.` : ''}`,
          next: { list: 'discern docs' },
        },
      };
    case 'ambiguous':
      return {
        data: { target: answer.target, candidates: answer.candidates },
        refusal: { error: 'ambiguous', message: `"${answer.target}" names several pages: ${answer.candidates.join(', ')}. Use section/slug.`, next: { help: argumentsHelp(ctx, 'docs') } },
      };
    case 'search':
      return { data: searchOf(answer), hints: answer.outcome.results.length === 0 ? [HINTS.search_empty] : [HINTS.read_page] };
    case 'page':
      return { data: { doc: pageOf(answer.page) } };
    case 'index':
      return {
        data: {
          ...(answer.scope ? { scope: answer.scope.name } : {}),
          count: answer.pages.length,
          docs: answer.pages.map(entryOf),
          regions: answer.regions.map((r) => ({ name: r.name, title: r.title, page_count: r.page_count })),
        },
        hints: [HINTS.read_page],
      };
  }
}
