// The co-change history cached per HEAD under <git-common-dir>/discern/coupling/, shared by every worktree:
//   <head>.bin  a one-line JSON header, padding to a 4-byte boundary, the integer sections (host byte order:
//               the commit runs and their index, see history.ts), then the path table as UTF-8 joined by NUL —
//               one read, and the numbers are viewed in place, never parsed;
//   <head>.log  one line per commit (sha, date, subject), read only for evidence.
// Both are written whole and renamed into place (the .log first), so a reader sees a complete pair or a miss.
// The cache is disposable: anything unexpected in it is a miss, and the history is read again. It keeps the
// few most recent heads (worktrees on different commits), dropping the oldest.
import { readFileSync, readdirSync, statSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { HARD_CAP, type History } from './history.js';

const FORMAT = 1;
/** The integer sections, in file order. */
const SECTIONS = ['ints', 'offsets', 'postingStarts', 'postings', 'sizes'] as const;
const KEPT = 4;
const LITTLE_ENDIAN = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;

interface Header {
  format: number;
  head: string;
  commits: number;
  /** Each section's length in integers, in SECTIONS order. */
  lengths: number[];
  hard_cap: number;
  paths: number;
  path_bytes: number;
  little_endian: boolean;
  /** A digest of <git-common-dir>/shallow, or null in a complete clone: deepening a clone changes the history. */
  shallow: string | null;
}

export function couplingCacheDir(commonDir: string): string {
  return join(commonDir, 'discern', 'coupling');
}

/** The history cached for `head`, or undefined when there is none usable (missing, foreign, cut off). */
export function readCachedHistory(dir: string, head: string, shallow: string | null): History | undefined {
  let bytes: Buffer;
  try {
    bytes = readFileSync(join(dir, `${head}.bin`));
  } catch {
    return undefined;
  }
  return decode(bytes, dir, head, shallow);
}

/** The most recently written cached history that is not `head`'s, for extending with the commits since. */
export function newestOtherHistory(dir: string, head: string, shallow: string | null): History | undefined {
  let names: string[];
  try {
    names = readdirSync(dir).filter((n) => n.endsWith('.bin') && n !== `${head}.bin`);
  } catch {
    return undefined;
  }
  const aged = names.map((n) => ({ n, t: mtime(join(dir, n)) })).sort((a, b) => b.t - a.t);
  const newest = aged[0];
  if (newest === undefined) return undefined;
  return readCachedHistory(dir, newest.n.slice(0, -'.bin'.length), shallow);
}

export async function writeCachedHistory(
  dir: string,
  history: History & { metaLines: string[] },
  shallow: string | null,
): Promise<void> {
  const pathBytes = Buffer.from(history.paths.join('\0'), 'utf8');
  const header: Header = {
    format: FORMAT,
    head: history.head,
    commits: history.commits,
    lengths: SECTIONS.map((name) => history[name].length),
    hard_cap: HARD_CAP,
    paths: history.paths.length,
    path_bytes: pathBytes.length,
    little_endian: LITTLE_ENDIAN,
    shallow,
  };
  let text = JSON.stringify(header);
  // The integers start on a 4-byte boundary so a reader can view them in place.
  while ((Buffer.byteLength(text) + 1) % 4 !== 0) text += ' ';
  const head = Buffer.from(`${text}\n`, 'utf8');
  const sections = SECTIONS.map((name) =>
    Buffer.from(history[name].buffer, history[name].byteOffset, history[name].byteLength),
  );
  // Loaded only here: a warm call reads the cache and never writes it.
  const { isTempName, writeFileAtomic } = await import('../state/atomic-write.js');
  // The cache can always be rebuilt, so it is not fsynced: a torn file after a crash fails the size checks.
  await writeFileAtomic(join(dir, `${history.head}.log`), `${history.head}\n${history.metaLines.join('\n')}\n`, {
    fsync: false,
  });
  await writeFileAtomic(join(dir, `${history.head}.bin`), Buffer.concat([head, ...sections, pathBytes]), {
    fsync: false,
  });
  prune(dir, history.head, isTempName);
}

/** The evidence lines of a cached history, newest first; undefined when the file does not match. */
export function readCachedMeta(dir: string, head: string, commits: number): string[] | undefined {
  let text: string;
  try {
    text = readFileSync(join(dir, `${head}.log`), 'utf8');
  } catch {
    return undefined;
  }
  const lines = text.split('\n');
  if (lines[0] !== head) return undefined;
  const meta = lines.slice(1, 1 + commits);
  return meta.length === commits ? meta : undefined;
}

function decode(bytes: Buffer, dir: string, head: string, shallow: string | null): History | undefined {
  const newline = bytes.indexOf(0x0a);
  if (newline < 0) return undefined;
  let header: Header;
  try {
    header = JSON.parse(bytes.toString('utf8', 0, newline)) as Header;
  } catch {
    return undefined;
  }
  if (
    header.format !== FORMAT ||
    header.head !== head ||
    header.little_endian !== LITTLE_ENDIAN ||
    header.shallow !== shallow ||
    header.hard_cap !== HARD_CAP
  )
    return undefined;
  if (!Array.isArray(header.lengths) || header.lengths.length !== SECTIONS.length) return undefined;
  const start = newline + 1;
  const pathsAt = start + header.lengths.reduce((sum, n) => sum + n * 4, 0);
  if (start % 4 !== 0 || pathsAt + header.path_bytes !== bytes.length) return undefined;
  // A buffer from Node's pool may start anywhere: view in place when aligned, copy otherwise.
  const aligned: Uint8Array = bytes.byteOffset % 4 === 0 ? bytes : new Uint8Array(bytes);
  const views: Uint32Array[] = [];
  let at = aligned.byteOffset + start;
  for (const length of header.lengths) {
    views.push(new Uint32Array(aligned.buffer, at, length));
    at += length * 4;
  }
  const [ints, offsets, postingStarts, postings, sizes] = views as [
    Uint32Array,
    Uint32Array,
    Uint32Array,
    Uint32Array,
    Uint32Array,
  ];
  const paths = header.path_bytes === 0 ? [] : bytes.toString('utf8', pathsAt, pathsAt + header.path_bytes).split('\0');
  if (
    paths.length !== header.paths ||
    offsets.length !== header.commits ||
    postingStarts.length !== paths.length + 1 ||
    sizes.length !== HARD_CAP + 2
  )
    return undefined;
  return {
    head,
    paths,
    ints,
    offsets,
    postingStarts,
    postings,
    sizes,
    commits: header.commits,
    meta: () => readCachedMeta(dir, head, header.commits),
  };
}

/** Keeps the newest heads, and removes temp files a killed writer left behind (an hour old: no write is that slow). */
function prune(dir: string, keep: string, isTempName: (name: string) => boolean): void {
  try {
    const names = readdirSync(dir);
    const stale = Date.now() - 3_600_000;
    for (const name of names)
      if (isTempName(name) && mtime(join(dir, name)) < stale) rmSync(join(dir, name), { force: true });
    const heads = names
      .filter((n) => n.endsWith('.bin'))
      .map((n) => ({ head: n.slice(0, -'.bin'.length), t: mtime(join(dir, n)) }))
      .sort((a, b) => b.t - a.t);
    for (const { head } of heads.slice(KEPT)) {
      if (head === keep) continue;
      rmSync(join(dir, `${head}.bin`), { force: true });
      rmSync(join(dir, `${head}.log`), { force: true });
    }
  } catch {
    // Another process pruned first, or the directory is unreadable: the next write tries again.
  }
}

function mtime(path: string): number {
  try {
    return statSync(path).mtimeMs;
  } catch {
    return 0;
  }
}
