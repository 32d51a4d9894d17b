// The SDK's own client connected to `discern mcp` over stdio: a real child process speaking the protocol.
import { Client, type ElicitRequest, type ElicitResult } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { DISCERN_BIN } from './cli.js';
import { cleanEnv } from './scratch-repo.js';

export interface Connected {
  client: Client;
  transport: StdioClientTransport;
  stderr: () => string;
}

export interface ClientOptions {
  /** Declare form elicitation and answer each `elicitation/create` with this (the person, as the test plays them). */
  elicit?: (params: ElicitRequest['params']) => ElicitResult | Promise<ElicitResult>;
  clientInfo?: { name: string; version: string };
  /** Declare roots (with list_changed) and answer each `roots/list` with what this returns at the time. */
  roots?: () => { uri: string; name?: string }[];
}

export async function connectStdio(
  cwd: string,
  env: Record<string, string> = {},
  options: ClientOptions = {},
): Promise<Connected> {
  // StdioClientTransport passes only a few variables to the child unless env is given.
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [DISCERN_BIN, 'mcp'],
    cwd,
    env: cleanEnv(env),
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
  const client = new Client(options.clientInfo ?? { name: 'discern-tests', version: '0.0.0' }, {
    capabilities: {
      ...(options.elicit ? { elicitation: { form: {} } } : {}),
      ...(options.roots ? { roots: { listChanged: true } } : {}),
    },
  });
  const answer = options.elicit;
  if (answer) client.setRequestHandler('elicitation/create', async (request) => answer(request.params));
  const roots = options.roots;
  if (roots) client.setRequestHandler('roots/list', async () => ({ roots: roots() }));
  await client.connect(transport);
  return { client, transport, stderr: () => stderr };
}
