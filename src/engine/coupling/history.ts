// The co-change history in its compact form (docs/decisions/0025): every path seen gets an integer id, and
// each commit is a run of integers — how many files it changed, how many of them are stored, then their ids.
// An index over the runs lets a query touch only the commits of the files it asks about: where each commit's
// run starts, each path's commits (its posting list), and how many commits changed each number of files.
//
// Settings ([coupling] max_commit_files, ignore, [generated]) are applied when the history is read, never when
// it is built, so one history serves every configuration and the cache stays valid when discern.toml changes.
// A commit changing more than HARD_CAP files keeps only its count: no setting can analyse it (the config
// schema caps max_commit_files there), and a vendored import of 40,000 files should not bloat the cache.

export const HARD_CAP = 1000;

export interface HistoryIndex {
  /** Per commit (newest first): where its run starts in ints. */
  offsets: Uint32Array;
  /** Per path id: where its commits start in postings (paths + 1 entries). */
  postingStarts: Uint32Array;
  /** Commit indexes per path, smallest commits first, then newest first. */
  postings: Uint32Array;
  /** sizes[n]: commits that changed n files (n ≤ HARD_CAP), then one entry for all larger ones. */
  sizes: Uint32Array;
}

export interface History extends HistoryIndex {
  /** The commit the history was read from (HEAD at the time). */
  head: string;
  /** id → path. */
  paths: string[];
  /** Per commit, newest first: total files changed, n stored, then n path ids. */
  ints: Uint32Array;
  /** Number of commits. */
  commits: number;
  /** Per commit, newest first: `sha\tdate\tsubject`, for evidence; read only when asked for (undefined: unreadable). */
  meta: () => string[] | undefined;
}

/** Builds the integer runs for commits as they stream in, continuing an existing path table when extending. */
export class HistoryBuilder {
  readonly paths: string[];
  private readonly ids: Map<string, number>;
  private ints = new Uint32Array(4096);
  private length = 0;
  commits = 0;
  readonly meta: string[] = [];

  constructor(paths: readonly string[] = []) {
    this.paths = [...paths];
    this.ids = new Map(this.paths.map((p, i) => [p, i]));
  }

  add(sha: string, date: string, subject: string, files: readonly string[]): void {
    const stored = files.length <= HARD_CAP ? files.length : 0;
    this.reserve(2 + stored);
    this.ints[this.length++] = files.length;
    this.ints[this.length++] = stored;
    for (let i = 0; i < stored; i++) this.ints[this.length++] = this.idOf(files[i] as string);
    // %s never holds a newline; a tab or carriage return would break the line's fields.
    this.meta.push(
      `${sha}\t${date}\t${subject.includes('\t') || subject.includes('\r') ? subject.replace(/[\t\r]/g, ' ') : subject}`,
    );
    this.commits++;
  }

  /** The commits added so far, with `older` (the history of an ancestor) after them. */
  build(
    head: string,
    older?: { ints: Uint32Array; commits: number; meta: string[] },
  ): History & { metaLines: string[] } {
    const mine = this.ints.subarray(0, this.length);
    const ints = older === undefined ? mine.slice() : concat(mine, older.ints);
    const metaLines = older === undefined ? this.meta : [...this.meta, ...older.meta];
    const commits = this.commits + (older?.commits ?? 0);
    return {
      head,
      paths: this.paths,
      ints,
      commits,
      ...indexHistory(ints, commits, this.paths.length),
      metaLines,
      meta: () => metaLines,
    };
  }

  private idOf(path: string): number {
    let id = this.ids.get(path);
    if (id === undefined) {
      id = this.paths.length;
      this.paths.push(path);
      this.ids.set(path, id);
    }
    return id;
  }

  private reserve(extra: number): void {
    if (this.length + extra <= this.ints.length) return;
    let size = this.ints.length * 2;
    while (size < this.length + extra) size *= 2;
    const grown = new Uint32Array(size);
    grown.set(this.ints.subarray(0, this.length));
    this.ints = grown;
  }
}

/**
 * The index over the runs. Each path's posting list is ordered by the size of its commits (then newest first),
 * so the commits a max_commit_files setting analyses are a prefix of it: a path's revision count is one binary
 * search, however long its history.
 */
export function indexHistory(ints: Uint32Array, commits: number, paths: number): HistoryIndex {
  const offsets = new Uint32Array(commits);
  const sizes = new Uint32Array(HARD_CAP + 2);
  const postingStarts = new Uint32Array(paths + 1);
  let at = 0;
  for (let c = 0; c < commits; c++) {
    offsets[c] = at;
    const stored = ints[at + 1] as number;
    const size = Math.min(ints[at] as number, HARD_CAP + 1);
    sizes[size] = (sizes[size] as number) + 1;
    for (let i = at + 2; i < at + 2 + stored; i++) {
      const next = (ints[i] as number) + 1;
      postingStarts[next] = (postingStarts[next] as number) + 1;
    }
    at += 2 + stored;
  }
  for (let p = 0; p < paths; p++)
    postingStarts[p + 1] = (postingStarts[p + 1] as number) + (postingStarts[p] as number);
  // Commits in (size, index) order, by a counting sort on size; filling the lists in that order sorts each one.
  const firstOfSize = new Uint32Array(HARD_CAP + 2);
  for (let n = 1; n < sizes.length; n++) firstOfSize[n] = (firstOfSize[n - 1] as number) + (sizes[n - 1] as number);
  const bySize = new Uint32Array(commits);
  for (let c = 0; c < commits; c++) {
    const size = Math.min(ints[offsets[c] as number] as number, HARD_CAP + 1);
    const slot = firstOfSize[size] as number;
    bySize[slot] = c;
    firstOfSize[size] = slot + 1;
  }
  const postings = new Uint32Array(postingStarts[paths] as number);
  const fill = postingStarts.slice(0, paths);
  for (const c of bySize) {
    const start = (offsets[c] as number) + 2;
    const end = start + (ints[start - 1] as number);
    for (let i = start; i < end; i++) {
      const id = ints[i] as number;
      const slot = fill[id] as number;
      postings[slot] = c;
      fill[id] = slot + 1;
    }
  }
  return { offsets, postingStarts, postings, sizes };
}

function concat(a: Uint32Array, b: Uint32Array): Uint32Array {
  const out = new Uint32Array(a.length + b.length);
  out.set(a, 0);
  out.set(b, a.length);
  return out;
}
