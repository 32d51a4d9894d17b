// Size and modification time of the files a run starts with dirty, so a fixer that rewrites a file already
// being edited is noticed too (comparing dirty-path sets alone would miss it). Bounded: beyond the cap the
// remaining paths are compared as paths only.
import { lstat } from 'node:fs/promises';
import { join } from 'node:path';

const STAMPED = 5000;

export type Stamps = ReadonlyMap<string, string>;

export async function stampFiles(root: string, paths: Iterable<string>): Promise<Map<string, string>> {
  const stamps = new Map<string, string>();
  const list = [...paths].slice(0, STAMPED);
  await Promise.all(
    list.map(async (path) => {
      const info = await lstat(join(root, path)).catch(() => undefined);
      stamps.set(path, info ? `${info.size}:${info.mtimeMs}` : 'absent');
    }),
  );
  return stamps;
}

/** Paths stamped before whose size or modification time differs now. */
export async function restamped(root: string, before: Stamps): Promise<string[]> {
  const after = await stampFiles(root, before.keys());
  return [...before].filter(([path, stamp]) => after.get(path) !== stamp).map(([path]) => path);
}
