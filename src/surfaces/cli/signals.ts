// SIGINT, SIGHUP and SIGTERM end a run with 130, 129 and 143. The first signal cancels what runs (a verb's jobs
// have their process groups killed and its journal records the cancellation) and waits a bounded moment for
// it to wind down; then the children left are stopped and the process exits. A second signal ends it at once.
import { stopChildren } from '../../engine/process/children.js';
import { EXIT } from './exit-codes.js';

const HANDLED = ['SIGINT', 'SIGHUP', 'SIGTERM'] as const;

/** How long a cancelled run may take to record its cancellation before discern exits anyway. */
const WIND_DOWN_MS = 5000;

let windDown: (() => Promise<unknown>) | undefined;
let beforeNotice: (() => void) | undefined;
let installed: (() => void) | undefined;

/** Removes discern's handlers, for a command that handles signals itself (queue forwards them to its child). */
export function releaseSignals(): void {
  installed?.();
  installed = undefined;
}

/**
 * Registers what to wait for after a signal (the running verb, the MCP server's calls) and, optionally, what to
 * do before the notice is printed: the live view erases its region and stops drawing, so the notice is the last
 * line and nothing redraws over it while the run winds down.
 */
export function onInterrupt(wait: () => Promise<unknown>, quiet?: () => void): void {
  windDown = wait;
  beforeNotice = quiet;
}

export function installSignalHandlers(onSignal?: (signal: NodeJS.Signals) => void): () => void {
  let interrupted = false;
  const handlers = HANDLED.map((signal) => {
    const handler = (): void => {
      const finish = (): never => {
        stopChildren('SIGTERM');
        process.exit(EXIT[signal]);
      };
      if (interrupted) finish();
      interrupted = true;
      try {
        beforeNotice?.();
      } catch {
        // The view is decoration; the signal is handled whatever it does.
      }
      process.stderr.write(`discern: interrupted by ${signal}\n`);
      onSignal?.(signal);
      const wait = windDown;
      if (wait === undefined) finish();
      else {
        const timer = new Promise((resolve) => setTimeout(resolve, WIND_DOWN_MS));
        void Promise.race([wait().catch(() => undefined), timer]).then(finish);
      }
    };
    process.on(signal, handler);
    return [signal, handler] as const;
  });
  installed = () => {
    for (const [signal, handler] of handlers) process.removeListener(signal, handler);
  };
  return installed;
}
