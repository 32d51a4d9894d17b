// Which of some paths git's ignore rules cover: files discern writes there cannot be committed, so neither a
// commit of them nor the gate's currency check may count on them.
import { git } from './git.js';

export async function ignoredPaths(
  paths: readonly string[],
  run: { cwd: string; env: Readonly<Record<string, string | undefined>> },
): Promise<Set<string>> {
  if (paths.length === 0) return new Set();
  // --no-index: a path already tracked still counts as ignored when a rule covers it (git add would refuse it).
  // One path per output line (git's -z needs --stdin): the paths discern writes are plain names (agent files,
  // skill folders named [a-z0-9-]), which git prints unquoted; a quoted one would only be missed, never invented.
  const result = await git(['check-ignore', '--no-index', '--', ...paths], run);
  return new Set(result.code === 0 ? result.stdout.split('\n').filter((p) => p !== '') : []);
}
