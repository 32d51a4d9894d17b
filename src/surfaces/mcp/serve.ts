// `discern mcp`: the server over stdio (protocol 2025-11-25 through server.connect; see
// docs/decisions/0003-mcp-server-on-the-v2-sdk.md). It ends when the client closes stdin: in-flight work is
// stopped and the process exits promptly instead of lingering as an orphan.
import { StdioServerTransport } from '@modelcontextprotocol/server/stdio';
import { stopChildren } from '../../engine/process/children.js';
import { workingDirectory } from '../../engine/process/working-directory.js';
import { createServer } from './server.js';

export async function serve(): Promise<number> {
  const server = createServer({ target: workingDirectory(), env: process.env });
  const transport = new StdioServerTransport();
  let done: () => void = () => undefined;
  const closed = new Promise<void>((resolve) => {
    done = resolve;
  });
  process.stdin.once('end', done);
  process.stdin.once('close', done);
  await server.connect(transport);
  // Set after connect, which installs its own transport callbacks.
  server.server.onclose = done;
  await closed;
  stopChildren('SIGTERM');
  await server.close().catch(() => undefined);
  // Anything still pending (a child's pipe, a timer) must not keep a server whose client has gone.
  process.exit(0);
}
