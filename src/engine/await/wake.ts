// Waits until something changes in any of a few directories (fs.watch, not recursive: git replaces a ref or a
// marker file by renaming into its directory, which the directory's watcher sees), until a slow poll interval
// passes (a file system without change events still gets checked), or until the signal aborts. No busy loop.
import { watch, type FSWatcher } from 'node:fs';

export type Wake = 'change' | 'poll' | 'aborted';

export function waitForChange(dirs: readonly string[], pollMs: number, signal: AbortSignal): Promise<Wake> {
  return new Promise((resolve) => {
    const watchers: FSWatcher[] = [];
    let settled = false;
    const done = (why: Wake): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
      for (const w of watchers) w.close();
      resolve(why);
    };
    const onAbort = (): void => done('aborted');
    const timer = setTimeout(() => done('poll'), pollMs);
    if (signal.aborted) return done('aborted');
    signal.addEventListener('abort', onAbort, { once: true });
    for (const dir of new Set(dirs)) {
      try {
        const w = watch(dir, { persistent: true }, () => done('change'));
        w.on('error', () => undefined);
        watchers.push(w);
      } catch {
        // A directory that does not exist yet is covered by the poll.
      }
    }
  });
}
