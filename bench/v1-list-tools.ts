// tools/list as the v1 TypeScript SDK's client sees it, the client most MCP hosts embed. Its listTools() compiles
// every tool's output schema with Ajv unless it compiled one with the same $id before; the raw request is the
// same tools/list without that step. Both run against one warm server, alternating, so the ratio is of the same
// process at the same moment.
import { performance } from 'node:perf_hooks';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ListToolsResultSchema } from '@modelcontextprotocol/sdk/types.js';

export interface V1ListToolsResult {
  /** The first listTools() of a client: every output schema compiled once. */
  first: number;
  /** Medians over the later rounds. */
  raw: number;
  listTools: number;
  tools: number;
}

export async function v1ListToolsBench(bin: string, cwd: string, rounds: number): Promise<V1ListToolsResult> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [bin, 'mcp'],
    cwd,
    env: { ...process.env } as Record<string, string>,
  });
  const client = new Client({ name: 'discern-bench-v1', version: '0' });
  await client.connect(transport);
  try {
    // One raw request first, so the first listTools() is not also the server's first tools/list.
    await client.request({ method: 'tools/list' }, ListToolsResultSchema);
    let start = performance.now();
    const { tools } = await client.listTools();
    const first = performance.now() - start;
    const raw: number[] = [];
    const listed: number[] = [];
    for (let i = 0; i < rounds; i++) {
      start = performance.now();
      await client.request({ method: 'tools/list' }, ListToolsResultSchema);
      raw.push(performance.now() - start);
      start = performance.now();
      await client.listTools();
      listed.push(performance.now() - start);
    }
    return { first, raw: median(raw), listTools: median(listed), tools: tools.length };
  } finally {
    await client.close();
  }
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? NaN;
}
