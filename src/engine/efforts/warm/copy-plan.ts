// Whether each [worktree] copy entry is taken from the main checkout into a new worktree, decided from facts read
// beforehand (copy-facts.ts). Pure: the executor (warm-worktree.ts) copies what this says and nothing else.
import { discardsNodeModules, type CopyEntry } from './copy-entries.js';

export interface CopyEntryFacts {
  entry: CopyEntry;
  /** What the main checkout holds at the entry's path: a real directory, something else (a file, a link), or nothing. */
  inMain: 'dir' | 'other' | 'missing';
  /** Whether git ignores the path in the main checkout. */
  ignored: boolean;
  /** Whether something already exists at the path in the new worktree (tracked files, say). */
  inTarget: boolean;
  /** Whether the main checkout's directory is a Python virtualenv (it holds a pyvenv.cfg). */
  venv: boolean;
  /** The key files whose content differs between the two checkouts. */
  keyDiffers: string[];
}

export type CopyDecision = { entry: CopyEntry; copy: true } | { entry: CopyEntry; copy: false; reason: string };

export function planCopies(facts: readonly CopyEntryFacts[], ensure: readonly string[]): CopyDecision[] {
  const discarding = ensure.find(discardsNodeModules);
  return facts.map((f): CopyDecision => {
    const skip = (reason: string): CopyDecision => ({ entry: f.entry, copy: false, reason });
    const { path } = f.entry;
    if (f.inMain === 'missing') return skip(`the main checkout has no ${path}`);
    if (f.inMain === 'other') return skip(`${path} in the main checkout is not a directory (a file or a link)`);
    if (!f.ignored)
      return skip(`git does not ignore ${path} in the main checkout: it is the project's content, not an install`);
    if (f.inTarget) return skip(`the new worktree already has ${path}`);
    if (f.venv)
      return skip(
        `${path} is a Python virtualenv, whose scripts hold its absolute path: ensure makes the worktree's own`,
      );
    if (f.keyDiffers.length > 0)
      return skip(
        `${f.keyDiffers.join(', ')} ${f.keyDiffers.length === 1 ? 'differs' : 'differ'} between the checkouts`,
      );
    if (discarding !== undefined && (path === 'node_modules' || path.endsWith('/node_modules')))
      return skip(
        `ensure runs \`${discarding.trim()}\`, which deletes node_modules before it installs: an ensure of \`npm install --prefer-offline --no-audit --no-fund\` would reuse the copy`,
      );
    return { entry: f.entry, copy: true };
  });
}
