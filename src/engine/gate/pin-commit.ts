// Applies a pin plan: writes discern.toml (atomically, its mode and byte-order mark kept) and commits that file
// alone on the current branch. The project's hooks run — this is a commit of the project's own file on its own
// branch, and a hook that enforces a policy there must not be bypassed — and whatever stops the commit (a hook,
// a missing identity, a ref that moved) restores the file's exact bytes and its index entry, so a failed pin
// leaves nothing half-written (docs/decisions/0027-standards-verbs.md).
import { relative } from 'node:path';
import { writeConfigText } from '../config-file/file.js';
import { git, gitComplaint } from '../git/git.js';
import { identityOptions } from '../setup/setup-git.js';

type Env = Readonly<Record<string, string | undefined>>;

export interface PinWrite {
  root: string;
  /** The git common dir, where the lock that orders discern.toml edits lives. */
  commonDir: string;
  env: Env;
  configPath: string;
  /** discern.toml as it is now (HEAD's: the tree is clean). */
  previous: { text: string; bom: boolean; mode: number | undefined };
  text: string;
  subject: string;
  body: string;
  /** HEAD before the commit: the commit must sit directly on it. */
  head: string;
}

export type PinCommit =
  { ok: true; commit: string } | { ok: false; stage: 'write' | 'commit'; reason: string; restored: boolean };

export async function commitPin(w: PinWrite): Promise<PinCommit> {
  const run = { cwd: w.root, env: w.env };
  const file = relative(w.root, w.configPath) || 'discern.toml';
  const previous = { exists: true, bom: w.previous.bom, mode: w.previous.mode };
  const location = { root: w.root, path: w.configPath, commonDir: w.commonDir };
  try {
    await writeConfigText(location, w.text, { ...previous, text: w.previous.text }, w.env, 'standards:pin-write');
  } catch (error) {
    return {
      ok: false,
      stage: 'write',
      reason: `${file} could not be written (${error instanceof Error ? error.message : String(error)})`,
      restored: await restore(w, file, previous),
    };
  }
  const identity = await identityOptions(run);
  const committed = await git([...identity, 'commit', '-q', '-m', w.subject, '-m', w.body, '--', file], run);
  const now = (await git(['rev-parse', 'HEAD'], run)).stdout.trim();
  const parent = (await git(['rev-parse', 'HEAD^'], run)).stdout.trim();
  if (committed.code === 0 && parent === w.head && now !== w.head) return { ok: true, commit: now };
  if (committed.code === 0) {
    // Something else moved HEAD meanwhile: the commit is not the one this pin made on the commit it measured.
    return {
      ok: false,
      stage: 'commit',
      reason: `HEAD moved during the pin (now ${now.slice(0, 12)}, whose parent is ${parent.slice(0, 12)}, not ${w.head.slice(0, 12)}); the pin commit, if any, is left for you to inspect`,
      restored: false,
    };
  }
  return {
    ok: false,
    stage: 'commit',
    reason: `git commit failed: ${gitComplaint(committed)}`,
    restored: await restore(w, file, previous),
  };
}

/** Puts discern.toml back byte for byte and its index entry back to HEAD's; true when both held. */
async function restore(
  w: PinWrite,
  file: string,
  previous: { exists: boolean; bom: boolean; mode: number | undefined },
): Promise<boolean> {
  try {
    // Based on the pin's own bytes: a file someone changed since is theirs now, and is not overwritten.
    const location = { root: w.root, path: w.configPath, commonDir: w.commonDir };
    await writeConfigText(location, w.previous.text, { ...previous, text: w.text }, {});
  } catch {
    return false;
  }
  const reset = await git(['reset', '-q', '--', file], { cwd: w.root, env: w.env });
  return reset.code === 0;
}
