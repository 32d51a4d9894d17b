// Where later calls without `path` aim after a call: a successful start moves the server into the new worktree,
// so the agent keeps working where its effort lives. A preview, a failure or any other verb leaves it as it was.
import type { DiscernResult } from '../../../generated/types.js';

export function nextTarget(result: DiscernResult, current: string): string {
  if (result.verb === 'start' && result.ok && result.dry_run !== true && result.data && 'path' in result.data) return result.data.path;
  return current;
}
