// resources/list holds the pages of the project's map. They change when someone edits the map folder, or when
// a call re-aims the server (start, accept). discern watches no files: after a tool call it reads the list
// again, and sends notifications/resources/list_changed when it differs from the last one it read.
// Reading the list resolves the project and reads the map, which costs more than a quick call itself. So a call
// that ends within a second of the last read does not read the list at once. It leaves one read for when that
// second is up, and a change is still told within about a second. One read runs at a time, and a call that ends
// during a read asks for one more, under the same limit.
import type { ListedResource } from './resources.js';

export interface ResourceListWatch {
  /** Take the list again, and tell the client when it changed; never throws. */
  check(): void;
}

export function resourceListWatch(
  list: () => Promise<readonly ListedResource[]>,
  notify: () => void | Promise<void>,
  minIntervalMs = 1000,
): ResourceListWatch {
  let last: string | undefined;
  let running = false;
  let again = false;
  let lastRead = -Infinity;
  let timer: NodeJS.Timeout | undefined;

  const once = async (): Promise<void> => {
    lastRead = performance.now();
    let key: string;
    try {
      key = listKey(await list());
    } catch {
      // A list that cannot be read now tells the client nothing new; the next call looks again.
      return;
    }
    if (last !== undefined && key !== last) await Promise.resolve(notify()).catch(() => undefined);
    last = key;
  };
  const read = async (): Promise<void> => {
    running = true;
    again = false;
    try {
      await once();
    } finally {
      running = false;
    }
    // A call that ended during the read is looked at again, within the same one-read-a-second limit.
    if (again) check();
  };
  const check = (): void => {
    if (running) {
      again = true;
      return;
    }
    if (timer !== undefined) return;
    const wait = lastRead + minIntervalMs - performance.now();
    if (wait <= 0) {
      void read();
      return;
    }
    timer = setTimeout(() => {
      timer = undefined;
      check();
    }, wait);
    // A read still to come never keeps a server whose client has gone.
    timer.unref();
  };
  return { check };
}

/** The list as the client sees it, in one string: equal lists give equal strings. */
function listKey(resources: readonly ListedResource[]): string {
  const rows = resources.map((r) => JSON.stringify([r.uri, r.title, r.description, r.mimeType]));
  return rows.sort().join('\n');
}
