// Keeps a long-lived MCP server compact. V8 sizes its old generation for throughput and, with the short
// bursts of garbage a tool call leaves (parsed git output, validated envelopes, rendered Markdown), its first
// full collection comes only after a thousand or more calls; until then the server's resident memory climbs with
// dead objects, which on an agent's machine, where the server lives for the whole session, reads as a leak.
// So, once no call is running and the heap has grown by a set amount since the last collection, the server
// collects it itself, after the answer has gone out. (docs/decisions/0038-memory-under-sequential-load.md)
import { getHeapStatistics, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/** Growth of the used heap since the last collection that makes an idle server collect. */
const GROWTH_BYTES = 8 * 1024 * 1024;
/** A collection waits until the server has used this many times its last cost in CPU time, so collecting takes at
 *  most about a ninth of the server's CPU. CPU time, not wall time: on a loaded machine both stretch alike. */
const SPACING = 8;
/** How long without a call counts as the server being idle between an agent's calls, and the growth that is
 *  collected then. */
const QUIET_MS = 150;
const QUIET_GROWTH_BYTES = 1024 * 1024;

let collect: (() => void) | null | undefined;

/** V8's own `gc`, exposed for this process; null where the runtime refuses (the server then leaves it to V8). */
function collector(): (() => void) | null {
  if (collect !== undefined) return collect;
  try {
    setFlagsFromString('--expose-gc');
    let gc: unknown;
    try {
      gc = runInNewContext('gc') as unknown;
    } finally {
      // The function stays usable with the flag back off; left on, it would change V8's flag hash, and V8 would
      // refuse the code cache of every chunk loaded after it (docs/decisions/0042).
      setFlagsFromString('--no-expose-gc');
    }
    collect = typeof gc === 'function' ? (gc as () => void) : null;
  } catch {
    collect = null;
  }
  return collect;
}

function cpuMicros(): number {
  const { user, system } = process.cpuUsage();
  return user + system;
}

export interface IdleCollector {
  /** Called when a call has finished. */
  settled(): void;
}

/**
 * `busy` says whether a call is running. Two moments to collect: right after an answer, once the heap has grown
 * GROWTH_BYTES (a server answering calls back to back), and when no call has come for QUIET_MS and it has grown at
 * all (QUIET_GROWTH_BYTES): what stays resident between an agent's calls is then what the server keeps, not
 * garbage short of the larger threshold.
 */
export function idleCollector(busy: () => boolean): IdleCollector {
  // Taken now, not at the first collection: it makes a V8 context of its own, a one-off few MiB that belongs to
  // the server's start, not to the calls it then answers.
  collector();
  let baseline = getHeapStatistics().used_heap_size;
  let scheduled = false;
  let lastEnd = 0;
  let lastCost = 0;
  let quiet: NodeJS.Timeout | undefined;
  const spaced = (): boolean => cpuMicros() - lastEnd >= lastCost * SPACING;
  const grown = (): number => getHeapStatistics().used_heap_size - baseline;
  const collectNow = (): void => {
    const gc = collector();
    if (gc === null) return;
    const began = cpuMicros();
    gc();
    lastEnd = cpuMicros();
    lastCost = lastEnd - began;
    baseline = getHeapStatistics().used_heap_size;
  };
  return {
    settled() {
      if (quiet !== undefined) clearTimeout(quiet);
      // Unref'd: a pending collection never keeps a closing server alive.
      quiet = setTimeout(() => {
        quiet = undefined;
        if (!busy() && !scheduled && grown() >= QUIET_GROWTH_BYTES && spaced()) collectNow();
      }, QUIET_MS).unref();
      if (busy() || scheduled) return;
      if (grown() < GROWTH_BYTES || !spaced()) return;
      scheduled = true;
      // setImmediate: the answer is written to stdout first; a call that arrived meanwhile keeps the heap as is.
      setImmediate(() => {
        scheduled = false;
        collectNow();
      });
    },
  };
}
