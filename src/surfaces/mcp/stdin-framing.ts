// The one layer between stdin and the SDK's stdio transport (docs/decisions/0046): it frames lines itself so
// that no line can end the server or go unanswered. A line that is not JSON gets JSON-RPC's -32700; one that is
// JSON but not a JSON-RPC 2.0 message (no `jsonrpc: "2.0"`, an `id` of null, a batch) gets -32600, with its id
// when it has a usable one; a request whose params the SDK would take as an internal error gets -32602
// (request-params.ts); a line longer than MAX_LINE_BYTES is dropped as it streams in (never held whole),
// answered with -32600 and a line on stderr. Every other line reaches the SDK untouched; calls already running
// go on and are answered.
import { PassThrough, type Readable, type Writable } from 'node:stream';
import { paramsProblem } from './request-params.js';

/** The longest line taken: far above any real request, well below what would strain memory. */
export const MAX_LINE_BYTES = 8 * 1024 * 1024;

/** The SDK's own buffer holds one framed line at a time; give it room for the longest. */
export const SDK_BUFFER_BYTES = 2 * MAX_LINE_BYTES;

const NEWLINE = 0x0a;

export interface FramingOptions {
  stdin: Readable;
  stdout: Writable;
  stderr: Writable;
  maxLineBytes?: number;
}

/** The stream the SDK transport reads: stdin's lines that are JSON-RPC messages, each with its newline. */
export function framedStdin(options: FramingOptions): Readable {
  const out = new PassThrough();
  const max = options.maxLineBytes ?? MAX_LINE_BYTES;
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  let discarding = false;

  const answer = (id: string | number | null, code: number, message: string): void => {
    options.stdout.write(`${JSON.stringify({ jsonrpc: '2.0', id, error: { code, message } })}\n`);
  };
  const overlong = (): void => {
    pending = [];
    pendingBytes = 0;
    const why = `a message line longer than ${max} bytes was dropped unread; send smaller messages`;
    options.stderr.write(`discern mcp: ${why}\n`);
    answer(null, -32600, `Invalid Request: ${why}.`);
  };
  const line = (bytes: Buffer): void => {
    const text = bytes.toString('utf8').replace(/\r$/, '');
    if (text.trim() === '') return;
    const verdict = judgeLine(text);
    if (verdict.ok) out.write(`${text}\n`);
    else answer(verdict.id, verdict.code, verdict.message);
  };

  options.stdin.on('data', (chunk: Buffer) => {
    let rest = chunk;
    for (;;) {
      const at = rest.indexOf(NEWLINE);
      if (discarding) {
        if (at < 0) return;
        discarding = false;
        rest = rest.subarray(at + 1);
        continue;
      }
      if (at < 0) {
        pending.push(rest);
        pendingBytes += rest.length;
        if (pendingBytes > max) {
          overlong();
          discarding = true;
        }
        return;
      }
      if (pendingBytes + at > max) {
        // The line ends in this chunk but is already over the limit: dropped the same way.
        overlong();
        rest = rest.subarray(at + 1);
        continue;
      }
      const whole = pending.length === 0 ? rest.subarray(0, at) : Buffer.concat([...pending, rest.subarray(0, at)]);
      pending = [];
      pendingBytes = 0;
      line(whole);
      rest = rest.subarray(at + 1);
    }
  });
  options.stdin.once('end', () => {
    // A last line without its newline is still a message.
    if (!discarding && pendingBytes > 0) line(Buffer.concat(pending));
    out.end();
  });
  options.stdin.once('close', () => out.end());
  options.stdin.on('error', (error) => out.destroy(error));
  return out;
}

export type LineVerdict = { ok: true } | { ok: false; id: string | number | null; code: number; message: string };

/** Whether one line is a JSON-RPC 2.0 message the SDK may take, or the error answer it gets instead. */
export function judgeLine(text: string): LineVerdict {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { ok: false, id: null, code: -32700, message: 'Parse error: the line is not JSON.' };
  }
  if (Array.isArray(value))
    return {
      ok: false,
      id: null,
      code: -32600,
      message: 'Invalid Request: MCP takes one message per line, not a batch.',
    };
  if (typeof value !== 'object' || value === null)
    return { ok: false, id: null, code: -32600, message: 'Invalid Request: a message is a JSON object.' };
  const message = value as Record<string, unknown>;
  const rawId = message['id'];
  const id = typeof rawId === 'string' || (typeof rawId === 'number' && Number.isFinite(rawId)) ? rawId : null;
  if (message['jsonrpc'] !== '2.0')
    return { ok: false, id, code: -32600, message: 'Invalid Request: `jsonrpc` must be "2.0".' };
  const isRequestOrNotification = typeof message['method'] === 'string';
  const isResponse = 'result' in message || 'error' in message;
  if (!isRequestOrNotification && !isResponse)
    return { ok: false, id, code: -32600, message: 'Invalid Request: a message has a `method` (or is a response).' };
  if ('id' in message && id === null)
    return { ok: false, id: null, code: -32600, message: 'Invalid Request: `id` must be a string or a number.' };
  if (isRequestOrNotification && 'id' in message) {
    const problem = paramsProblem(message['method'] as string, message['params']);
    if (problem !== undefined) return { ok: false, id, code: -32602, message: problem };
  }
  return { ok: true };
}
