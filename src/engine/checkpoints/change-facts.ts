// What checkpoints are evaluated against: the committed change from the merge-base with the trunk to a revision
// (HEAD, or a composed commit), one row per file with how it changed, its content after (blob id), its line
// counts and whether git treats it as binary; the commits on the branch; and, only when a filter asks, the text of
// the added and removed lines and the directories that existed at the merge-base. Renames are not followed: a
// moved file is a deletion and an addition, so a kinds filter sees both sides.
import { git, gitComplaint, type GitResult } from '../git/git.js';
import type { ChangeKind } from './definitions.js';

export interface Run {
  cwd: string;
  env: Readonly<Record<string, string | undefined>>;
  signal?: AbortSignal;
  /** `git merge-base <baseRef> HEAD`, when the caller already started it for another read of the same change
   *  (used only for the revision HEAD). */
  headMergeBase?: Promise<GitResult>;
  /** The merge-base's discern.toml as `cat-file blob` answers it, read with other files once headMergeBase
   *  answered (undefined: no merge-base); used only with headMergeBase. */
  mergeBaseConfig?: Promise<GitResult | undefined>;
}

export interface ChangedFile {
  path: string;
  kind: ChangeKind;
  /** The content after the change; null for a deletion. */
  blob: string | null;
  added: number;
  removed: number;
  binary: boolean;
}

export interface ChangeFacts {
  revision: string;
  /** The merge-base with the trunk; null without shared history (every file is an addition). */
  base: string | null;
  /** What the diff runs from: the merge-base, or the empty tree. */
  from: string;
  files: ChangedFile[];
  /** Commits reachable from the revision and not from the merge-base. */
  commits: number;
}

function options(run: Run): { cwd: string; env: Run['env']; signal?: AbortSignal } {
  return { cwd: run.cwd, env: run.env, ...(run.signal ? { signal: run.signal } : {}) };
}

/** Throws when git cannot answer: the caller drops the evidence (fails open) and says so. */
export async function readChangeFacts(run: Run, revision: string, baseRef: string): Promise<ChangeFacts> {
  const o = options(run);
  const mergeBase = await (revision === 'HEAD' && run.headMergeBase
    ? run.headMergeBase
    : git(['merge-base', baseRef, revision], o));
  const base = mergeBaseFrom(mergeBase);
  const from = base ?? (await emptyTree(run));
  // One diff prints both formats, all raw records first (--no-textconv changes the counts only; raw is unaffected).
  const [diff, count] = await Promise.all([
    git(
      [
        'diff',
        '--raw',
        '--numstat',
        '-z',
        '--no-renames',
        '--full-index',
        '--no-ext-diff',
        '--no-textconv',
        from,
        revision,
        '--',
      ],
      o,
    ),
    git(['rev-list', '--count', revision, ...(base ? [`^${base}`] : [])], o),
  ]);
  for (const r of [diff, count]) if (r.code !== 0) throw new Error(`git could not list the change: ${gitComplaint(r)}`);
  const { raw, numstat } = splitRawNumstat(diff.stdout);
  const counts = parseNumstat(numstat);
  const files = parseRaw(raw).map((f) => {
    const c = counts.get(f.path);
    return { ...f, added: c?.added ?? 0, removed: c?.removed ?? 0, binary: c?.binary ?? false };
  });
  files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return { revision, base, from, files, commits: Number(count.stdout.trim()) || 0 };
}

/** The merge-base `git merge-base` answered, or null when it found none (or failed). */
export function mergeBaseFrom(result: GitResult): string | null {
  return result.code === 0 && result.stdout.trim() !== '' ? result.stdout.trim() : null;
}

/**
 * `git diff --raw --numstat -z` prints every raw record (`:<meta>` NUL `<path>` NUL) before the first numstat
 * one, with no separator: the raw part ends at the first record that does not start with `:` (a numstat record
 * starts with a digit or `-`; a path is never read as a record's start).
 */
export function splitRawNumstat(output: string): { raw: string; numstat: string } {
  let at = 0;
  while (at < output.length && output[at] === ':') {
    const metaEnd = output.indexOf('\0', at);
    const pathEnd = metaEnd < 0 ? -1 : output.indexOf('\0', metaEnd + 1);
    if (pathEnd < 0) return { raw: output, numstat: '' };
    at = pathEnd + 1;
  }
  return { raw: output.slice(0, at), numstat: output.slice(at) };
}

/** `git diff --raw -z --no-renames`: `:<mode> <mode> <old> <new> <status>` NUL `<path>` NUL. */
export function parseRaw(output: string): Omit<ChangedFile, 'added' | 'removed' | 'binary'>[] {
  const fields = output.split('\0');
  const out: Omit<ChangedFile, 'added' | 'removed' | 'binary'>[] = [];
  for (let i = 0; i + 1 < fields.length; i += 2) {
    const meta = fields[i] ?? '';
    const path = fields[i + 1] ?? '';
    if (!meta.startsWith(':') || path === '') continue;
    const [, , , after, status] = meta.slice(1).split(' ');
    const letter = (status ?? '').charAt(0);
    const kind: ChangeKind = letter === 'A' ? 'added' : letter === 'D' ? 'deleted' : 'modified';
    out.push({ path, kind, blob: kind === 'deleted' ? null : (after ?? null) });
  }
  return out;
}

/** `git diff --numstat -z --no-renames`: `<added>\t<removed>\t<path>` NUL; binary files count `-`. */
export function parseNumstat(output: string): Map<string, { added: number; removed: number; binary: boolean }> {
  const map = new Map<string, { added: number; removed: number; binary: boolean }>();
  for (const entry of output.split('\0')) {
    const match = /^(-|\d+)\t(-|\d+)\t(.*)$/s.exec(entry);
    if (!match) continue;
    const binary = match[1] === '-';
    map.set(match[3] ?? '', { added: binary ? 0 : Number(match[1]), removed: binary ? 0 : Number(match[2]), binary });
  }
  return map;
}

export interface ChangedLines {
  added: string[];
  removed: string[];
}

const PATHS_PER_CALL = 200;

/** The added and removed lines of `paths` (zero context), by path. Only files a filter still considers are read. */
export async function readChangedLines(
  run: Run,
  from: string,
  revision: string,
  paths: readonly string[],
): Promise<Map<string, ChangedLines>> {
  const out = new Map<string, ChangedLines>();
  for (let i = 0; i < paths.length; i += PATHS_PER_CALL) {
    const chunk = paths.slice(i, i + PATHS_PER_CALL).map((p) => `:(literal)${p}`);
    const diff = await git(
      [
        '-c',
        'core.quotePath=false',
        'diff',
        '-U0',
        '--no-color',
        '--no-ext-diff',
        '--no-textconv',
        '--no-renames',
        from,
        revision,
        '--',
        ...chunk,
      ],
      options(run),
    );
    if (diff.code !== 0) throw new Error(`git could not read the changed lines: ${gitComplaint(diff)}`);
    for (const [path, lines] of parseZeroContextDiff(diff.stdout)) out.set(path, lines);
  }
  return out;
}

/**
 * A `git diff -U0` patch as added and removed lines per file. A file's path comes from its `---`/`+++` header
 * (the new side, or the old one for a deletion); content lines only appear after a hunk header, so a line whose
 * text starts with `++` is never taken for a header.
 */
export function parseZeroContextDiff(patch: string): Map<string, ChangedLines> {
  const out = new Map<string, ChangedLines>();
  let inHeader = false;
  let oldPath: string | undefined;
  let newPath: string | undefined;
  let current: ChangedLines | undefined;
  const open = (): ChangedLines | undefined => {
    const path = newPath ?? oldPath;
    if (path === undefined) return undefined;
    const lines = out.get(path) ?? { added: [], removed: [] };
    out.set(path, lines);
    return lines;
  };
  for (const line of patch.split('\n')) {
    if (line.startsWith('diff --git ')) {
      inHeader = true;
      oldPath = newPath = current = undefined;
      continue;
    }
    if (inHeader) {
      if (line.startsWith('--- ')) oldPath = headerPath(line.slice(4), 'a/');
      else if (line.startsWith('+++ ')) newPath = headerPath(line.slice(4), 'b/');
      else if (line.startsWith('@@')) {
        inHeader = false;
        current = open();
      }
      continue;
    }
    if (current === undefined) continue;
    if (line.startsWith('+')) current.added.push(line.slice(1));
    else if (line.startsWith('-')) current.removed.push(line.slice(1));
  }
  return out;
}

/** `a/path`, `"a/quoted\tpath"` or `/dev/null`; git appends a tab to a name that contains a space. */
function headerPath(text: string, prefix: string): string | undefined {
  const raw = text.endsWith('\t') ? text.slice(0, -1) : text;
  if (raw === '/dev/null') return undefined;
  const name = raw.startsWith('"') ? unquoteC(raw) : raw;
  return name.startsWith(prefix) ? name.slice(prefix.length) : name;
}

/** git's C-style quoting: backslash escapes and octal bytes (UTF-8), inside double quotes. */
export function unquoteC(quoted: string): string {
  // Code points, not UTF-16 units: a name may hold characters outside the basic plane unquoted.
  const body = Array.from(quoted.slice(1, quoted.endsWith('"') ? -1 : undefined));
  const bytes: number[] = [];
  const simple: Record<string, number> = { a: 7, b: 8, t: 9, n: 10, v: 11, f: 12, r: 13, '"': 34, '\\': 92 };
  for (let i = 0; i < body.length; i++) {
    const c = body[i] ?? '';
    if (c !== '\\') {
      bytes.push(...Buffer.from(c, 'utf8'));
      continue;
    }
    const next = body[i + 1] ?? '';
    if (/[0-7]/.test(next)) {
      bytes.push(parseInt(body.slice(i + 1, i + 4).join(''), 8));
      i += 3;
    } else {
      bytes.push(simple[next] ?? next.charCodeAt(0));
      i += 1;
    }
  }
  return Buffer.from(bytes).toString('utf8');
}

/** Every directory in the merge-base's tree (the root aside). */
export async function directoriesAt(run: Run, commit: string): Promise<Set<string>> {
  const listed = await git(['ls-tree', '-r', '-d', '--name-only', '-z', commit], options(run));
  if (listed.code !== 0) throw new Error(`git could not list the merge-base's directories: ${gitComplaint(listed)}`);
  return new Set(listed.stdout.split('\0').filter((d) => d.length > 0));
}

async function emptyTree(run: Run): Promise<string> {
  const result = await git(['hash-object', '-t', 'tree', '/dev/null'], options(run));
  if (result.code !== 0) throw new Error(`git hash-object failed: ${gitComplaint(result)}`);
  return result.stdout.trim();
}

/**
 * The added files git's copy detection finds similar to a file of `from`, each with its source. Copies are
 * looked for among every file of `from` (--find-copies-harder), so the diff is not narrowed by path; a rename
 * is a move, not a copy, and is left out.
 */
export async function readCopySources(run: Run, from: string, revision: string): Promise<Map<string, string>> {
  const diff = await git(
    // The checkout's diff.renameLimit must not switch copy detection off unseen: the limit is discern's.
    [
      '-c',
      'diff.renameLimit=10000',
      'diff',
      '--raw',
      '-z',
      '--find-copies-harder',
      '--no-ext-diff',
      '--no-textconv',
      from,
      revision,
      '--',
    ],
    options(run),
  );
  if (diff.code !== 0) throw new Error(`git could not look for copied files: ${gitComplaint(diff)}`);
  // Past the limit git finds copies only among modified files and says so on stderr: that is no answer.
  if (/only found copies from modified paths|inexact rename detection was skipped/.test(diff.stderr))
    throw new Error('the change is too large for copy detection (over 10000 files)');
  return parseCopies(diff.stdout);
}

/** `git diff --raw -z -C`: copies and renames carry two paths (`:<meta> C<score>` NUL src NUL dst NUL). */
export function parseCopies(output: string): Map<string, string> {
  const fields = output.split('\0');
  const out = new Map<string, string>();
  let i = 0;
  while (i < fields.length) {
    const meta = fields[i] ?? '';
    if (!meta.startsWith(':')) {
      i++;
      continue;
    }
    const letter = (meta.split(' ')[4] ?? '').charAt(0);
    if (letter === 'C' || letter === 'R') {
      const source = fields[i + 1] ?? '';
      const target = fields[i + 2] ?? '';
      if (letter === 'C' && source !== '' && target !== '') out.set(target, source);
      i += 3;
    } else i += 2;
  }
  return out;
}
