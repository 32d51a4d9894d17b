// The SDK parses a tools/call request with zod, whose record output drops an own `__proto__` key (assigning
// it would set the prototype instead). An undeclared `__proto__` would then pass our validator unseen and the
// call would run as if it had not been sent. So the raw arguments of such a request are kept by request id,
// as they arrived, and the tool handler validates those instead: the key is refused by name like any other
// undeclared key (docs/decisions/0035-hostile-input-over-mcp.md).
import type { JSONRPCMessage, RequestId, Transport } from '@modelcontextprotocol/server';

export class RawArguments {
  private readonly kept = new Map<RequestId, unknown>();

  /** Wraps the transport's message callback (set by connect) to see each request before the SDK parses it. */
  watch(transport: Transport): void {
    const deliver = transport.onmessage;
    if (deliver === undefined) return;
    transport.onmessage = ((message: JSONRPCMessage, extra?: unknown) => {
      this.note(message);
      (deliver as (m: JSONRPCMessage, e?: unknown) => void)(message, extra);
    }) as Transport['onmessage'];
    // The SDK answers some calls without running the tool handler (an unknown or disabled tool, arguments over
    // its element limit), so `take` is never called for them: the answer going out forgets their arguments, or a
    // client sending such calls under fresh ids would grow the map without end.
    const send = transport.send.bind(transport);
    transport.send = (message, options) => {
      const m = message as { id?: unknown; result?: unknown; error?: unknown };
      if ((typeof m.id === 'string' || typeof m.id === 'number') && ('result' in m || 'error' in m))
        this.kept.delete(m.id);
      return send(message, options);
    };
  }

  /** How many calls' arguments are kept (each until its handler takes them or its answer goes out). */
  get size(): number {
    return this.kept.size;
  }

  note(message: unknown): void {
    const m = message as { method?: unknown; id?: unknown; params?: { arguments?: unknown } };
    const args = m.params?.arguments;
    if (m.method !== 'tools/call' || (typeof m.id !== 'string' && typeof m.id !== 'number')) return;
    if (typeof args === 'object' && args !== null && Object.hasOwn(args, '__proto__')) this.kept.set(m.id, args);
    // A reused id never picks up another request's arguments.
    else this.kept.delete(m.id);
  }

  /** The arguments as they arrived when the SDK's parse lost a key, else the parsed ones. */
  take(id: RequestId, parsed: unknown): unknown {
    if (!this.kept.has(id)) return parsed;
    const raw = this.kept.get(id);
    this.kept.delete(id);
    return raw;
  }
}
