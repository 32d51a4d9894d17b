// What merging `main` into a branch would bring: the incoming commits and files since the merge-base, the
// paths both sides changed, and whether the merge conflicts — all read without touching the worktree
// (`git merge-tree --write-tree` computes the merge in the object store).
import { git, gitComplaint, GitTooOld } from '../git/git.js';
import { parseNameStatus } from '../git/change-set.js';
import { gitWriteRefusal, WriteDenied } from '../state/write-denied.js';
import type { ChangedPath } from '../scopes/index.js';

interface Run {
  cwd: string;
  env: Readonly<Record<string, string | undefined>>;
}

export interface IncomingFile {
  path: string;
  status: string;
  from?: string;
  added: number | null;
  removed: number | null;
}

export interface Incoming {
  base: string | null;
  behind: number;
  ahead: number;
  commits: { sha: string; subject: string }[];
  files: IncomingFile[];
  /** Incoming paths as the scope classifier takes them. */
  changes: ChangedPath[];
  overlap: string[];
  /** Paths that would conflict; empty when the merge is clean or a fast-forward. */
  conflicts: string[];
}

export const COMMITS_SHOWN = 20;

export async function readIncoming(run: Run, head: string, main: string): Promise<Incoming> {
  const mergeBase = await git(['merge-base', head, main], run);
  const base = mergeBase.code === 0 ? mergeBase.stdout.trim() : null;
  const [behind, ahead, log] = await Promise.all([
    count(run, `${head}..${main}`),
    count(run, `${main}..${head}`),
    git(['log', '-z', `--max-count=${COMMITS_SHOWN}`, COMMIT_LOG_FORMAT, `${head}..${main}`], run),
  ]);
  if (log.code !== 0) throw new Error(`git log failed: ${gitComplaint(log)}`);
  const commits = parseCommitLog(log.stdout);
  if (base === null) return { base, behind, ahead, commits, files: [], changes: [], overlap: [], conflicts: [] };

  const [incomingStatus, incomingCounts, ownStatus] = await Promise.all([
    git(['diff', '--name-status', '-z', '-M', '--no-ext-diff', base, main, '--'], run),
    git(['diff', '--numstat', '-z', '-M', '--no-ext-diff', base, main, '--'], run),
    git(['diff', '--name-status', '-z', '-M', '--no-ext-diff', base, head, '--'], run),
  ]);
  for (const result of [incomingStatus, incomingCounts, ownStatus])
    if (result.code !== 0) throw new Error(`git diff failed: ${gitComplaint(result)}`);
  const files = joinFiles(parseStatusLetters(incomingStatus.stdout), parseNumstat(incomingCounts.stdout));
  const changes = parseNameStatus(incomingStatus.stdout);
  const own = new Set(parseNameStatus(ownStatus.stdout).flatMap((c) => (c.from ? [c.path, c.from] : [c.path])));
  const overlap = [...new Set(changes.flatMap((c) => (c.from ? [c.path, c.from] : [c.path])))]
    .filter((p) => own.has(p))
    .sort();
  const conflicts = ahead > 0 && behind > 0 ? await mergeConflicts(run, head, main) : [];
  return { base, behind, ahead, commits, files, changes, overlap, conflicts };
}

/** The log format both efforts and worktree commands read: `git log -z --format=%H%x1f%s`. */
export const COMMIT_LOG_FORMAT = '--format=%H%x1f%s';

export function parseCommitLog(output: string): { sha: string; subject: string }[] {
  return output
    .split('\0')
    .filter((entry) => entry.length > 0)
    .map((entry) => {
      const [sha = '', subject = ''] = entry.replace(/^\n/, '').split('\x1f');
      return { sha, subject };
    });
}

async function count(run: Run, range: string): Promise<number> {
  const result = await git(['rev-list', '--count', range], run);
  if (result.code !== 0) throw new Error(`git rev-list failed: ${gitComplaint(result)}`);
  return Number(result.stdout.trim());
}

/** The paths a real merge would leave conflicted, computed in the object store; the tree is not touched. */
export async function mergeConflicts(run: Run, head: string, main: string): Promise<string[]> {
  const result = await git(['merge-tree', '--write-tree', '--name-only', '--no-messages', '-z', head, main], run);
  if (result.code === 0) return [];
  // git before 2.38 has no --write-tree: it answers with its usage (status 129).
  if (result.code === 129)
    throw new GitTooOld(
      'checking a merge for conflicts without touching the tree (git merge-tree --write-tree) needs git 2.38 or newer',
    );
  if (result.code !== 1) {
    // merge-tree writes the merged trees into the object store: a read-only or full disk refuses before anything changed.
    const refused = gitWriteRefusal(result.stderr);
    if (refused !== undefined)
      throw new WriteDenied(
        (await git(['rev-parse', '--path-format=absolute', '--git-path', 'objects'], run)).stdout.trim(),
        refused,
      );
    throw new Error(`git merge-tree failed: ${gitComplaint(result)}`);
  }
  // -z output: the tree id, then each conflicted path, NUL-terminated; --no-messages drops the rest.
  const [, ...paths] = result.stdout.split('\0');
  return [...new Set(paths.filter((p) => p.length > 0))].sort();
}

/** `--name-status -z`: status letters (R100 → R) with the path, and the source for renames and copies. */
export function parseStatusLetters(output: string): { path: string; status: string; from?: string }[] {
  const fields = output.split('\0');
  const out: { path: string; status: string; from?: string }[] = [];
  for (let i = 0; i < fields.length; i++) {
    const raw = fields[i] ?? '';
    if (raw === '') continue;
    const status = raw.charAt(0);
    if (status === 'R' || status === 'C') {
      const from = fields[++i] ?? '';
      const path = fields[++i] ?? '';
      out.push({ path, status, from });
    } else {
      out.push({ path: fields[++i] ?? '', status });
    }
  }
  return out;
}

/** `--numstat -z`: "added\tremoved\tpath\0", or for a rename "added\tremoved\t\0from\0to\0"; "-" for binary. */
export function parseNumstat(output: string): Map<string, { added: number | null; removed: number | null }> {
  const counts = new Map<string, { added: number | null; removed: number | null }>();
  const fields = output.split('\0');
  for (let i = 0; i < fields.length; i++) {
    const raw = fields[i] ?? '';
    if (raw === '') continue;
    const [added = '-', removed = '-', path = ''] = raw.split('\t');
    const target = path === '' ? ((i += 2), fields[i] ?? '') : path;
    counts.set(target, {
      added: added === '-' ? null : Number(added),
      removed: removed === '-' ? null : Number(removed),
    });
  }
  return counts;
}

function joinFiles(
  statuses: { path: string; status: string; from?: string }[],
  counts: Map<string, { added: number | null; removed: number | null }>,
): IncomingFile[] {
  return statuses.map((s) => ({ ...s, ...(counts.get(s.path) ?? { added: null, removed: null }) }));
}
