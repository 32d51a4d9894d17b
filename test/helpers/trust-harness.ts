// One `discern mcp` server for a trust test file, started outside every repository (each call names its `path`),
// over the SDK's own client; the scratch repositories the file makes are removed with it.
import { after, before } from 'node:test';
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { connectStdio, type Connected } from './mcp-client.js';
import { tempDir, type ScratchRepo } from './scratch-repo.js';

export type Envelope = Record<string, unknown> & {
  ok: boolean;
  error?: string;
  message?: string;
  data?: Record<string, unknown>;
  advisories?: { kind: string; evidence?: string[] }[];
};

export interface TrustHarness {
  /** Repositories to remove after the file's tests. */
  repos: ScratchRepo[];
  /** The server's working directory: in no repository. */
  elsewhere(): string;
  /** Calls a tool on the file's server (or on `via`) and returns its envelope. */
  tool(name: string, args: Record<string, unknown>, via?: Connected): Promise<Envelope>;
}

/** `env`: extra variables for the server (the scratch repositories' git ignores the system config; so may it). */
export function trustHarness(prefix: string, env: Record<string, string> = {}): TrustHarness {
  const repos: ScratchRepo[] = [];
  let mcp: Connected | undefined;
  let dir = '';
  before(async () => {
    dir = tempDir(prefix);
    mcp = await connectStdio(dir, env);
  });
  after(async () => {
    await mcp?.client.close();
    repos.forEach((r) => r.cleanup());
    rmSync(dir, { recursive: true, force: true });
  });
  return {
    repos,
    elsewhere: () => dir,
    async tool(name, args, via) {
      const client = via ?? mcp;
      assert.ok(client, 'the server is connected');
      const result = (await client.client.callTool({ name, arguments: args })) as { structuredContent?: Envelope };
      assert.ok(result.structuredContent, `${name} answers with an envelope`);
      return result.structuredContent;
    },
  };
}

export function show(value: unknown): string {
  return JSON.stringify(value, null, 2);
}
