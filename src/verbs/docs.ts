// docs: the bundled manual's index, one page or section, or a ranked search (optionally within a target),
// through the discovery funnel it shares with map. Project-independent: it reads only the manual bundled at
// build time; a damaged install whose manual is missing or empty answers no_docs.
import { VERBS } from '../../generated/registry.js';
import type { DocsOutcome } from '../../generated/handlers.js';
import type { DiscernDocsInput } from '../../generated/types.js';
import { funnel } from '../engine/corpus/funnel.js';
import { entryOf, pageOf, searchOf } from '../engine/corpus/payloads.js';
import { manualIndex, manualPages } from '../engine/manual/bundle.js';
import type { VerbContext } from './context.js';
import { damagedInstall } from './damaged-install.js';
import { lookupRefusal, type CorpusWords } from './lookup-refusals.js';

const HINTS = VERBS.docs.hints;
const WORDS: CorpusWords = { verb: 'docs', corpus: 'manual', region: 'section', forms: 'slug, section/slug or path' };

export async function docs(input: DiscernDocsInput, ctx: VerbContext): Promise<DocsOutcome> {
  let answer;
  try {
    answer = await funnel({ pages: manualPages, index: manualIndex }, input, 'docs');
  } catch (error) {
    const damaged = damagedInstall(error, ctx, cliCall(input), 'discern_docs');
    if (damaged === undefined) throw error;
    return { refusal: { error: 'no_docs', ...damaged } };
  }
  switch (answer.kind) {
    case 'refused':
    case 'unknown':
    case 'ambiguous':
      return lookupRefusal(answer, WORDS, ctx);
    case 'search':
      return {
        data: searchOf(answer),
        hints: answer.outcome.results.length === 0 ? [HINTS.search_empty] : [HINTS.read_page],
      };
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

/** The CLI call to repeat, as the caller wrote it. */
function cliCall(input: DiscernDocsInput): string {
  const target = input.target !== undefined ? ` ${JSON.stringify(input.target)}` : '';
  const search = input.search !== undefined ? ` --search ${JSON.stringify(input.search)}` : '';
  return `discern docs${target}${search}`;
}
