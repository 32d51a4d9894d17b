// Where later calls without `path` aim after a call: a successful start moves the server into the new
// worktree, so the agent keeps working where its effort lives; an accept that removed the worktree the server
// was aimed at moves it to the surviving main checkout. Anything else leaves it as it was.
import type { DiscernResult } from '../../../generated/types.js';

export function nextTarget(result: DiscernResult, current: string): string {
  if (!result.ok || result.dry_run === true || !result.data || 'issues' in result.data) return current;
  if (result.verb === 'start' && 'path' in result.data) return result.data.path;
  if (result.verb === 'accept') {
    const { landing, root, revision } = result.data;
    if (
      landing?.worktree_removed &&
      root !== undefined &&
      revision !== undefined &&
      (current === revision.path || current.startsWith(`${revision.path}/`))
    )
      return root;
  }
  return current;
}
