// How a verb answers when a part of discern's own install is missing (src/engine/install/bundled.ts): the problem,
// and the same call to make again once discern is reinstalled, in the caller's surface's words.
import { DamagedInstall } from '../engine/install/bundled.js';
import type { VerbContext } from './context.js';

/** The install's problem and the call to repeat, when `error` is a damaged install; undefined for anything else. */
export function damagedInstall(
  error: unknown,
  ctx: Pick<VerbContext, 'surface'>,
  cli: string,
  tool: string,
): { message: string; next: { problem: string; rerun: string } } | undefined {
  if (!(error instanceof DamagedInstall)) return undefined;
  return {
    message: `${error.what[0]?.toUpperCase() ?? ''}${error.what.slice(1)} cannot be loaded: ${error.problem}. discern's install is damaged.`,
    next: { problem: error.problem, rerun: ctx.surface === 'mcp' ? tool : cli },
  };
}
