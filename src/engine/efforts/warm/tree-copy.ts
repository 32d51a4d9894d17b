// Copies one directory of installed dependencies from the main checkout into a new worktree, so that the copy is
// safe to change in either checkout (docs/decisions/0053-warm-worktrees.md):
// - each file is a copy-on-write clone where the filesystem makes one (the FICLONE ioctl on Linux, clonefile on
//   macOS: what `cp --reflink=auto` and `cp -c` use), else a copy of its bytes; a file under pnpm's virtual store
//   that already has other hard links is the store's, which pnpm never changes in place, and is linked again;
// - a relative symbolic link is kept as written; one that leads into the main checkout (absolute) or out of it
//   (relative) would tie the worktree to the main checkout, and the whole entry is skipped;
// - `.cache` directories (absolute paths) and virtualenvs (a pyvenv.cfg) inside it are left out;
// - modes and modification times are kept: npm trusts its hidden lockfile only when no package folder is newer.
// The tree is walked first (sizes, links), so a skip costs no copying; then it is written under a staging name
// and renamed into place, so a copy cut short by a kill or a failure never stands where the install belongs.
import { constants } from 'node:fs';
import { copyFile, link, lstat, mkdir, readdir, readlink, rename, rm, symlink, utimes } from 'node:fs/promises';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { mibText } from '../../../core/units.js';
import { killAt } from '../../faults.js';
import { mapLimited } from '../../process/limit.js';

type Env = Readonly<Record<string, string | undefined>>;

export interface TreeCopyRequest {
  /** The directory in the main checkout. */
  source: string;
  /** Where it goes in the new worktree; must not exist. */
  target: string;
  /** A directory on the target's filesystem for the copy in progress (it is created, and removed after). */
  staging: string;
  /** The main checkout's root: links into it are not copied. */
  mainRoot: string;
  limitBytes: number;
  env: Env;
  signal?: AbortSignal;
  onProgress?: (progress: CopyProgress) => void;
}

export interface CopyProgress {
  files: number;
  bytes: number;
  totalFiles: number;
  totalBytes: number;
}

export type TreeCopyResult =
  | { ok: true; bytes: number; files: number; linked: number; method: 'clone' | 'copy' }
  | { ok: false; skipped: boolean; reason: string };

interface FileEntry {
  rel: string;
  size: number;
  atime: Date;
  mtime: Date;
  link: boolean;
}

interface Walked {
  dirs: { rel: string; atime: Date; mtime: Date }[];
  files: FileEntry[];
  links: { rel: string; target: string }[];
  bytes: number;
}

/** How many file operations are in flight at once: enough to keep libuv's thread pool busy. */
const IN_FLIGHT = 32;

export async function copyTree(request: TreeCopyRequest): Promise<TreeCopyResult> {
  const walked = await walk(request).catch((error: Error) => ({ refused: `it could not be read: ${error.message}` }));
  if ('refused' in walked) return { ok: false, skipped: true, reason: walked.refused };
  if (walked.bytes > request.limitBytes)
    return {
      ok: false,
      skipped: true,
      reason: `it holds ${mibText(walked.bytes)}, more than [worktree] copy_max_mib (${mibText(request.limitBytes)})`,
    };
  const staged = join(request.staging, 'tree');
  try {
    await rm(request.staging, { recursive: true, force: true });
    await mkdir(request.staging, { recursive: true });
    const method = await write(walked, staged, request);
    await mkdir(dirname(request.target), { recursive: true });
    await rename(staged, request.target);
    await rm(request.staging, { recursive: true, force: true });
    const linked = walked.files.filter((f) => f.link).length;
    return {
      ok: true,
      bytes: walked.bytes,
      files: walked.files.length,
      linked,
      method,
    };
  } catch (error) {
    await rm(request.staging, { recursive: true, force: true }).catch(() => undefined);
    const cancelled = request.signal?.aborted === true;
    return { ok: false, skipped: false, reason: cancelled ? 'it was cancelled' : (error as Error).message };
  }
}

async function walk(request: TreeCopyRequest): Promise<Walked | { refused: string }> {
  const walked: Walked = { dirs: [], files: [], links: [], bytes: 0 };
  const top = await lstat(request.source);
  walked.dirs.push({ rel: '', atime: top.atime, mtime: top.mtime });
  let pending = [''];
  const virtualenvs = new Set<string>();
  while (pending.length > 0) {
    const next: string[] = [];
    const listed = await inBatches(pending, async (rel) => {
      const dirents = await readdir(join(request.source, rel), { withFileTypes: true });
      // A virtualenv below the top holds absolute paths too: left out with its whole subtree.
      if (rel !== '' && dirents.some((d) => d.name === 'pyvenv.cfg' && d.isFile())) {
        virtualenvs.add(rel);
        return [];
      }
      return dirents.filter((d) => !(d.isDirectory() && d.name === '.cache')).map((d) => join(rel, d.name));
    });
    const children = listed.flat();
    const stats = await inBatches(children, (rel) => lstat(join(request.source, rel)));
    for (const [i, rel] of children.entries()) {
      const stat = stats[i];
      if (stat === undefined) continue;
      if (stat.isDirectory()) {
        walked.dirs.push({ rel, atime: stat.atime, mtime: stat.mtime });
        next.push(rel);
      } else if (stat.isSymbolicLink()) {
        const target = await readlink(join(request.source, rel));
        const refused = linkProblem(request, rel, target);
        if (refused !== undefined) return { refused };
        walked.links.push({ rel, target });
      } else if (stat.isFile()) {
        const storeLink = stat.nlink > 1 && inPnpmStore(rel);
        walked.files.push({ rel, size: stat.size, atime: stat.atime, mtime: stat.mtime, link: storeLink });
        if (!storeLink) walked.bytes += stat.size;
      }
      // Sockets, FIFOs and devices are no part of an install: left out.
    }
    pending = next;
  }
  if (virtualenvs.size > 0) walked.dirs = walked.dirs.filter((dir) => !virtualenvs.has(dir.rel));
  return walked;
}

/** Why a link cannot be copied as written, or undefined when it can. */
function linkProblem(request: TreeCopyRequest, rel: string, target: string): string | undefined {
  const from = join(request.source, rel);
  if (isAbsolute(target))
    return inside(target, request.mainRoot)
      ? `${relative(request.mainRoot, from)} links to ${target}, in the main checkout: the copy would use the main checkout's files`
      : undefined;
  const resolved = resolve(dirname(from), target);
  return inside(resolved, request.mainRoot)
    ? undefined
    : `${relative(request.mainRoot, from)} links to ${target}, out of the checkout: from the new worktree it would lead elsewhere`;
}

function inside(path: string, dir: string): boolean {
  const rel = relative(dir, path);
  return rel === '' || (!rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel));
}

/** pnpm's virtual store (`node_modules/.pnpm/…`), whose files are hard links into pnpm's content-addressed store. */
function inPnpmStore(rel: string): boolean {
  return rel.split(sep).includes('.pnpm');
}

async function write(walked: Walked, staged: string, request: TreeCopyRequest): Promise<'clone' | 'copy'> {
  for (const dir of walked.dirs) await mkdir(join(staged, dir.rel), { recursive: true });
  await inBatches(walked.links, (l) => symlink(l.target, join(staged, l.rel)));
  const copies = walked.files.filter((f) => !f.link);
  // One clone forced first says whether this filesystem clones; then every file is cloned or copied alike.
  let method: 'clone' | 'copy' = 'copy';
  const [first] = copies;
  if (first !== undefined) {
    method = await copyFile(join(request.source, first.rel), join(staged, first.rel), constants.COPYFILE_FICLONE_FORCE)
      .then(() => 'clone' as const)
      .catch(async () => {
        await copyFile(join(request.source, first.rel), join(staged, first.rel));
        return 'copy' as const;
      });
  }
  const flags = method === 'clone' ? constants.COPYFILE_FICLONE : 0;
  const total = { totalFiles: walked.files.length, totalBytes: walked.bytes };
  let files = 0;
  let bytes = 0;
  const halfway = Math.floor(walked.files.length / 2);
  await inBatches(walked.files, async (file) => {
    if (request.signal?.aborted === true) throw new Error('cancelled');
    const from = join(request.source, file.rel);
    const to = join(staged, file.rel);
    if (file.link) await link(from, to);
    else if (file !== first) await copyFile(from, to, flags);
    if (!file.link) await utimes(to, file.atime, file.mtime);
    files++;
    bytes += file.link ? 0 : file.size;
    if (files === halfway) killAt(request.env, 'start:copy-halfway');
    if (files % 256 === 0 || files === walked.files.length) request.onProgress?.({ files, bytes, ...total });
  });
  // Directories last, deepest first: writing into one sets its time.
  for (const dir of [...walked.dirs].reverse()) await utimes(join(staged, dir.rel), dir.atime, dir.mtime);
  return method;
}

function inBatches<T, R>(items: readonly T[], task: (item: T) => Promise<R>): Promise<R[]> {
  return mapLimited(items, IN_FLIGHT, task);
}
