// MCP progress: when the client sent a progress token with its call, each live update of a long verb goes out
// as notifications/progress, with `progress` increasing strictly and staying below `total`, and a message.
// While a silent job runs, the last update is repeated every 15 s, so a client that resets its request
// timeout on progress keeps waiting. Without a token nothing is sent. A notification that cannot be delivered
// is dropped: progress is an observation and never fails the call.
import type { LiveProgress, LiveUpdate } from '../../verbs/context.js';

export interface ProgressNotification {
  method: 'notifications/progress';
  params: { progressToken: string | number; progress: number; total?: number; message?: string };
}

const HEARTBEAT_MS = 15_000;

export interface Notifier {
  progress: LiveProgress;
  /** Stops the heartbeat: call when the call ends. */
  stop: () => void;
}

export function progressNotifier(
  token: unknown,
  notify: (n: ProgressNotification) => Promise<void>,
): Notifier | undefined {
  if (typeof token !== 'string' && typeof token !== 'number') return undefined;
  let last = -1;
  let latest: LiveUpdate | undefined;
  const send = (update: LiveUpdate): void => {
    // Finished producers alone may repeat, so each message also advances a little below the next whole step;
    // `total` counts one step more than the producers (recording the outcome), so progress never reaches it.
    const base = update.completed;
    const progress = base > last ? base : Math.min(last + 0.001, Math.floor(last) + 0.999);
    if (progress <= last) return;
    last = progress;
    const params = {
      progressToken: token,
      progress: Number(progress.toFixed(3)),
      ...(update.total !== undefined ? { total: update.total + 1 } : {}),
      message: update.message,
    };
    notify({ method: 'notifications/progress', params }).catch(() => undefined);
  };
  const heartbeat = setInterval(() => {
    if (latest) send(latest);
  }, HEARTBEAT_MS);
  heartbeat.unref();
  return {
    progress: (update) => {
      // A structure-only update (a row for a terminal view) has nothing new to tell a client.
      if (update.quiet === true) return;
      latest = update;
      send(update);
    },
    stop: () => clearInterval(heartbeat),
  };
}
