// The CLI's exit statuses (see the reference's exit-code table).
import type { DiscernResult } from '../../../generated/types.js';

export const EXIT = {
  ok: 0,
  failure: 1,
  usage: 2,
  internal: 70,
  SIGHUP: 129,
  SIGINT: 130,
  SIGTERM: 143,
} as const;

/** 0 for ok; 2 when the arguments were invalid (on the command line or against the input schema); 70 for a crash. */
export function exitCodeFor(result: DiscernResult): number {
  if (result.ok) return EXIT.ok;
  if (result.error === 'invalid_arguments') return EXIT.usage;
  return result.error === 'internal_error' ? EXIT.internal : EXIT.failure;
}
