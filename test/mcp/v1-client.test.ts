// `discern mcp` through the v1 TypeScript SDK's client, the client most MCP hosts embed. That client compiles
// every tool's output schema with Ajv on each listTools() unless it compiled one with the same $id before, and
// checks each structuredContent against it. Each output schema is therefore named by its content: one compile
// per tool for the life of the client, and every answer still checked against the full schema.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import { Ajv } from 'ajv';
import { canonicalJson } from '../../src/engine/gate/canonical-json.js';
import { DISCERN_BIN } from '../helpers/cli.js';
import { MINIMAL_CONFIG, cleanEnv, scratchRepo, type ScratchRepo } from '../helpers/scratch-repo.js';

let repo: ScratchRepo;
let client: Client;
let compiled = 0;

before(async () => {
  repo = scratchRepo({ 'discern.toml': MINIMAL_CONFIG });
  // The SDK's own Ajv settings, with compile counted.
  const ajv = new Ajv({ strict: false, validateFormats: false, validateSchema: false, allErrors: true });
  const compile = ajv.compile.bind(ajv);
  ajv.compile = ((schema: object) => {
    compiled++;
    return compile(schema);
  }) as typeof ajv.compile;
  client = new Client(
    { name: 'discern-tests-v1', version: '0.0.0' },
    { jsonSchemaValidator: new AjvJsonSchemaValidator(ajv) },
  );
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [DISCERN_BIN, 'mcp'],
      cwd: repo.root,
      env: cleanEnv(),
    }),
  );
});
after(async () => {
  await client.close();
  repo.cleanup();
});

describe('the v1 SDK client', () => {
  it('compiles each output schema once, however often it lists the tools', async () => {
    const first = await client.listTools();
    assert.equal(compiled, first.tools.length);
    await client.listTools();
    await client.listTools();
    assert.equal(compiled, first.tools.length, 'a later listTools() compiles nothing');
  });

  it('names each output schema by its verb and a digest of its content', async () => {
    const { tools } = await client.listTools();
    const ids = new Set<string>();
    for (const tool of tools) {
      const { $id, ...content } = tool.outputSchema as Record<string, unknown>;
      const match = /^https:\/\/discern\.sh\/schema\/v1\/tool-output\/([a-z-]+)-([0-9a-f]{16})\.json$/.exec(
        String($id),
      );
      assert.ok(match, `${tool.name}: ${String($id)}`);
      assert.equal(tool.name, `discern_${(match[1] ?? '').replace(/-/g, '_')}`, 'the $id names the verb');
      const digest = createHash('sha256').update(canonicalJson(content)).digest('hex').slice(0, 16);
      assert.equal(match[2], digest, `${tool.name}: the $id names this content`);
      ids.add(String($id));
    }
    assert.equal(ids.size, tools.length, 'no two tools share an $id');
  });

  it('accepts every answer it checks against those schemas, ok and refused', async () => {
    const status = await client.callTool({ name: 'discern_status', arguments: {} });
    assert.equal((status.structuredContent as { ok?: boolean }).ok, true, JSON.stringify(status.structuredContent));
    const page = await client.callTool({ name: 'discern_docs', arguments: { target: 'exit-codes' } });
    assert.equal((page.structuredContent as { ok?: boolean }).ok, true);
    const refused = await client.callTool({ name: 'discern_docs', arguments: { target: 'no-such-page' } });
    assert.equal(refused.isError, true);
    assert.equal((refused.structuredContent as { ok?: boolean }).ok, false);
  });
});
