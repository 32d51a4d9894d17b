// Live progress and cancellation of a gate over MCP, end to end with the SDK client: a call with a progress
// token receives notifications/progress (the R1 handle first, then producers' counts); a cancelled call and a
// closed transport kill the jobs' process trees and leave the journal saying `cancelled`. The SDK drops the
// response after a cancel, so these tests look at the effects: processes and journal records.
import { describe, it, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { connectStdio } from '../helpers/mcp-client.js';
import { processAlive as alive, readPidFile } from '../helpers/processes.js';
import { until } from '../helpers/until.js';
import { scratchRepo, type ScratchRepo } from '../helpers/scratch-repo.js';

const repos: ScratchRepo[] = [];
after(() => {
  for (const r of repos) r.cleanup();
});

function gateRepo(jobs: string): ScratchRepo {
  const r = scratchRepo({ 'discern.toml': `[project]\nname = "progress"\n\n[jobs]\n${jobs}` });
  repos.push(r);
  return r;
}

function journalRecords(
  root: string,
): { handle: string; verb: string; outcome?: string; finished_at?: string; pgids: number[] }[] {
  const dir = join(root, '.git', 'discern', 'operations');
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((n) => n.endsWith('.json') && !n.endsWith('.result.json') && !n.startsWith('.'))
    .map(
      (n) =>
        JSON.parse(readFileSync(join(dir, n), 'utf8')) as {
          handle: string;
          verb: string;
          outcome?: string;
          finished_at?: string;
          pgids: number[];
        },
    );
}

describe('MCP progress notifications', () => {
  it('announce the R1 handle first, then the producers as they run and finish', async () => {
    const r = gateRepo(
      `test = "echo 'DISCERN_PROGRESS {\\"units\\":{\\"kind\\":\\"tests\\",\\"completed\\":1,\\"total\\":2},\\"results\\":{\\"passed\\":1}}'; sleep 0.3; echo 'DISCERN_PROGRESS {\\"units\\":{\\"kind\\":\\"tests\\",\\"completed\\":2,\\"total\\":2},\\"results\\":{\\"passed\\":2}}'"\nlint = "true"\n`,
    );
    const mcp = await connectStdio(r.root);
    try {
      const seen: { progress: number; total?: number | undefined; message?: string | undefined }[] = [];
      const result = await mcp.client.callTool(
        { name: 'discern_done', arguments: {} },
        { onprogress: (p) => seen.push(p) },
      );
      const envelope = result.structuredContent as { ok: boolean; data: { handle: string } };
      assert.equal(envelope.ok, true, JSON.stringify(envelope));
      assert.ok(seen.length >= 4, JSON.stringify(seen));
      assert.match(seen[0]?.message ?? '', new RegExp(`^${envelope.data.handle} — read it back with discern_progress`));
      for (let i = 1; i < seen.length; i++)
        assert.ok(
          (seen[i]?.progress ?? 0) > (seen[i - 1]?.progress ?? 0),
          'progress increases with every notification',
        );
      assert.ok(
        seen.some((p) => /tests 2\/2; 2 passed/.test(p.message ?? '')) ||
          seen.some((p) => /test ok/.test(p.message ?? '')),
        JSON.stringify(seen),
      );
      // Two producers, plus the step that records the outcome: progress never reaches the total.
      assert.equal(seen.at(-1)?.total, 3);
      assert.ok(
        seen.every((p) => p.total === undefined || p.progress < p.total),
        JSON.stringify(seen),
      );
      assert.ok(seen.some((p) => /2\/2 finished/.test(p.message ?? '')));
    } finally {
      await mcp.client.close();
    }
  });
  it('without a progress token nothing is sent and the call still answers', async () => {
    const r = gateRepo('test = "true"\n');
    const mcp = await connectStdio(r.root);
    try {
      let notified = 0;
      mcp.client.setNotificationHandler?.('notifications/progress' as never, (() => notified++) as never);
      const result = await mcp.client.callTool({ name: 'discern_test', arguments: {} });
      assert.equal((result.structuredContent as { ok: boolean }).ok, true);
      assert.equal(notified, 0);
    } finally {
      await mcp.client.close();
    }
  });
});

describe('MCP cancellation', () => {
  it('a cancelled discern_done kills its jobs and the journal records cancelled', async () => {
    const r = gateRepo('test = "echo $$ > test.pid; sleep 60 & echo $! > sleeper.pid; wait"\n');
    r.write('.gitignore', '*.pid\n');
    r.commit('ignore pid files');
    const mcp = await connectStdio(r.root);
    try {
      const controller = new AbortController();
      const call = mcp.client
        .callTool({ name: 'discern_done', arguments: {} }, { signal: controller.signal })
        .catch((e: unknown) => e);
      const sleeper = await until('the job to start', () => readPidFile(join(r.root, 'sleeper.pid')));
      assert.ok(alive(sleeper));
      controller.abort();
      assert.ok((await call) instanceof Error, 'the client sees its own cancellation');
      await until('the job tree to die', () => (alive(sleeper) ? undefined : true));
      const record = await until('the journal to record the cancellation', () =>
        journalRecords(r.root).find((x) => x.verb === 'done' && x.outcome === 'cancelled'),
      );
      assert.ok(record.finished_at);
      assert.deepEqual(record.pgids, []);
      // The server is still serving.
      const status = await mcp.client.callTool({ name: 'discern_status', arguments: {} });
      assert.equal((status.structuredContent as { ok: boolean }).ok, true);
    } finally {
      await mcp.client.close();
    }
  });
  it('closing the transport mid-run cancels it the same way, then the server exits', async () => {
    const r = gateRepo('test = "sleep 60 & echo $! > sleeper.pid; wait"\n');
    r.write('.gitignore', '*.pid\n');
    r.commit('ignore pid files');
    const mcp = await connectStdio(r.root);
    const serverPid = mcp.transport.pid ?? 0;
    void mcp.client.callTool({ name: 'discern_test', arguments: {} }).catch(() => undefined);
    let sleeper: number;
    try {
      sleeper = await until('the job to start', () => readPidFile(join(r.root, 'sleeper.pid')));
    } finally {
      // Closed on failure too: an open transport would keep this test file's process alive.
      await mcp.client.close();
    }
    await until('the job tree to die', () => (alive(sleeper) ? undefined : true));
    await until('the server to exit', () => (serverPid > 0 && alive(serverPid) ? undefined : true));
    const record = await until('the journal to record the cancellation', () =>
      journalRecords(r.root).find((x) => x.verb === 'test' && x.outcome === 'cancelled'),
    );
    assert.ok(record.finished_at);
  });
});
