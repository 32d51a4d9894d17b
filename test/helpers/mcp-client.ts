// The SDK's own client connected to `discern mcp` over stdio: a real child process speaking the protocol.
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { DISCERN_BIN } from './cli.js';
import { cleanEnv } from './scratch-repo.js';

export interface Connected {
  client: Client;
  transport: StdioClientTransport;
  stderr: () => string;
}

export async function connectStdio(cwd: string, env: Record<string, string> = {}): Promise<Connected> {
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
  const client = new Client({ name: 'discern-tests', version: '0.0.0' });
  await client.connect(transport);
  return { client, transport, stderr: () => stderr };
}
