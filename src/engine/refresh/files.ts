// The files refresh and uninstall read and write, always inside the project: a path is resolved through
// symbolic links first (CLAUDE.md is often a link to AGENTS.md), and one that leads outside the project, to
// nothing, or to a folder is refused rather than followed. Writes go to a temp file in the same folder and are
// renamed over the target, so a reader never sees half a file, and keep the file's permission bits.
import { createHash } from 'node:crypto';
import { constants } from 'node:fs';
import { access, lstat, readFile, readdir, realpath, rmdir, stat, unlink } from 'node:fs/promises';
import { dirname, join, relative, sep } from 'node:path';
import { errorCode, writeFileAtomic } from '../state/atomic-write.js';

export interface ProjectFile {
  /** The path as named, project-relative with `/`. */
  rel: string;
  /** Where it really is, project-relative: `rel` unless a link on the way leads elsewhere in the project. */
  real: string;
  /** The file's text, or null when it does not exist. */
  text: string | null;
  /** Permission bits of an existing file. */
  mode?: number;
}

export type FileRead = { ok: true; file: ProjectFile } | { ok: false; reason: string };

/** The reason readProjectFile gives for a folder, for callers that expect one. */
export const FOLDER = 'is a folder, not a file';

/** sha256 of a file's text; the digest of an absent file is null. */
export function digestOf(text: string | null): string | null {
  return text === null ? null : createHash('sha256').update(text, 'utf8').digest('hex');
}

export async function readProjectFile(root: string, rel: string): Promise<FileRead> {
  const realRoot = await realpath(root);
  const located = await locate(realRoot, join(root, rel));
  if (!located.ok) return located;
  const real = located.real;
  const realRel = toRel(realRoot, real);
  if (!located.exists) return { ok: true, file: { rel, real: realRel, text: null } };
  let info;
  try {
    info = await stat(real);
  } catch (error) {
    return { ok: false, reason: `cannot be read (${errorCode(error) ?? String(error)})` };
  }
  if (!info.isFile()) return { ok: false, reason: info.isDirectory() ? FOLDER : 'is not a regular file' };
  try {
    return { ok: true, file: { rel, real: realRel, text: await readFile(real, 'utf8'), mode: info.mode & 0o7777 } };
  } catch (error) {
    return { ok: false, reason: `cannot be read (${errorCode(error) ?? String(error)})` };
  }
}

type Located = { ok: true; exists: boolean; real: string } | { ok: false; reason: string };

/** Resolves links on the way to `abs`; the path need not exist, but whatever exists of it must be in the project. */
async function locate(realRoot: string, abs: string): Promise<Located> {
  const link = await lstat(abs).then(
    (info) => info.isSymbolicLink(),
    () => false,
  );
  try {
    const real = await realpath(abs);
    if (!inside(realRoot, real))
      return { ok: false, reason: `leads outside the project (to ${real}); discern writes only inside it` };
    return { ok: true, exists: true, real };
  } catch (error) {
    const code = errorCode(error);
    if (link) return { ok: false, reason: 'is a symbolic link to something that does not exist' };
    if (code !== 'ENOENT' && code !== 'ENOTDIR')
      return { ok: false, reason: `cannot be reached (${code ?? String(error)})` };
  }
  // Absent: where it would be created, once the links of the part that exists are resolved.
  let parent = dirname(abs);
  const rest: string[] = [abs.slice(parent.length + 1)];
  for (;;) {
    try {
      const real = await realpath(parent);
      if (!inside(realRoot, real))
        return {
          ok: false,
          reason: `would be created outside the project (under ${real}); discern writes only inside it`,
        };
      return { ok: true, exists: false, real: join(real, ...rest) };
    } catch {
      const up = dirname(parent);
      if (up === parent) return { ok: false, reason: 'has no existing folder above it' };
      rest.unshift(parent.slice(up.length + 1));
      parent = up;
    }
  }
}

function inside(root: string, path: string): boolean {
  return path === root || path.startsWith(root + sep);
}

function toRel(realRoot: string, real: string): string {
  return relative(realRoot, real).split(sep).join('/');
}

/**
 * Why `rel` (a real path) cannot be written or removed, or undefined when it can: the file itself when it
 * exists, and the folder it is in (a write replaces the file by rename there); for a new file, the nearest
 * folder that exists, which must be a folder and writable.
 */
export async function writeDenied(root: string, rel: string): Promise<string | undefined> {
  const abs = join(root, rel);
  const exists = await lstat(abs).then(
    () => true,
    () => false,
  );
  if (exists && !(await writable(abs))) return `${rel} is not writable`;
  let dir = dirname(abs);
  for (;;) {
    let info;
    try {
      info = await stat(dir);
    } catch (error) {
      const code = errorCode(error);
      if (code === 'ENOENT') {
        dir = dirname(dir);
        continue;
      }
      if (code === 'ENOTDIR') {
        dir = dirname(dir);
        continue;
      }
      return `${toRel(root, dir) || '.'} cannot be reached (${code ?? String(error)})`;
    }
    const where = toRel(root, dir) || 'the project folder';
    if (!info.isDirectory()) return `${where} is a file, so ${rel} cannot be created`;
    if (!(await writable(dir)))
      return `${where} is not writable, so ${rel} cannot be ${exists ? 'replaced' : 'created'}`;
    return undefined;
  }
}

async function writable(path: string): Promise<boolean> {
  return access(path, constants.W_OK).then(
    () => true,
    () => false,
  );
}

/** Writes the whole file by temp file and rename, keeping the mode of the file it replaces. */
export async function writeProjectFile(
  root: string,
  rel: string,
  text: string,
  mode: number | undefined,
): Promise<void> {
  await writeFileAtomic(join(root, rel), text, mode === undefined ? {} : { mode });
}

/** Removes the file, then each folder above it that this left empty (never the project folder itself). */
export async function removeProjectFile(root: string, rel: string): Promise<void> {
  await unlink(join(root, rel)).catch((error: unknown) => {
    if (errorCode(error) !== 'ENOENT') throw error;
  });
  let dir = dirname(join(root, rel));
  while (dir !== root && dir.startsWith(root + sep)) {
    const entries = await readdir(dir).catch(() => ['?']);
    if (entries.length > 0) return;
    await rmdir(dir).catch(() => undefined);
    dir = dirname(dir);
  }
}

/** The text now at `rel`, or null when nothing is there. */
export async function currentText(root: string, rel: string): Promise<string | null> {
  try {
    return await readFile(join(root, rel), 'utf8');
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return null;
    throw error;
  }
}
