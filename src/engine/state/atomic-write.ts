// Whole-file writes that readers can never observe half-done. Several discern processes (worktrees, agents, the
// CLI beside the MCP server) read each other's state files while they are being rewritten; a plain
// writeFile truncates first and fills later, so a reader could parse an empty or cut-off document. Instead the
// bytes go to a temp file in the same directory (rename is atomic only within one file system), are fsynced,
// and the temp file is renamed over the target: a reader opens either the old inode or the new one.
//
// createFileExclusive is the "only if absent" sibling used for lock files and fresh journal records: the
// complete temp file is hard-linked to the target, which fails with EEXIST when the target exists — O_EXCL
// semantics, but the file appears with its full content at once. File systems without hard links fall back to
// open(O_CREAT|O_EXCL) + write, where a reader may briefly see a short file (callers tolerate that).
import { randomHex } from './random.js';
import {
  closeSync,
  fchmodSync,
  fsyncSync,
  linkSync,
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import { link, mkdir, open, readFile, rename, unlink } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

export interface WriteOptions {
  /** Permission bits of the file, applied exactly (not filtered through the umask). */
  mode?: number;
  /**
   * fsync the data and the directory (default true). Lock files turn it off: a lock means nothing after a
   * reboot (every holder is gone), so paying for durability there only slows the race.
   */
  fsync?: boolean;
}

/** Where a temp file for `target` goes: the same directory, a name no other process or call can pick. */
export function tempPathFor(target: string): string {
  return join(dirname(target), `.${basename(target)}.${process.pid}.${randomHex(6)}.tmp`);
}

/** Temp files are recognisable so that a sweeper can remove the ones a killed process left behind. */
export function isTempName(name: string): boolean {
  return name.startsWith('.') && name.endsWith('.tmp');
}

export async function writeFileAtomic(
  path: string,
  data: string | Uint8Array,
  options: WriteOptions = {},
): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  const temp = await writeTemp(path, data, options);
  try {
    await rename(temp, path);
  } catch (error) {
    await unlink(temp).catch(() => undefined);
    throw error;
  }
  if (options.fsync !== false) syncDirectory(dirname(path));
}

export function writeFileAtomicSync(path: string, data: string | Uint8Array, options: WriteOptions = {}): void {
  mkdirSync(dirname(path), { recursive: true });
  const temp = writeTempSync(path, data, options);
  try {
    renameSync(temp, path);
  } catch (error) {
    removeQuietly(temp);
    throw error;
  }
  if (options.fsync !== false) syncDirectory(dirname(path));
}

/** Creates `path` with `data` only if nothing is there; false when it already exists. */
export async function createFileExclusive(
  path: string,
  data: string | Uint8Array,
  options: WriteOptions = {},
): Promise<boolean> {
  await mkdir(dirname(path), { recursive: true });
  const temp = await writeTemp(path, data, options);
  try {
    await link(temp, path);
  } catch (error) {
    if (errorCode(error) === 'EEXIST') return false;
    if (!linkUnsupported(error)) throw error;
    // No hard links here: plain O_EXCL, accepting that a reader may see the file before its bytes.
    return createWithOpenExclusiveSync(path, data, options);
  } finally {
    await unlink(temp).catch(() => undefined);
  }
  if (options.fsync !== false) syncDirectory(dirname(path));
  return true;
}

export function createFileExclusiveSync(path: string, data: string | Uint8Array, options: WriteOptions = {}): boolean {
  mkdirSync(dirname(path), { recursive: true });
  const temp = writeTempSync(path, data, options);
  try {
    linkSync(temp, path);
  } catch (error) {
    if (errorCode(error) === 'EEXIST') return false;
    if (!linkUnsupported(error)) throw error;
    return createWithOpenExclusiveSync(path, data, options);
  } finally {
    removeQuietly(temp);
  }
  if (options.fsync !== false) syncDirectory(dirname(path));
  return true;
}

export type JsonReadResult<T> =
  { ok: true; value: T } | { ok: false; reason: 'missing' | 'unreadable' | 'malformed'; detail: string };

/**
 * Reads and parses one JSON file. The value is not validated: `T` is the caller's expectation, which it must
 * check before trusting fields (files are written by other processes, possibly other discern versions).
 */
export async function readJsonFile<T = unknown>(path: string): Promise<JsonReadResult<T>> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    return readFailure(path, error);
  }
  return parseJson<T>(path, text);
}

export function readJsonFileSync<T = unknown>(path: string): JsonReadResult<T> {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    return readFailure(path, error);
  }
  return parseJson<T>(path, text);
}

function readFailure(path: string, error: unknown): { ok: false; reason: 'missing' | 'unreadable'; detail: string } {
  const code = errorCode(error);
  // ENOTDIR: a path component is a file, so the target cannot exist either.
  if (code === 'ENOENT' || code === 'ENOTDIR')
    return { ok: false, reason: 'missing', detail: `${path} does not exist` };
  return {
    ok: false,
    reason: 'unreadable',
    detail: `${path}: ${error instanceof Error ? error.message : String(error)}`,
  };
}

function parseJson<T>(path: string, text: string): JsonReadResult<T> {
  try {
    return { ok: true, value: JSON.parse(text) as T };
  } catch (error) {
    const why = text.length === 0 ? 'the file is empty' : error instanceof Error ? error.message : String(error);
    return { ok: false, reason: 'malformed', detail: `${path} is not valid JSON: ${why}` };
  }
}

async function writeTemp(target: string, data: string | Uint8Array, options: WriteOptions): Promise<string> {
  const temp = tempPathFor(target);
  // 'wx': the name is unique, but never follow or reuse something that happens to be there.
  const handle = await open(temp, 'wx', options.mode ?? 0o666);
  try {
    if (options.mode !== undefined) await handle.chmod(options.mode);
    await handle.writeFile(data);
    if (options.fsync !== false) await handle.sync();
    await handle.close();
  } catch (error) {
    await handle.close().catch(() => undefined);
    await unlink(temp).catch(() => undefined);
    throw error;
  }
  return temp;
}

function writeTempSync(target: string, data: string | Uint8Array, options: WriteOptions): string {
  const temp = tempPathFor(target);
  let fd: number | undefined;
  try {
    fd = openSync(temp, 'wx', options.mode ?? 0o666);
    if (options.mode !== undefined) fchmodSync(fd, options.mode);
    writeAll(fd, data);
    if (options.fsync !== false) fsyncSync(fd);
    closeSync(fd);
    fd = undefined;
  } catch (error) {
    if (fd !== undefined) closeQuietly(fd);
    removeQuietly(temp);
    throw error;
  }
  return temp;
}

function createWithOpenExclusiveSync(path: string, data: string | Uint8Array, options: WriteOptions): boolean {
  let fd: number;
  try {
    fd = openSync(path, 'wx', options.mode ?? 0o666);
  } catch (error) {
    if (errorCode(error) === 'EEXIST') return false;
    throw error;
  }
  try {
    if (options.mode !== undefined) fchmodSync(fd, options.mode);
    writeAll(fd, data);
    if (options.fsync !== false) fsyncSync(fd);
  } catch (error) {
    // Unlinking an open file is fine on POSIX; the descriptor is closed below.
    removeQuietly(path);
    throw error;
  } finally {
    closeQuietly(fd);
  }
  return true;
}

function writeAll(fd: number, data: string | Uint8Array): void {
  const bytes = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
  let offset = 0;
  while (offset < bytes.length) offset += writeSync(fd, bytes, offset, bytes.length - offset);
}

/**
 * Makes the rename itself durable. Best effort: some platforms and file systems refuse to open or fsync a
 * directory, and the file's own data is already safe by then.
 */
function syncDirectory(dir: string): void {
  let fd: number | undefined;
  try {
    fd = openSync(dir, 'r');
    fsyncSync(fd);
  } catch {
    // Not supported here; nothing more to do.
  } finally {
    if (fd !== undefined) closeQuietly(fd);
  }
}

function linkUnsupported(error: unknown): boolean {
  const code = errorCode(error);
  return code === 'EPERM' || code === 'ENOTSUP' || code === 'EOPNOTSUPP' || code === 'ENOSYS' || code === 'EXDEV';
}

export function errorCode(error: unknown): string | undefined {
  if (typeof error === 'object' && error !== null && 'code' in error) {
    const code = (error as { code: unknown }).code;
    if (typeof code === 'string') return code;
  }
  return undefined;
}

function closeQuietly(fd: number): void {
  try {
    closeSync(fd);
  } catch {
    // Already closed, or the descriptor is gone with a failed device: nothing to release.
  }
}

export function removeQuietly(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    // Already gone (or never created): the goal state.
  }
}
