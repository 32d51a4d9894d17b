// The order every authored presentation follows: current state, bounded evidence, authority and boundaries,
// owner attention, other actions, then the next action last. A failed result's next action is the registered
// one the envelope carries as its last hint.
import type { DiscernResult } from '../../../generated/types.js';
import { document } from './blocks.js';

export interface Presentation {
  state: string;
  evidence?: string | undefined;
  authority?: string | undefined;
  ownerAttention?: string | undefined;
}

export function frame(result: DiscernResult, presentation: Presentation): string {
  const hints = result.hints ?? [];
  // The last hint is the next action; earlier hints are other actions and notices.
  const next = hints.length > 0 ? hints[hints.length - 1] : undefined;
  const others = hints.slice(0, -1);
  return document([
    presentation.state,
    presentation.evidence,
    presentation.authority,
    presentation.ownerAttention ? `## Owner attention\n\n${presentation.ownerAttention}` : undefined,
    others.length > 0 ? `## Other actions\n\n${others.map((h) => `- ${h}`).join('\n')}` : undefined,
    next ? `## Next\n\n${next}` : undefined,
  ]);
}

/** The opening of a failed result: the slug and the message, in one place for every verb. */
export function failureState(result: DiscernResult, what: string): string {
  return `# ${what}: failed (\`${result.error ?? 'error'}\`)\n\n${result.message ?? ''}`;
}
