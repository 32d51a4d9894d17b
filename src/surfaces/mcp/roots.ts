// MCP roots: where the client says its workspace is. A client such as VS Code starts the server in a directory
// of its own and passes the workspace folders as roots, so a server started outside any git checkout aims at
// the checkout its roots hold: one checkout is the target of calls without `path`; several are a choice the
// caller makes with `path` (invoke answers `ambiguous` naming them); none leaves the target as it was. It
// follows notifications/roots/list_changed. Roots only choose where a call without `path` goes: they are
// never a sandbox, and a call with `path` goes where it says.
import { existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The top of the git checkout holding `dir` (the folder with `.git`, a directory or a worktree's file), if any. */
export function checkoutTop(dir: string): string | undefined {
  let at = resolve(dir);
  for (;;) {
    if (existsSync(`${at}/.git`)) return at;
    const up = dirname(at);
    if (up === at) return undefined;
    at = up;
  }
}

/** The distinct checkouts the roots lie in, in the roots' order; roots that are not file: URIs are ignored. */
export function checkoutsAmong(uris: readonly string[]): string[] {
  const tops: string[] = [];
  for (const uri of uris) {
    let path: string;
    try {
      path = fileURLToPath(uri);
    } catch {
      continue;
    }
    const top = checkoutTop(path);
    if (top !== undefined && !tops.includes(top)) tops.push(top);
  }
  return tops;
}

/** Where calls without `path` go, given the checkouts the roots hold. */
export type RootsAim = { kind: 'target'; target: string } | { kind: 'choose'; choices: string[] } | { kind: 'none' };

export function aimFromRoots(checkouts: readonly string[]): RootsAim {
  const [only, ...more] = checkouts;
  if (only === undefined) return { kind: 'none' };
  if (more.length === 0) return { kind: 'target', target: only };
  return { kind: 'choose', choices: [...checkouts] };
}
