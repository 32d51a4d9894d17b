// SIGINT, SIGHUP and SIGTERM end a run with 130, 129 and 143 after stopping the children it started, so an
// interrupted discern leaves no process behind.
import { stopChildren } from '../../engine/process/children.js';
import { EXIT } from './exit-codes.js';

const HANDLED = ['SIGINT', 'SIGHUP', 'SIGTERM'] as const;

export function installSignalHandlers(onSignal?: (signal: NodeJS.Signals) => void): () => void {
  const handlers = HANDLED.map((signal) => {
    const handler = (): void => {
      onSignal?.(signal);
      stopChildren('SIGTERM');
      process.stderr.write(`discern: interrupted by ${signal}\n`);
      process.exit(EXIT[signal]);
    };
    process.once(signal, handler);
    return [signal, handler] as const;
  });
  return () => {
    for (const [signal, handler] of handlers) process.removeListener(signal, handler);
  };
}
