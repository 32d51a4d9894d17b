// MCP progress: when the client sent a progress token with its call, each live update of a long verb goes out
// as notifications/progress, with `progress` increasing strictly and staying below `total`, and a message.
// While a silent job runs, the last update is repeated every 15 s, so a client that resets its request
// timeout on progress keeps waiting. Without a token nothing is sent. A notification that cannot be delivered
// is dropped: progress is an observation and never fails the call. Nothing is sent once the call is cancelled
// (notifications/cancelled aborts its signal) or has ended: every revision forbids progress for a request that is
// no longer active.
import type { LiveProgress, LiveUpdate } from '../../verbs/context.js';

export interface ProgressNotification {
  method: 'notifications/progress';
  params: { progressToken: string | number; progress: number; total?: number; message?: string };
}

const HEARTBEAT_MS = 15_000;

export interface Notifier {
  progress: LiveProgress;
  /** Stops the heartbeat and every later notification: call when the call ends. */
  stop: () => void;
}

export function progressNotifier(
  token: unknown,
  notify: (n: ProgressNotification) => Promise<void>,
  signal?: AbortSignal,
): Notifier | undefined {
  if (typeof token !== 'string' && typeof token !== 'number') return undefined;
  let stopped = false;
  let last = -1;
  let step = -1;
  let within = 0;
  let offset = 0;
  let lastCompleted = 0;
  let latest: LiveUpdate | undefined;
  const send = (update: LiveUpdate): void => {
    if (stopped) return;
    // A run may report several plans in turn (accept: its setup rows, then the composed gate's producers, then
    // the ensure after the landing), each counting from 0: a count that goes back starts a new span of steps.
    if (update.completed < lastCompleted) offset = step + 1;
    lastCompleted = update.completed;
    // Within a step, each message advances by a shrinking fraction (k/(k+1)) that never reaches the next step,
    // so every notification increases strictly however many a long job sends; the heartbeat included.
    const base = Math.max(offset + update.completed, step);
    if (base > step) {
      step = base;
      within = 0;
    } else within += 1;
    const progress = step + within / (within + 1);
    if (progress <= last) return;
    last = progress;
    // `total` counts one step more than the producers (recording the outcome), so progress never reaches it.
    const total = update.total !== undefined ? Math.max(offset + update.total + 1, step + 1) : undefined;
    const params = {
      progressToken: token,
      progress,
      ...(total !== undefined ? { total } : {}),
      message: update.message,
    };
    notify({ method: 'notifications/progress', params }).catch(() => undefined);
  };
  const heartbeat = setInterval(() => {
    if (latest) send(latest);
  }, HEARTBEAT_MS);
  heartbeat.unref();
  const stop = (): void => {
    stopped = true;
    clearInterval(heartbeat);
  };
  if (signal?.aborted === true) stop();
  else signal?.addEventListener('abort', stop, { once: true });
  return {
    progress: (update) => {
      // A structure-only update (a row for a terminal view) has nothing new to tell a client.
      if (update.quiet === true) return;
      latest = update;
      send(update);
    },
    stop,
  };
}
