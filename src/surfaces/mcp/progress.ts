// MCP progress: when the client sent a progress token with its call, each live update of a long verb goes out
// as notifications/progress with a strictly increasing `progress`, the planned total when known, and a
// message. Without a token nothing is sent. A notification that cannot be delivered is dropped: progress is an
// observation and never fails the call.
import type { LiveProgress } from '../../verbs/context.js';

export interface ProgressNotification {
  method: 'notifications/progress';
  params: { progressToken: string | number; progress: number; total?: number; message?: string };
}

export function progressNotifier(token: unknown, notify: (n: ProgressNotification) => Promise<void>): LiveProgress | undefined {
  if (typeof token !== 'string' && typeof token !== 'number') return undefined;
  // The spec requires progress to increase with every notification; finished producers alone may repeat, so
  // each message also advances a small fraction below the next whole step.
  let last = -1;
  return (update) => {
    const base = update.completed;
    const progress = base > last ? base : last + 0.001;
    last = progress;
    const params = { progressToken: token, progress: Number(progress.toFixed(3)), ...(update.total !== undefined ? { total: update.total } : {}), message: update.message };
    notify({ method: 'notifications/progress', params }).catch(() => undefined);
  };
}
