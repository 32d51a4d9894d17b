// discern's own git effects during setup — creating and checking out the setup branch, committing the draft,
// checking out the trunk after landing — run with the repository's hooks off (core.hooksPath=/dev/null): no
// person is at the keyboard, and a hook that rewrote or rejected discern's one-file commit would leave setup
// half-done. The content is reviewed by the owner page by page and proven by the gate before it lands; the
// owner's own commits on the setup branch run their hooks as usual (docs/decisions/0022).
//
// A commit needs an identity, and a fresh machine (CI, a container) may have none: discern's own is given
// then, key by key, and never over one the user configured.
import { git, type GitResult } from '../git/git.js';

type Run = { cwd: string; env: Readonly<Record<string, string | undefined>> };

export const SETUP_IDENTITY = { name: 'discern', email: 'discern@discern.invalid' } as const;

/** git with the repository's hooks off, for discern's own commits and checkouts. */
export function gitWithoutHooks(args: readonly string[], run: Run, extra: readonly string[] = []): Promise<GitResult> {
  return git(['-c', 'core.hooksPath=/dev/null', ...extra, ...args], run);
}

/** `-c user.name=… -c user.email=…` for whichever part of an identity git cannot find; empty when it has one. */
export async function identityOptions(run: Run): Promise<string[]> {
  const [author, committer] = await Promise.all([
    git(['var', 'GIT_AUTHOR_IDENT'], run),
    git(['var', 'GIT_COMMITTER_IDENT'], run),
  ]);
  if (author.code === 0 && committer.code === 0) return [];
  const [name, email] = await Promise.all([git(['config', 'user.name'], run), git(['config', 'user.email'], run)]);
  return [
    ...(name.stdout.trim() === '' ? ['-c', `user.name=${SETUP_IDENTITY.name}`] : []),
    ...(email.stdout.trim() === '' ? ['-c', `user.email=${SETUP_IDENTITY.email}`] : []),
  ];
}
