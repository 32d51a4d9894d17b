// Process-level timings: a command run to completion, and the MCP server from spawn to its tools/list answer.
import { spawn } from 'node:child_process';
import { performance } from 'node:perf_hooks';

/** Resolves with the elapsed milliseconds; rejects when the command exits with another status than `expectExit`. */
export function timeCommand(command: string, args: readonly string[], cwd: string, expectExit = 0): Promise<number> {
  return new Promise((resolve, reject) => {
    const start = performance.now();
    const child = spawn(command, args, { cwd, stdio: ['ignore', 'ignore', 'inherit'] });
    child.once('error', reject);
    child.once('close', (code) =>
      code === expectExit
        ? resolve(performance.now() - start)
        : reject(new Error(`${command} ${args.join(' ')} exited ${code}`)),
    );
  });
}

/** Spawn `discern mcp`, initialize, list tools; the time until the tools/list response arrives. */
export function timeMcpToolsList(bin: string, cwd: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const start = performance.now();
    const child = spawn(process.execPath, [bin, 'mcp'], { cwd, stdio: ['pipe', 'pipe', 'inherit'] });
    child.once('error', reject);
    let buffer = '';
    let elapsed = 0;
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      buffer += chunk;
      let newline: number;
      while ((newline = buffer.indexOf('\n')) >= 0) {
        const line = buffer.slice(0, newline);
        buffer = buffer.slice(newline + 1);
        const message = JSON.parse(line) as { id?: number; result?: { tools?: unknown[] } };
        if (message.id === 1) {
          child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n`);
          child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list', params: {} })}\n`);
        } else if (message.id === 2) {
          if (!Array.isArray(message.result?.tools) || message.result.tools.length === 0)
            reject(new Error('tools/list returned no tools'));
          elapsed = performance.now() - start;
          child.stdin.end();
        }
      }
    });
    child.once('close', () =>
      elapsed > 0 ? resolve(elapsed) : reject(new Error('the server closed before answering tools/list')),
    );
    const initialize = {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'bench', version: '0' } },
    };
    child.stdin.write(`${JSON.stringify(initialize)}\n`);
  });
}
