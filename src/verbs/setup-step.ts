// setup step <n>: one page of what the owner confirms, as the working discern.toml on the setup branch now
// makes it (the proposal setup began with while the file does not load), with the owner moments every page
// refers to. Read-only.
import type { SetupStepOutcome } from '../../generated/handlers.js';
import { VERBS } from '../../generated/registry.js';
import type { DiscernSetupStepInput } from '../../generated/types.js';
import type { InspectVerbContext } from './context.js';
import { currentBook, onSetupBranch, setupInProgress, setupPlace } from './setup-context.js';

const HINTS = VERBS.setupStep.hints;

export async function setupStep(input: DiscernSetupStepInput, ctx: InspectVerbContext): Promise<SetupStepOutcome> {
  const place = setupPlace(ctx);
  if ('refusal' in place) return place;
  const current = await setupInProgress(place);
  if ('refusal' in current) return current;
  const { state } = current;
  const off = await onSetupBranch(place, state, `discern setup step ${input.step}`);
  if (off) return { refusal: off };
  const book = currentBook(ctx, place, state);
  const page = book.pages[input.step - 1];
  const last = book.pages.length;
  if (page === undefined || input.step < 1) {
    return {
      refusal: {
        error: 'unknown_step',
        message: `Setup has pages 1 to ${last}; there is no page ${input.step}.`,
        next: { last: String(last) },
      },
    };
  }
  const hint = page.number < last ? HINTS.next_page.replace('{next}', String(page.number + 1)) : HINTS.last_page;
  return {
    data: {
      phase: state.phase,
      branch: state.branch,
      page,
      pages_total: last,
      spine: { owner_moments: book.moments },
      ...(book.issues && book.issues.length > 0 ? { config_issues: book.issues } : {}),
    },
    hints:
      book.issues && book.issues.length > 0
        ? [
            'discern.toml does not load right now, so these pages show the proposal setup began with; `discern setup verify` lists what to fix.',
            hint,
          ]
        : [hint],
  };
}
