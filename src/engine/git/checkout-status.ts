// One `git status` that answers what a gate-running call used to ask in several processes (docs/decisions/0043):
// the working state (branch, HEAD, changed and untracked paths), the gate's dirty set, and the logbook's
// cleanliness. It is the strictest of those reads — every untracked file, and submodules compared whatever
// `diff.ignoreSubmodules` or `submodule.<name>.ignore` say — so each reader's own view is derived from it
// exactly: the configured submodule rules can only hide submodule entries, so when it lists none, the default
// read would have listed the same; when it lists some, the reader asks git its own question again.
// --no-ahead-behind: nobody reads `# branch.ab`, and counting it walks history when an upstream is set.
import { git, type GitResult } from './git.js';
import { readHeadIds, type HeadIds } from './head.js';
import { modeComparingArgs } from './file-modes.js';

export const STRICT_STATUS_ARGS = [
  'status',
  '--porcelain=v2',
  '-z',
  '--branch',
  '--no-ahead-behind',
  '--untracked-files=all',
  '--ignore-submodules=none',
] as const;

export interface CheckoutStatus {
  /** The raw `--porcelain=v2 -z` output. */
  output: string;
  /** HEAD's commit (`# branch.oid`); null on an unborn branch. */
  head: string | null;
  /** The branch HEAD is on (`# branch.head`); null when detached. */
  branch: string | null;
  /** Nothing changed, staged, untracked or different in a submodule. */
  clean: boolean;
  /** Some entry is a submodule's: a read under the configured submodule rules might not list it. */
  submoduleEntries: boolean;
}

export type StatusRead = { ok: true; status: CheckoutStatus } | { ok: false; result: GitResult };

/** `compareModesIn`: the checkout's state directory, given when exec bits count (file-modes.ts: done's reads). */
export interface StatusReadOptions {
  compareModesIn?: string;
}

export async function readCheckoutStatus(
  cwd: string,
  env: Readonly<Record<string, string | undefined>>,
  signal?: AbortSignal,
  options: StatusReadOptions = {},
): Promise<StatusRead> {
  const args = [...modeComparingArgs(options.compareModesIn), ...STRICT_STATUS_ARGS];
  const result = await git(args, { cwd, env, ...(signal ? { signal } : {}) });
  if (result.code !== 0) return { ok: false, result };
  return { ok: true, status: parseCheckoutStatus(result.stdout) };
}

export function parseCheckoutStatus(output: string): CheckoutStatus {
  let head: string | null = null;
  let branch: string | null = null;
  let clean = true;
  let submoduleEntries = false;
  const fields = output.split('\0');
  for (let i = 0; i < fields.length; i++) {
    const entry = fields[i] ?? '';
    if (entry.startsWith('# branch.oid ')) {
      const oid = entry.slice('# branch.oid '.length);
      head = oid === '(initial)' ? null : oid;
    } else if (entry.startsWith('# branch.head ')) {
      const name = entry.slice('# branch.head '.length);
      branch = name === '(detached)' ? null : name;
    } else if (entry.startsWith('1 ') || entry.startsWith('2 ') || entry.startsWith('u ')) {
      clean = false;
      // The third field is `N...` for a file and `S<c><m><u>` for a submodule.
      if (entry.split(' ', 3)[2]?.startsWith('S')) submoduleEntries = true;
      if (entry.startsWith('2 ')) i++; // a rename or copy is followed by its original path
    } else if (entry.startsWith('? ')) {
      clean = false;
    }
  }
  return { output, head, branch, clean, submoduleEntries };
}

/**
 * A look at the checkout as a call begins: HEAD's ids and the strict status, started together. invoke() takes it
 * for the verbs that test a tree (the logbook's first look), and those verbs read their own facts from it.
 */
export interface CheckoutLook {
  ids: Promise<HeadIds | undefined>;
  status: Promise<StatusRead>;
}

export function lookAtCheckout(
  cwd: string,
  env: Readonly<Record<string, string | undefined>>,
  signal?: AbortSignal,
  options: StatusReadOptions = {},
): CheckoutLook {
  const look = { ids: readHeadIds(cwd, env, signal), status: readCheckoutStatus(cwd, env, signal, options) };
  // Each reader awaits what it needs and handles a failure there; an unread rejection must not end the process.
  look.ids.catch(() => undefined);
  look.status.catch(() => undefined);
  return look;
}

/**
 * The looks a tree-testing call shares with the logbook: the first, and the strict status the verb read after its
 * last jobs ran (set only when it is the last read of the call: nothing the verb does afterwards touches the tree).
 */
export interface SharedLooks {
  first: CheckoutLook;
  last?: CheckoutStatus;
}
