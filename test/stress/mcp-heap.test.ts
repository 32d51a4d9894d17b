// What one MCP server keeps per call: the server built by createServer (the same one `discern mcp` serves)
// answers 1,000 sequential calls from the SDK client over the SDK's in-memory transport, in this process, so
// the test can collect garbage before it reads the heap. The live heap after a 100-call warm-up and at the end
// must differ by under 10% (the bound; docs/decisions/0038-memory-under-sequential-load.md says why it
// is held here rather than on the server process's RSS, which mcp-load.test.ts reports).
import { describe, it, after } from 'node:test';
import assert from 'node:assert/strict';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { Client, InMemoryTransport } from '@modelcontextprotocol/client';
import { createServer } from '../../src/surfaces/mcp/server.js';
import { MEMORY_MIX } from '../helpers/memory-mix.js';
import { MINIMAL_CONFIG, cleanEnv, scratchRepo } from '../helpers/scratch-repo.js';

// The test collects its own process's garbage; the server under test is never told to.
setFlagsFromString('--expose-gc');
const collect = runInNewContext('gc') as () => void;

function liveHeap(): number {
  collect();
  collect();
  return process.memoryUsage().heapUsed;
}

const repo = scratchRepo({
  'discern.toml': MINIMAL_CONFIG,
  'src/a.ts': 'export const a = 1;\n',
  'discern/map/10-guide/start.md': '# Start here\n\nThe project in one page.\n',
});
after(() => repo.cleanup());

describe('the live heap of one server over 1,000 sequential calls', () => {
  it('grows under 10% after a 100-call warm-up', async (t) => {
    const closing = new AbortController();
    const server = createServer({ target: repo.root, env: cleanEnv(), closing: closing.signal, inflight: new Set() });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    const client = new Client({ name: 'discern-tests', version: '0.0.0' });
    await client.connect(clientSide);
    try {
      const calls = MEMORY_MIX;
      let warm = 0;
      for (let n = 1; n <= 1000; n += 1) {
        const [name, args] = calls[n % calls.length] as (typeof calls)[number];
        const result = await client.callTool({ name, arguments: args });
        assert.equal(
          (result.structuredContent as { ok?: boolean } | undefined)?.ok,
          true,
          `call ${n}: ${JSON.stringify(result.structuredContent)}`,
        );
        if (n === 100) warm = liveHeap();
      }
      const end = liveHeap();
      const growth = (end - warm) / warm;
      const mib = (bytes: number): string => (bytes / 1024 / 1024).toFixed(1);
      t.diagnostic(
        `live heap after 100 calls ${mib(warm)} MiB, after 1000 ${mib(end)} MiB, growth ${(growth * 100).toFixed(1)}% (${((end - warm) / 900).toFixed(0)} bytes per call)`,
      );
      assert.ok(growth < 0.1, `the live heap grew ${(growth * 100).toFixed(1)}% over 900 calls`);
    } finally {
      closing.abort();
      await client.close();
      await server.close();
    }
  });
});
