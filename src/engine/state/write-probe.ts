// Probes, before an effectful verb changes anything, that each path it will write can be written: a file that
// exists must be writable, and the nearest directory that exists on the way to it must take a new file (a
// temp file is created and removed there). Nothing the probe touches stays behind, and no directory is made:
// a denied path is reported exactly, and the verb refuses with nothing changed (write_denied).
import { constants } from 'node:fs';
import { access, open, rm, stat } from 'node:fs/promises';
import { dirname } from 'node:path';
import { errorCode, tempPathFor } from './atomic-write.js';

export type WriteProbe = { ok: true } | { ok: false; path: string; reason: string };

/** The first of `targets` (files discern will write) that cannot be written, in order. */
export async function probeWrites(targets: readonly string[]): Promise<WriteProbe> {
  for (const target of targets) {
    const probed = await probeOne(target);
    if (!probed.ok) return probed;
  }
  return { ok: true };
}

async function probeOne(target: string): Promise<WriteProbe> {
  const info = await stat(target).catch((error: unknown) => errorCode(error));
  if (typeof info === 'object') {
    if (info.isDirectory()) return { ok: false, path: target, reason: 'it is a directory' };
    const writable = await access(target, constants.W_OK).then(
      () => undefined,
      (error: unknown) => errorCode(error) ?? 'not writable',
    );
    if (writable !== undefined) return { ok: false, path: target, reason: writable };
  } else if (info !== 'ENOENT') {
    // ENOTDIR: something on the way is a file; anything else (EACCES) is as final.
    return { ok: false, path: await blocking(target), reason: info ?? 'cannot be read' };
  }
  const dir = await nearestDirectory(dirname(target));
  if (!dir.ok) return dir;
  const temp = tempPathFor(`${dir.path}/probe`);
  try {
    const handle = await open(temp, 'wx');
    await handle.close();
    return { ok: true };
  } catch (error) {
    return { ok: false, path: dir.path, reason: errorCode(error) ?? String(error) };
  } finally {
    await rm(temp, { force: true }).catch(() => undefined);
  }
}

/** The deepest existing directory on the way to `dir`; a file there is the exact path that blocks it. */
async function nearestDirectory(
  dir: string,
): Promise<{ ok: true; path: string } | { ok: false; path: string; reason: string }> {
  for (let at = dir; ; at = dirname(at)) {
    const info = await stat(at).catch(() => undefined);
    if (info?.isDirectory()) return { ok: true, path: at };
    if (info !== undefined) return { ok: false, path: at, reason: 'it is not a directory' };
    if (dirname(at) === at) return { ok: false, path: at, reason: 'it does not exist' };
  }
}

/** For a path git or the file system refuses with ENOTDIR: the file that stands where a directory must be. */
async function blocking(target: string): Promise<string> {
  for (let at = dirname(target); dirname(at) !== at; at = dirname(at)) {
    const info = await stat(at).catch(() => undefined);
    if (info !== undefined) return info.isDirectory() ? target : at;
  }
  return target;
}
