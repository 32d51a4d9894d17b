// The raw arguments kept for a call with an own `__proto__` key are forgotten once its answer goes out, also when
// the SDK answers without running the tool handler (an unknown tool): a client sending such calls under fresh
// ids must not grow the server's memory without end.
import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { test } from 'node:test';
import { StdioServerTransport } from '@modelcontextprotocol/server/stdio';
import { createServer } from '../../src/surfaces/mcp/server.js';
import { RawArguments } from '../../src/surfaces/mcp/raw-arguments.js';

test('calls the SDK refuses before the handler leave no kept arguments behind', async () => {
  const input = new PassThrough();
  const output = new PassThrough();
  const answers = new Map<number, Record<string, unknown>>();
  let buffered = '';
  output.on('data', (chunk: Buffer) => {
    buffered += chunk.toString('utf8');
    for (let at = buffered.indexOf('\n'); at >= 0; at = buffered.indexOf('\n')) {
      const message = JSON.parse(buffered.slice(0, at)) as Record<string, unknown>;
      buffered = buffered.slice(at + 1);
      if (typeof message['id'] === 'number') answers.set(message['id'], message);
    }
  });
  const answered = async (id: number): Promise<Record<string, unknown>> => {
    while (!answers.has(id)) await new Promise((resolve) => setTimeout(resolve, 5));
    return answers.get(id) as Record<string, unknown>;
  };
  const send = (message: unknown): boolean => input.write(`${JSON.stringify(message)}\n`);

  const raw = new RawArguments();
  const server = createServer({ target: process.cwd(), env: {}, rawArguments: raw });
  const transport = new StdioServerTransport(input, output);
  await server.connect(transport);
  raw.watch(transport);
  send({
    jsonrpc: '2.0',
    id: 0,
    method: 'initialize',
    params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '0' } },
  });
  await answered(0);
  send({ jsonrpc: '2.0', method: 'notifications/initialized' });

  // JSON.parse makes `__proto__` an own key, as it is on the wire.
  for (let id = 1; id <= 20; id++)
    input.write(
      `{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":{"name":"no_such_tool","arguments":{"__proto__":{"x":1}}}}\n`,
    );
  for (let id = 1; id <= 20; id++) await answered(id);
  assert.equal(raw.size, 0, "an unknown tool's call still holds its raw arguments");
  // A known tool still sees the key the SDK's parse dropped, and refuses it by name.
  input.write(
    '{"jsonrpc":"2.0","id":21,"method":"tools/call","params":{"name":"discern_docs","arguments":{"__proto__":{"x":1}}}}\n',
  );
  const refused = (await answered(21))['result'] as { structuredContent?: Record<string, unknown> };
  assert.equal(refused.structuredContent?.['error'], 'invalid_arguments', JSON.stringify(refused));
  assert.equal(raw.size, 0);
  await server.close();
});
