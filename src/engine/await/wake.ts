// Wakes a waiter when something changes in any of a few directories (fs.watch, not recursive: git replaces a
// ref or a marker file by renaming into its directory, which the directory's watcher sees), when a slow poll
// interval passes (a file system without change events still gets checked), or when the signal aborts.
//
// The watchers are set up before the first check and stay up between checks: a change that lands while the
// condition is being checked is remembered and wakes the next wait at once, so no change can fall into the gap
// between a check and the wait that follows it.
import { watch, type FSWatcher } from 'node:fs';

export type Wake = 'change' | 'poll' | 'aborted';

export class ChangeWaker {
  private readonly watchers: FSWatcher[] = [];
  private changed = false;
  private notify: (() => void) | undefined;

  constructor(dirs: readonly string[]) {
    for (const dir of new Set(dirs)) {
      try {
        const w = watch(dir, { persistent: false }, () => {
          this.changed = true;
          this.notify?.();
        });
        w.on('error', () => undefined);
        this.watchers.push(w);
      } catch {
        // A directory that does not exist yet is covered by the poll.
      }
    }
  }

  /** Call right before checking the condition: only changes from here on wake the next wait. */
  arm(): void {
    this.changed = false;
  }

  wait(pollMs: number, signal: AbortSignal): Promise<Wake> {
    if (signal.aborted) return Promise.resolve('aborted');
    if (this.changed) return Promise.resolve('change');
    return new Promise((resolve) => {
      const done = (why: Wake): void => {
        clearTimeout(timer);
        signal.removeEventListener('abort', onAbort);
        this.notify = undefined;
        resolve(why);
      };
      const onAbort = (): void => done('aborted');
      // The poll timer keeps the process alive while it waits; the watchers do not need to.
      const timer = setTimeout(() => done('poll'), pollMs);
      signal.addEventListener('abort', onAbort, { once: true });
      this.notify = () => done('change');
    });
  }

  close(): void {
    for (const w of this.watchers) w.close();
  }
}
