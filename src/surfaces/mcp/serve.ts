// `discern mcp`: the server over stdio (protocol 2025-11-25 through server.connect; see
// docs/decisions/0003-mcp-server-on-the-v2-sdk.md). It ends when the client closes stdin: in-flight work is
// stopped and the process exits promptly instead of lingering as an orphan.
// First: zod's setting applies to the schemas the SDK makes as it loads.
import './zod-jitless.js';
import { StdioServerTransport } from '@modelcontextprotocol/server/stdio';
import { stopChildren } from '../../engine/process/children.js';
import { workingDirectory } from '../../engine/process/working-directory.js';
import { createServer } from './server.js';
import { checkoutTop } from './roots.js';
import { RawArguments } from './raw-arguments.js';
import { onInterrupt } from '../cli/signals.js';
import { framedStdin, SDK_BUFFER_BYTES } from './stdin-framing.js';
import { reviseOutgoing } from './not-found-code.js';

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}

/** How long running calls get to record their cancellation after the client has gone. */
const SHUTDOWN_GRACE_MS = 5000;

export async function serve(): Promise<number> {
  const closing = new AbortController();
  const inflight = new Set<Promise<unknown>>();
  const rawArguments = new RawArguments();
  const target = workingDirectory();
  const server = createServer({
    target,
    // Started outside any checkout (VS Code starts servers in a folder of its own): the client's roots say where.
    followRoots: checkoutTop(target) === undefined,
    env: process.env,
    closing: closing.signal,
    inflight,
    rawArguments,
  });
  // A signal is the same as the client leaving: running calls are cancelled and recorded before the exit.
  onInterrupt(async () => {
    closing.abort(new Error('discern was interrupted'));
    await Promise.allSettled([...inflight]);
  });
  // discern frames stdin itself, so no line can end the server or go unanswered (stdin-framing.ts).
  const input = framedStdin({ stdin: process.stdin, stdout: process.stdout, stderr: process.stderr });
  const transport = new StdioServerTransport(input, process.stdout, { maxBufferSize: SDK_BUFFER_BYTES });
  let done: () => void = () => undefined;
  const closed = new Promise<void>((resolve) => {
    done = resolve;
  });
  process.stdin.once('end', done);
  process.stdin.once('close', done);
  // Resource not found gets the code the negotiated revision names (not-found-code.ts).
  reviseOutgoing(transport, () => server.server.getNegotiatedProtocolVersion());
  await server.connect(transport);
  // Set after connect, which installs its own transport callbacks.
  server.server.onclose = done;
  rawArguments.watch(transport);
  await closed;
  // The client is gone: cancel what still runs (its jobs are killed and its journal records the cancellation),
  // give it a bounded moment to finish that, then stop anything left.
  closing.abort(new Error('the MCP client closed the connection'));
  if (inflight.size > 0) await Promise.race([Promise.allSettled([...inflight]), delay(SHUTDOWN_GRACE_MS)]);
  stopChildren('SIGTERM');
  await server.close().catch(() => undefined);
  // Anything still pending (a child's pipe, a timer) must not keep a server whose client has gone.
  process.exit(0);
}
