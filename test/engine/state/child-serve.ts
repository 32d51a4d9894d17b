// The child side of child-pool.ts: read one JSON command per line, run its handler, answer on stdout.
import { createInterface } from 'node:readline';

export type Handler = (command: Record<string, unknown>) => unknown;

export function serve(handlers: Record<string, Handler>, onClose?: () => void | Promise<void>): void {
  const lines = createInterface({ input: process.stdin });
  // Commands run one at a time, in order, as a real caller would issue them.
  let queue: Promise<void> = Promise.resolve();
  lines.on('line', (line) => {
    const command = JSON.parse(line) as Record<string, unknown> & { id: number; op: string; at?: number };
    queue = queue.then(async () => {
      if (typeof command.at === 'number')
        while (Date.now() < command.at) {
          // Spin: a timer would add its own jitter to the race.
        }
      let reply: Record<string, unknown>;
      try {
        const handler = handlers[command.op];
        if (handler === undefined) throw new Error(`unknown op ${command.op}`);
        reply = { id: command.id, ok: true, value: await handler(command) };
      } catch (error) {
        reply = {
          id: command.id,
          ok: false,
          error: error instanceof Error ? (error.stack ?? error.message) : String(error),
        };
      }
      process.stdout.write(`${JSON.stringify(reply)}\n`);
    });
  });
  lines.on('close', () => {
    void queue.then(async () => {
      await onClose?.();
      process.exit(0);
    });
  });
  process.stdout.write(`${JSON.stringify({ ready: true })}\n`);
}
