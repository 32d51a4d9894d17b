// How docs and map refuse a target the funnel could not resolve: the same three cases, in each corpus's words.
import type { FunnelAnswer } from '../engine/corpus/funnel.js';
import type { VerbContext } from './context.js';
import { argumentsHelp } from './context.js';

type Miss = Extract<FunnelAnswer, { kind: 'refused' | 'unknown' | 'ambiguous' }>;

export interface CorpusWords {
  verb: 'docs' | 'map';
  /** "manual" or "map". */
  corpus: string;
  /** "section" or "region". */
  region: string;
  /** How a target is written, for the refusal message. */
  forms: string;
}

export function lookupRefusal(answer: Miss, words: CorpusWords, ctx: Pick<VerbContext, 'surface'>) {
  switch (answer.kind) {
    case 'refused':
      return {
        refusal: {
          error: 'invalid_arguments' as const,
          message: `target "${answer.target}" is refused: ${answer.reason}. A target names a page inside the ${words.corpus} (${words.forms}).`,
          next: { help: argumentsHelp(ctx, words.verb) },
        },
      };
    case 'unknown':
      return {
        data: { target: answer.target, suggestions: answer.suggestions },
        refusal: {
          error: 'unknown_target' as const,
          message: `The ${words.corpus} has no page or ${words.region} "${answer.target}".${answer.suggestions.length > 0 ? ` Closest: ${answer.suggestions.join(', ')}.` : ''}`,
          next: { list: `discern ${words.verb}` },
        },
      };
    case 'ambiguous':
      return {
        data: { target: answer.target, candidates: answer.candidates },
        refusal: {
          error: 'ambiguous' as const,
          message: `"${answer.target}" names several ${words.corpus} pages: ${answer.candidates.join(', ')}. Use the ${words.region}/page form.`,
          next: { help: argumentsHelp(ctx, words.verb) },
        },
      };
  }
}
