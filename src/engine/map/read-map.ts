// Reads the project's map folder ([map] dir) into a corpus. The folder must lie inside the project root once
// symbolic links are resolved; inside it, symbolic links, dot-entries and non-Markdown files are skipped, and
// so is any page over a size limit, so a map read never reaches outside the project or stalls on a huge file.
// Skipped links and pages, unreadable front matter and renamed pages come back as notices: none is silent.
import { lstat, readFile, readdir, readlink, realpath, stat } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { frontMatterReader } from '../corpus/front-matter.js';
import { assembleCorpus, type SourceFile } from '../corpus/assemble.js';
import type { Corpus } from '../corpus/types.js';
import type { DiscernMapNotice } from '../../../generated/types.js';
import { DEFAULT_MAP_DIR } from '../config/defaults.js';

const PAGE_LIMIT_BYTES = 1024 * 1024;

/** Why there is no usable map: each reason has its own message here and its own next action in the verb. */
export type NoMapReason = 'missing' | 'dangling-link' | 'not-a-directory' | 'under-a-file' | 'escapes' | 'unreadable';

export type MapRead =
  | { ok: true; dir: string; absolute: string; corpus: Corpus; notices: DiscernMapNotice[] }
  | { ok: false; dir: string; reason: NoMapReason; message: string };

export async function readMap(root: string, setting: string | undefined): Promise<MapRead> {
  const dir = (setting ?? DEFAULT_MAP_DIR).replace(/^\.\//, '').replace(/\/+$/, '');
  const candidate = join(root, dir);
  let absolute: string;
  try {
    absolute = await realpath(candidate);
  } catch (error) {
    return { ok: false, dir, ...(await unresolved(candidate, dir, root, (error as NodeJS.ErrnoException).code)) };
  }
  const realRoot = await realpath(root);
  if (absolute !== realRoot && !absolute.startsWith(realRoot + sep)) {
    return {
      ok: false,
      dir,
      reason: 'escapes',
      message: `[map] dir ${dir} resolves outside the project (${absolute}); the map must live inside it.`,
    };
  }
  if (!(await stat(absolute)).isDirectory())
    return { ok: false, dir, reason: 'not-a-directory', message: `[map] dir ${dir} is a file, not a folder.` };
  const files: SourceFile[] = [];
  const skipped: DiscernMapNotice[] = [];
  try {
    await collect(absolute, absolute, files, skipped);
  } catch (error) {
    return {
      ok: false,
      dir,
      reason: 'unreadable',
      message: `The map under ${dir}/ cannot be read: ${(error as NodeJS.ErrnoException).code ?? String(error)}.`,
    };
  }
  files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const { corpus, problems } = assembleCorpus(files, await frontMatterReader());
  const notices = [...skipped, ...problems.map(({ kind, path, message }) => ({ kind, path, message }))];
  notices.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return { ok: true, dir, absolute, corpus, notices };
}

/** Why the map folder's path does not resolve: nothing there, a link to nothing, a file on the way, or other. */
async function unresolved(
  candidate: string,
  dir: string,
  root: string,
  code: string | undefined,
): Promise<{ reason: NoMapReason; message: string }> {
  if (code === 'ENOTDIR')
    return { reason: 'under-a-file', message: `[map] dir ${dir} cannot be a folder: a part of its path is a file.` };
  if (code !== 'ENOENT')
    return { reason: 'unreadable', message: `The map folder ${dir}/ cannot be reached: ${code ?? 'unknown error'}.` };
  const link = await readlink(candidate).catch(() => undefined);
  if (link !== undefined)
    return {
      reason: 'dangling-link',
      message: `[map] dir ${dir} is a symbolic link to ${link}, which does not exist.`,
    };
  return { reason: 'missing', message: `The project has no map: ${dir}/ does not exist under ${root}.` };
}

async function collect(base: string, folder: string, files: SourceFile[], skipped: DiscernMapNotice[]): Promise<void> {
  for (const name of await readdir(folder)) {
    if (name.startsWith('.')) continue;
    const full = join(folder, name);
    const rel = relative(base, full).split(sep).join('/');
    const info = await lstat(full);
    if (info.isSymbolicLink())
      skipped.push({ kind: 'symbolic-link', path: rel, message: 'a symbolic link; the map does not follow them' });
    else if (info.isDirectory()) await collect(base, full, files, skipped);
    else if (!info.isFile() || !/\.md$/i.test(name)) continue;
    else if (info.size > PAGE_LIMIT_BYTES)
      skipped.push({ kind: 'too-large', path: rel, message: `${info.size} bytes, over the 1 MiB limit for a page` });
    else files.push({ path: rel, text: await readFile(full, 'utf8') });
  }
}
