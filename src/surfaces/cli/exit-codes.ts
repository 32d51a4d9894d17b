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

export function exitCodeFor(result: DiscernResult): number {
  if (result.ok) return EXIT.ok;
  return result.error === 'internal_error' ? EXIT.internal : EXIT.failure;
}
