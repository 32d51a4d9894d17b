// `discern mcp` spoken to line by line, without the SDK client: for messages the client cannot produce —
// documents nested deeper than its JSON.stringify reaches, lines that are not JSON, bytes that are not UTF-8.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { DISCERN_BIN } from './cli.js';
import { cleanEnv } from './scratch-repo.js';

export interface RawServer {
  child: ChildProcessWithoutNullStreams;
  /** Writes one line (a string is sent as UTF-8; a Buffer as it is) and a newline. */
  send(line: string | Buffer): void;
  /** The response with this id, parsed; rejects after `timeoutMs`. */
  response(id: number, timeoutMs?: number): Promise<Record<string, unknown>>;
  /** Error responses with a null id (to lines that had no usable id), in the order they came. */
  anonymous(): Record<string, unknown>[];
  /** Notifications the server sent, in the order they came. */
  notifications(): Record<string, unknown>[];
  stderr(): string;
  close(): Promise<void>;
}

export async function rawServer(
  cwd: string,
  env: Record<string, string> = {},
  options: { protocolVersion?: string } = {},
): Promise<RawServer> {
  const child = spawn(process.execPath, [DISCERN_BIN, 'mcp'], {
    cwd,
    env: cleanEnv(env),
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  const responses = new Map<number, Record<string, unknown>>();
  const waiters = new Map<number, (value: Record<string, unknown>) => void>();
  let buffered = '';
  let stderr = '';
  const anonymous: Record<string, unknown>[] = [];
  const notifications: Record<string, unknown>[] = [];
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
  child.stdout.on('data', (c: Buffer) => {
    buffered += c.toString('utf8');
    let at: number;
    while ((at = buffered.indexOf('\n')) >= 0) {
      const line = buffered.slice(0, at);
      buffered = buffered.slice(at + 1);
      if (line.trim() === '') continue;
      const message = JSON.parse(line) as Record<string, unknown>;
      if (message['id'] === null) anonymous.push(message);
      if (!('id' in message) && typeof message['method'] === 'string') notifications.push(message);
      if (typeof message['id'] !== 'number') continue;
      responses.set(message['id'], message);
      waiters.get(message['id'])?.(message);
    }
  });
  const send = (line: string | Buffer): void => {
    child.stdin.write(Buffer.concat([typeof line === 'string' ? Buffer.from(line, 'utf8') : line, Buffer.from('\n')]));
  };
  const response = (id: number, timeoutMs = 30_000): Promise<Record<string, unknown>> =>
    new Promise((resolve, reject) => {
      const ready = responses.get(id);
      if (ready) return resolve(ready);
      const timer = setTimeout(
        () => reject(new Error(`no response to request ${id} within ${timeoutMs} ms`)),
        timeoutMs,
      );
      waiters.set(id, (value) => {
        clearTimeout(timer);
        resolve(value);
      });
    });
  send(
    JSON.stringify({
      jsonrpc: '2.0',
      id: 0,
      method: 'initialize',
      params: {
        protocolVersion: options.protocolVersion ?? '2025-11-25',
        capabilities: {},
        clientInfo: { name: 'raw', version: '0' },
      },
    }),
  );
  await response(0);
  send(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }));
  const close = (): Promise<void> =>
    new Promise((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      child.once('close', () => resolve());
      child.stdin.end();
    });
  return {
    child,
    send,
    response,
    anonymous: () => anonymous,
    notifications: () => notifications,
    stderr: () => stderr,
    close,
  };
}

/** A tools/call line whose `arguments` text is given verbatim (so it may be nested as deep as wanted). */
export function toolsCallLine(id: number, tool: string, argumentsText: string): string {
  return `{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":{"name":${JSON.stringify(tool)},"arguments":${argumentsText}}}`;
}
