// Repository-wide capacity slots: at most `capacity` holders at once across every worktree and process (used to
// cap concurrent test runs, which would otherwise oversubscribe the machine when several agents prove their
// work together). Slot i is the lease lock `slot-<i>.lock` in a shared directory, so a slot whose holder died
// is reclaimed by the lock's own takeover rules, and a holder's details are readable by whoever waits.
//
// Waiting polls rather than watches: fs.watch is unreliable across platforms and network file systems, and a
// poll with backoff (≈50 ms rising to ≈1 s) costs little next to a test run. Slots with an index at or above
// the current capacity are ignored, so lowering the capacity lets running holders finish over the limit once.
import { join } from 'node:path';
import { acquireLease, inspectLease, type HolderInfo, type Lease } from './lease-lock.js';

export type Slot = Lease & { readonly index: number };

export interface SlotWaitInfo {
  capacity: number;
  /** Slots found held when the wait began. */
  held: number;
  /** What the holders wrote (null for a slot file that could not be read). */
  holders: Array<HolderInfo | null>;
}

export interface SlotOptions {
  leaseMs: number;
  holder?: Record<string, unknown>;
  signal?: AbortSignal;
  /** First poll interval (default 50 ms); it grows by half each time up to maxPollMs. */
  pollMs?: number;
  /** Longest poll interval (default 1000 ms). */
  maxPollMs?: number;
  /** Called once, when the first pass finds every slot held. */
  onWait?: (info: SlotWaitInfo) => void;
}

export function slotPath(dir: string, index: number): string {
  return join(dir, `slot-${index}.lock`);
}

export async function acquireSlot(
  dir: string,
  capacity: number,
  options: SlotOptions,
): Promise<{ slot: Slot; waitedMs: number }> {
  if (!Number.isSafeInteger(capacity) || capacity < 1)
    throw new RangeError(`capacity must be a positive integer, got ${capacity}`);
  const started = Date.now();
  let delay = options.pollMs ?? 50;
  const maxDelay = Math.max(delay, options.maxPollMs ?? 1000);
  let reported = false;
  for (;;) {
    throwIfAborted(options.signal);
    const slot = tryAll(dir, capacity, options);
    if (slot !== undefined) return { slot, waitedMs: Date.now() - started };
    if (!reported) {
      reported = true;
      options.onWait?.(describe(dir, capacity));
    }
    // Jitter keeps waiters that started together from polling in lockstep.
    await sleep(delay * (0.8 + Math.random() * 0.4), options.signal);
    delay = Math.min(maxDelay, delay * 1.5);
  }
}

function tryAll(dir: string, capacity: number, options: SlotOptions): Slot | undefined {
  for (let index = 0; index < capacity; index++) {
    const result = acquireLease(slotPath(dir, index), {
      leaseMs: options.leaseMs,
      holder: { ...options.holder, slot: index },
    });
    if ('acquired' in result) return Object.assign(result.acquired, { index });
  }
  return undefined;
}

function describe(dir: string, capacity: number): SlotWaitInfo {
  const holders: Array<HolderInfo | null> = [];
  for (let index = 0; index < capacity; index++) {
    const seen = inspectLease(slotPath(dir, index));
    if (seen.state !== 'free') holders.push(seen.info);
  }
  return { capacity, held: holders.length, holders };
}

function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw abortError(signal);
}

function abortError(signal: AbortSignal): Error {
  // The same shape as the platform's own aborts (fetch, timers/promises): name AbortError, code ABORT_ERR.
  const error = new Error('waiting for a slot was aborted', { cause: signal.reason });
  error.name = 'AbortError';
  Object.assign(error, { code: 'ABORT_ERR' });
  return error;
}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(abortError(signal));
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(abortError(signal as AbortSignal));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
