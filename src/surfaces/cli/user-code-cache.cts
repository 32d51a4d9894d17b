// The user's own code cache (docs/decisions/0056): compiled bytecode for the bundle's files, kept under the user's
// cache directory for a V8 whose cache the build did not make, or for a file the build's calls never loaded.
// V8 runs cached bytecode after checking little more than its length, and a damaged payload crashes the process
// (a fatal V8 error, no result); so every file carries a CRC-32 of its payload, written last and checked before
// V8 sees a byte. A directory another user could write into is not used at all.
import fs = require('node:fs');
import path = require('node:path');

type Zlib = typeof import('node:zlib');
let zlib: Zlib | undefined;
// node:zlib loads with the first cache file read or written, not with every call.
const crc32 = (data: Uint8Array): number => (zlib ??= require('node:zlib') as Zlib).crc32(data);

/** How long a cache for another V8 or another build is kept once a new one is made. */
const STALE_MS = 30 * 24 * 60 * 60 * 1000;

/** DISCERN_CODE_CACHE, else discern/code-cache under the user's cache directory (XDG on every platform). */
function userCacheRoot(env: NodeJS.ProcessEnv): string | undefined {
  const named = env['DISCERN_CODE_CACHE'];
  if (named !== undefined && path.isAbsolute(named)) return named;
  const xdg = env['XDG_CACHE_HOME'];
  if (xdg !== undefined && path.isAbsolute(xdg)) return path.join(xdg, 'discern', 'code-cache');
  const home = env['HOME'] ?? env['USERPROFILE'];
  if (home !== undefined && path.isAbsolute(home)) return path.join(home, '.cache', 'discern', 'code-cache');
  return undefined;
}

/**
 * Whether `dir` may hold this user's bytecode: absent (it is made 0700 when first written), or a real directory
 * (not a link) this user owns that nobody else can write. Where there are no user ids (Windows) any directory is.
 */
function safeDirectory(dir: string): boolean {
  let info: fs.Stats;
  try {
    info = fs.lstatSync(dir);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ENOENT';
  }
  if (!info.isDirectory()) return false;
  const uid = process.getuid?.();
  return uid === undefined || (info.uid === uid && (info.mode & 0o022) === 0);
}

/** The payload of a cache file whose checksum holds; undefined for a missing, short or damaged one. */
function readChecked(file: string): Buffer | undefined {
  let bytes: Buffer;
  try {
    bytes = fs.readFileSync(file);
  } catch {
    return undefined;
  }
  if (bytes.length <= 4) return undefined;
  const payload = bytes.subarray(0, bytes.length - 4);
  return crc32(payload) === bytes.readUInt32LE(bytes.length - 4) ? payload : undefined;
}

/**
 * Writes the payload and its checksum whole or not at all: a temporary file of this process's own (created
 * exclusively), flushed to disk, then renamed over the cache file. The first time `dir` is made, caches of other
 * V8s or builds untouched for 30 days are removed beside it. Failures are swallowed: a cache that cannot be written
 * costs only the next call's speed.
 */
function writeChecked(dir: string, file: string, payload: Buffer): void {
  const made = !fs.existsSync(dir);
  const partial = `${file}.${process.pid}.${Math.random().toString(36).slice(2, 10)}.tmp`;
  try {
    fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
    if (!safeDirectory(dir)) return;
    const sum = Buffer.alloc(4);
    sum.writeUInt32LE(crc32(payload), 0);
    const fd = fs.openSync(partial, 'wx', 0o600);
    try {
      fs.writeSync(fd, payload);
      fs.writeSync(fd, sum);
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
    fs.renameSync(partial, file);
  } catch {
    try {
      fs.rmSync(partial, { force: true });
    } catch {
      // Nothing was left behind to remove.
    }
    return;
  }
  if (made) removeStale(path.dirname(dir), dir);
}

function removeStale(root: string, current: string): void {
  try {
    for (const entry of fs.readdirSync(root, { withFileTypes: true })) {
      const dir = path.join(root, entry.name);
      if (!entry.isDirectory() || dir === current) continue;
      if (Date.now() - fs.statSync(dir).mtimeMs > STALE_MS) fs.rmSync(dir, { recursive: true, force: true });
    }
  } catch {
    // Another process is pruning, or the root is not ours to list: the stale caches wait for the next time.
  }
}

export = { userCacheRoot, safeDirectory, readChecked, writeChecked };
