// A warm MCP server answering many tool calls in a row: percentiles of the round trip, client side.
import { performance } from 'node:perf_hooks';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';

export async function toolRoundTrips(
  bin: string,
  cwd: string,
  tool: string,
  calls: number,
): Promise<{ p50: number; p95: number; max: number }> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [bin, 'mcp'],
    cwd,
    env: { ...process.env } as Record<string, string>,
  });
  const client = new Client({ name: 'discern-bench', version: '0' });
  await client.connect(transport);
  try {
    for (let i = 0; i < 5; i++) await client.callTool({ name: tool, arguments: {} }); // warm-up
    const times: number[] = [];
    for (let i = 0; i < calls; i++) {
      const start = performance.now();
      const result = await client.callTool({ name: tool, arguments: {} });
      times.push(performance.now() - start);
      if (result.isError) throw new Error(`${tool} failed: ${JSON.stringify(result.structuredContent)}`);
    }
    times.sort((a, b) => a - b);
    const at = (q: number): number => times[Math.min(times.length - 1, Math.floor(q * times.length))] ?? NaN;
    return { p50: at(0.5), p95: at(0.95), max: times[times.length - 1] ?? NaN };
  } finally {
    await client.close();
  }
}
