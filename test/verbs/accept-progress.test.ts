// An accept run and an await call announce an R1 handle and keep a journal record; the record is read back from
// the checkout that announced it, or — once the landing removed that worktree — from the surviving main checkout,
// while another live checkout is still refused by name. A red composition stays red: in the queue with its
// failures, and `await --green` is not met by the effort's own Proof. On the real CLI, git and MCP client.
import { describe, it, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { onlyJson, runCli } from '../helpers/cli.js';
import { connectStdio } from '../helpers/mcp-client.js';
import { effort } from '../helpers/efforts.js';
import { cleanEnv, scratchRepo, type ScratchRepo } from '../helpers/scratch-repo.js';

const repos: ScratchRepo[] = [];
after(() => repos.forEach((r) => r.cleanup()));

// Green alone on either side; red when both files are there: only the composition fails.
const CONFIG = `[project]
name = "compose"

[repository]
ensure = ["node -e 0"]

[jobs]
test = "test ! -f a.txt || test ! -f b.txt"
`;

function repo(): ScratchRepo {
  const r = scratchRepo({ 'discern.toml': CONFIG, 'shared.txt': 'one\n' });
  repos.push(r);
  return r;
}

/** The trunk moves in the main checkout, so the next landing composes. */
function moveTrunk(r: ScratchRepo, file: string): string {
  writeFileSync(join(r.root, file), `${file}\n`);
  r.git('add', '-A');
  r.git('commit', '-q', '-m', `add ${file}`);
  return r.git('rev-parse', 'HEAD').trim();
}

async function cli(args: string[], cwd: string): Promise<Record<string, unknown>> {
  return onlyJson(await runCli([...args, '--json'], { cwd, env: cleanEnv() }));
}

interface ProgressData {
  handle: string;
  operation: { verb: string; path: string; root?: string };
  outcome?: string;
  producers: { producer: string; state: string; output_path?: string }[];
  watch?: {
    condition: string;
    target?: string;
    met?: boolean;
    continuation?: string;
    observed: { proof_status?: string };
  };
}

/** One tool call over the SDK's client with a progress token: its result, and its notifications' messages in order. */
async function withProgress(
  root: string,
  name: string,
  args: Record<string, unknown>,
): Promise<{ envelope: { ok: boolean; data: Record<string, unknown> }; messages: string[] }> {
  const mcp = await connectStdio(root);
  try {
    const seen: { progress: number; message?: string | undefined }[] = [];
    const result = await mcp.client.callTool({ name, arguments: args }, { onprogress: (p) => seen.push(p) });
    const envelope = result.structuredContent as { ok: boolean; data: Record<string, unknown> };
    assert.equal(envelope.ok, true, JSON.stringify(envelope, null, 2));
    for (let i = 1; i < seen.length; i++) assert.ok((seen[i]?.progress ?? 0) > (seen[i - 1]?.progress ?? 0));
    return { envelope, messages: seen.map((s) => s.message ?? '') };
  } finally {
    await mcp.client.close();
  }
}

describe('accept and await announce a handle that survives the landing', () => {
  it('a composed landing from the effort worktree is read back from the main checkout, and only there', async () => {
    const r = repo();
    const work = await effort(r, 'composed', 'a.txt', 'a\n');
    const other = await effort(r, 'bystander', 'other.txt', 'x\n', false);
    moveTrunk(r, 'c.txt');

    const landed = await cli(['accept', '--confirmed'], work.path);
    assert.equal(landed['ok'], true, JSON.stringify(landed, null, 2));
    const data = landed['data'] as { handle?: string; root?: string };
    assert.match(data.handle ?? '', /^R1-[0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{2}$/);
    assert.equal(data.root, r.root);
    assert.equal(existsSync(work.path), false, 'the landing removed the worktree the call came from');

    // By handle and as the latest operation, from the surviving root.
    for (const args of [['progress', data.handle ?? ''], ['progress']]) {
      const read = await cli(args, r.root);
      assert.equal(read['ok'], true, JSON.stringify(read, null, 2));
      const p = read['data'] as ProgressData;
      assert.equal(p.handle, data.handle);
      assert.equal(p.operation.verb, 'accept');
      assert.equal(p.operation.path, work.path);
      assert.equal(p.operation.root, r.root);
      assert.equal(p.outcome, 'completed');
      // The composed gate ran inside this record, and its output outlives the integration worktree.
      const test = p.producers.find((x) => x.producer === 'test');
      assert.equal(test?.state, 'ok', JSON.stringify(p.producers));
      assert.ok(test?.output_path !== undefined && existsSync(test.output_path), test?.output_path);
      assert.ok(
        p.producers.some((x) => x.producer === 'ensure: node -e 0' && x.state === 'ok'),
        JSON.stringify(p),
      );
    }

    // Another live checkout still refuses it by name.
    const refused = await cli(['progress', data.handle ?? ''], other.path);
    assert.equal(refused['ok'], false);
    assert.equal(refused['error'], 'invalid_value');
    assert.match(
      String(refused['message']),
      new RegExp(`another checkout, ${r.root.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`),
    );
  });

  it('a red composition is red in the queue with its failures, and await --green is not met by it', async () => {
    const r = repo();
    const work = await effort(r, 'clash', 'a.txt', 'a\n');
    const trunkTip = moveTrunk(r, 'b.txt');

    const red = await cli(['accept', 'clash', '--confirmed'], r.root);
    assert.equal(red['ok'], false);
    assert.equal(red['error'], 'gate_failed', JSON.stringify(red, null, 2));
    const handle = (red['data'] as { handle?: string }).handle ?? '';
    assert.match(handle, /^R1-/);
    const diagnostics = red['diagnostics'] as { output_path?: string }[];
    assert.ok(diagnostics.length > 0 && diagnostics.every((d) => d.output_path && existsSync(d.output_path)));

    const status = await cli(['status'], r.root);
    const queue = (status['data'] as { queue?: Record<string, unknown>[] }).queue ?? [];
    const row = queue.find((q) => q['effort'] === 'clash');
    assert.equal(row?.['readiness'], 'red', JSON.stringify(queue, null, 2));
    assert.equal(row?.['composed_with'], trunkTip);
    assert.equal(row?.['handle'], handle);
    const failures = row?.['failures'] as { tool: string; reproduce_cmd?: string }[];
    assert.equal(failures[0]?.tool, 'test');
    assert.doesNotMatch(String(row?.['reason']), /owner's consent/);
    const markdown = (await runCli(['status', '--markdown'], { cwd: r.root, env: cleanEnv() })).stdout;
    assert.match(markdown, /\*\*red\*\*: the gate failed on it composed with main/);
    assert.match(markdown, /- `test`: /);

    // The effort's own Proof is honored, but its head composed with the trunk is not green.
    const waited = await runCli(['await', '--green', 'clash', '--timeout', '1', '--json'], {
      cwd: work.path,
      env: cleanEnv(),
    });
    assert.equal(waited.code, 124, waited.stdout + waited.stderr);
    const awaited = onlyJson(waited)['data'] as {
      met: boolean;
      handle?: string;
      resume?: string;
      observed: { proof_status?: string; composition?: { composed_with: string; handle?: string } };
    };
    assert.equal(awaited.met, false);
    assert.equal(awaited.observed.proof_status, 'red-composition');
    assert.equal(awaited.observed.composition?.composed_with, trunkTip);
    assert.equal(awaited.observed.composition?.handle, handle);

    // The await's own record: its target, condition, latest observation and continuation.
    const read = await cli(['progress', awaited.handle ?? ''], work.path);
    const watch = (read['data'] as ProgressData).watch;
    assert.equal(watch?.condition, 'green');
    assert.equal(watch?.target, 'clash');
    assert.equal(watch?.met, false);
    assert.equal(watch?.observed.proof_status, 'red-composition');
    assert.equal(watch?.continuation, awaited.resume);

    // The accept run was announced from the main checkout, which reads it back with its failed gate.
    const run = (await cli(['progress', handle], r.root))['data'] as ProgressData;
    assert.equal(run.outcome, 'failed');
    assert.equal(run.producers.find((p) => p.producer === 'test')?.state, 'failed');

    // A new head clears it: the row is judged afresh.
    work.change('a.txt', 'changed\n');
    const after = await cli(['status'], r.root);
    const again = ((after['data'] as { queue?: Record<string, unknown>[] }).queue ?? []).find(
      (q) => q['effort'] === 'clash',
    );
    assert.notEqual(again?.['readiness'], 'red');
  });

  it('over MCP, accept announces its handle first and reports the composition as it goes', async () => {
    const r = repo();
    await effort(r, 'told', 'a.txt', 'a\n');
    moveTrunk(r, 'c.txt');
    const { envelope, messages } = await withProgress(r.root, 'discern_accept', { target: 'told', confirmed: true });
    assert.match(
      messages[0] ?? '',
      new RegExp(`^${String(envelope.data['handle'])} — read it back with discern_progress`),
    );
    assert.ok(
      messages.some((m) => m.includes('ensure: node -e 0')),
      JSON.stringify(messages),
    );
    assert.ok(
      messages.some((m) => /running the gate on agent\/told composed with main/.test(m)),
      JSON.stringify(messages),
    );
  });

  it('over MCP, start reports its copies and ensure commands as they run', async () => {
    const r = repo();
    const { messages } = await withProgress(r.root, 'discern_start', { name: 'shown' });
    assert.ok(
      messages.some((m) => m.includes('ensure: node -e 0')),
      JSON.stringify(messages),
    );
  });

  it('a dry run, a refusal before any gate, and a queue-only call announce no handle', async () => {
    const r = repo();
    const work = await effort(r, 'quiet', 'a.txt', 'a\n');
    const dry = await cli(['accept', 'quiet', '--dry-run'], r.root);
    assert.equal((dry['data'] as { handle?: string }).handle, undefined);
    const queued = await cli(['accept', 'quiet', '--action', 'queue'], r.root);
    assert.equal(queued['ok'], true, JSON.stringify(queued));
    assert.equal((queued['data'] as { handle?: string }).handle, undefined);
    writeFileSync(join(work.path, 'dirty.txt'), 'x\n');
    const dirty = await cli(['accept', 'quiet', '--confirmed'], r.root);
    assert.equal(dirty['error'], 'dirty_worktree');
    assert.equal((dirty['data'] as { handle?: string } | undefined)?.handle, undefined);
  });
});
