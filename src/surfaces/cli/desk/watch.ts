// When to refresh the desk: a file event where the repository's state changes — refs (branches, notes), packed
// refs, each checkout's HEAD, the journal's operations, the landing queue's submissions and grants — debounced
// into one refresh, plus a slow poll because fs.watch is unreliable (its recursion is emulated on Linux under
// Node 20, it misses packed-refs rewrites, and files that appear later, such as a new worktree's HEAD, are
// only watched once reconcile() finds them). Events are filtered by name so that git's own index writes,
// which every status read may cause, never start a refresh loop.
import { existsSync, readdirSync, watch, type FSWatcher } from 'node:fs';
import { join } from 'node:path';

export interface RepositoryWatch {
  /** Watches what exists now and stops watching what went away (call after each refresh). */
  reconcile(): void;
  close(): void;
}

export interface WatchOptions {
  debounceMs: number;
  pollMs: number;
}

type Filter = (name: string | null) => boolean;

const ANY: Filter = () => true;
const HEAD_ONLY: Filter = (name) => name === 'HEAD';

export function watchRepository(commonDir: string, onChange: () => void, options: WatchOptions): RepositoryWatch {
  const watchers = new Map<string, FSWatcher>();
  let timer: NodeJS.Timeout | undefined;
  let closed = false;
  const changed = (): void => {
    if (closed) return;
    if (timer !== undefined) clearTimeout(timer);
    timer = setTimeout(() => {
      timer = undefined;
      onChange();
    }, options.debounceMs);
  };
  const targets = (): Array<[path: string, filter: Filter, recursive: boolean]> => {
    const discern = join(commonDir, 'discern');
    const worktrees = join(commonDir, 'worktrees');
    const list: Array<[string, Filter, boolean]> = [
      [commonDir, (name) => name === 'HEAD' || name === 'packed-refs' || name === 'worktrees', false],
      [join(commonDir, 'refs'), ANY, true],
      [worktrees, ANY, false],
      [join(discern, 'operations'), ANY, false],
      [join(discern, 'submissions'), ANY, false],
      [join(discern, 'grants'), ANY, false],
    ];
    for (const name of safeList(worktrees)) list.push([join(worktrees, name), HEAD_ONLY, false]);
    return list.filter(([path]) => existsSync(path));
  };
  const reconcile = (): void => {
    if (closed) return;
    const wanted = targets();
    const keep = new Set(wanted.map(([path]) => path));
    for (const [path, watcher] of watchers) {
      if (keep.has(path)) continue;
      watcher.close();
      watchers.delete(path);
    }
    for (const [path, filter, recursive] of wanted) {
      if (watchers.has(path)) continue;
      const watcher = open(
        path,
        recursive,
        (name) => {
          if (filter(name)) changed();
        },
        () => watchers.delete(path),
      );
      if (watcher !== undefined) watchers.set(path, watcher);
    }
  };
  const poll = setInterval(() => {
    if (!closed) onChange();
  }, options.pollMs);
  reconcile();
  return {
    reconcile,
    close: () => {
      closed = true;
      clearInterval(poll);
      if (timer !== undefined) clearTimeout(timer);
      for (const watcher of watchers.values()) watcher.close();
      watchers.clear();
    },
  };
}

/** A watcher, or none where the platform or the directory refuses one (the poll still covers it). */
function open(
  path: string,
  recursive: boolean,
  listener: (name: string | null) => void,
  ended: () => void,
): FSWatcher | undefined {
  for (const attempt of recursive ? [true, false] : [false]) {
    try {
      const watcher = watch(path, { recursive: attempt, persistent: false }, (_event, name) =>
        listener(name === null ? null : String(name)),
      );
      // A watched directory that is removed (a worktree torn down) ends its watcher; reconcile opens it again if
      // the directory comes back.
      watcher.on('error', () => {
        watcher.close();
        ended();
      });
      return watcher;
    } catch {
      // Try without recursion, or give up on this path.
    }
  }
  return undefined;
}

function safeList(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}
