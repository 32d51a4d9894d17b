// The CLI's exit statuses (see the reference's exit-code table).
import { ERROR_REGISTRY } from '../../../generated/errors.js';
import type { DiscernResult } from '../../../generated/types.js';

export const EXIT = {
  ok: 0,
  failure: 1,
  usage: 2,
  internal: 70,
  /** await's budget ran out before the condition held (the result is ok, with a resume handle). */
  awaitExpired: 124,
  SIGHUP: 129,
  SIGINT: 130,
  SIGTERM: 143,
} as const;

/**
 * 0 for ok (124 when await's budget ran out); 2 when the call's arguments were at fault (any slug of the `arguments` family: the grammar, the
 * input schema, a value the command does not accept); 70 for a crash; 1 for every other controlled failure.
 */
export function exitCodeFor(result: DiscernResult): number {
  if (
    result.ok &&
    result.verb === 'await' &&
    result.data &&
    'met' in result.data &&
    !result.data.met &&
    result.data.cancelled !== true
  )
    return EXIT.awaitExpired;
  if (result.ok) return EXIT.ok;
  if (result.error === 'internal_error') return EXIT.internal;
  return ERROR_REGISTRY[result.error].family === 'arguments' ? EXIT.usage : EXIT.failure;
}
