// Real child processes for concurrency tests: each runs a worker script under tsx and answers JSON commands,
// one per line, on stdin/stdout. Commands may carry `at` (epoch ms): the child spins until then before acting,
// so a batch sent to many children starts within a millisecond or two — a real race, not a staggered one.
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../..', import.meta.url));

export interface Reply {
  ok: boolean;
  value?: unknown;
  error?: string;
}

export interface Worker {
  readonly pid: number;
  readonly child: ChildProcess;
  request(command: Record<string, unknown>): Promise<Reply>;
  /** Resolves with the exit signal (or code) once the process has exited and been reaped. */
  readonly exited: Promise<NodeJS.Signals | number | null>;
  /** Ends stdin (the worker releases what it holds and exits) and waits for the exit. */
  close(): Promise<void>;
}

export async function startWorkers(script: string, count: number, env: Record<string, string> = {}): Promise<Worker[]> {
  return Promise.all(Array.from({ length: count }, () => startWorker(script, env)));
}

export function startWorker(script: string, env: Record<string, string> = {}): Promise<Worker> {
  const child = spawn(process.execPath, ['--import', 'tsx', script], {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const exited = new Promise<NodeJS.Signals | number | null>((resolve) =>
    child.once('exit', (code, signal) => resolve(signal ?? code)),
  );
  const pending = new Map<number, (reply: Reply) => void>();
  let nextId = 1;
  let readyResolve: (() => void) | undefined;
  const ready = new Promise<void>((resolve) => (readyResolve = resolve));
  const lines = createInterface({ input: child.stdout as NonNullable<ChildProcess['stdout']> });
  lines.on('line', (line) => {
    const message = JSON.parse(line) as { ready?: boolean; id?: number } & Reply;
    if (message.ready) readyResolve?.();
    else if (message.id !== undefined) {
      pending.get(message.id)?.(message);
      pending.delete(message.id);
    }
  });
  void exited.then(() => {
    for (const resolve of pending.values()) resolve({ ok: false, error: 'worker exited' });
    pending.clear();
    readyResolve?.();
  });
  const worker: Worker = {
    pid: child.pid as number,
    child,
    exited,
    request(command) {
      const id = nextId++;
      return new Promise<Reply>((resolve) => {
        pending.set(id, resolve);
        child.stdin?.write(`${JSON.stringify({ ...command, id })}\n`);
      });
    },
    async close() {
      child.stdin?.end();
      await exited;
    },
  };
  return ready.then(() => worker);
}

/** A start time far enough ahead for every worker to receive its command first. */
export function startAt(delayMs = 80): number {
  return Date.now() + delayMs;
}
