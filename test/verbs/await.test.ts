// await on real repositories: each condition met (at once, and after a wait woken by the change), expired with a
// C1 handle and resumed, cancelled with no effect, the budget by MCP client, the CLI's exit 124, and refusals.
import { describe, it, after } from 'node:test';
import assert from 'node:assert/strict';
import type { DiscernAwaitData } from '../../generated/types.js';
import { invoke } from '../../src/verbs/invoke.js';
import { assertDriven, call } from '../helpers/drive.js';
import { effort, trackedRepo } from '../helpers/efforts.js';
import { onlyJson, runCli } from '../helpers/cli.js';
import { connectStdio } from '../helpers/mcp-client.js';
import { cleanEnv, type ScratchRepo } from '../helpers/scratch-repo.js';

const repos: ScratchRepo[] = [];
after(() => repos.forEach((r) => r.cleanup()));

function awaited(result: Awaited<ReturnType<typeof call>>): DiscernAwaitData {
  assert.ok(
    result.ok && result.verb === 'await' && result.data && 'met' in result.data,
    JSON.stringify(result, null, 2),
  );
  return result.data;
}

function later(ms: number, action: () => void): Promise<void> {
  return new Promise((resolve) =>
    setTimeout(() => {
      action();
      resolve();
    }, ms),
  );
}

describe('await', () => {
  it('trunk_moved wakes when the trunk moves, well before its budget', async () => {
    const r = trackedRepo(repos);
    const waiting = call('await', { trunk_moved: true, timeout: 20 }, r.root);
    // On a loaded machine the wait may take its start tip after a first move: the trunk moves again every
    // 1.5 s until it answers, and the answer must still come long before the 20 s budget.
    let answered = false;
    void waiting.finally(() => (answered = true));
    for (let n = 0; !answered && n < 6; n += 1) {
      await later(n === 0 ? 400 : 1500, () => {
        if (answered) return;
        r.write('moved.txt', `${n}\n`);
        r.commit(`move the trunk (${n})`);
      });
    }
    const d = awaited(await waiting);
    assert.equal(d.met, true);
    assert.equal(d.observed.trunk_head, r.git('rev-parse', 'main').trim());
    assert.ok(d.elapsed_ms < 10_000, `woken by the change, not the budget (${d.elapsed_ms} ms)`);
  });

  it('landed: not yet → a resume handle; after the landing, resume is met at once — even with the branch deleted', async () => {
    const r = trackedRepo(repos);
    const w = await effort(r, 'lands', 'l.txt', 'l\n');
    const first = awaited(await call('await', { landed: 'lands', timeout: 1 }, r.root));
    assert.equal(first.met, false);
    assert.match(first.resume ?? '', /^C1-[0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{2}$/);
    assert.equal((await call('accept', { confirmed: true }, w.path)).ok, true);
    assert.equal(r.git('branch', '--list', 'agent/lands').trim(), '', 'the branch is gone');
    const resumed = await call('await', { resume: first.resume, timeout: 5 }, r.root);
    const d = awaited(resumed);
    assert.equal(d.met, true);
    assert.equal(d.observed.landed, true);
    assert.match(resumed.hints?.[0] ?? '', /from "[0-9a-f]{12}"/);
  });

  it('green: missing Proof waits; once the sibling is proven it is met, naming the commit to build on', async () => {
    const r = trackedRepo(repos);
    const w = await effort(r, 'sibling', 's.txt', 's\n', false);
    const before = awaited(await call('await', { green: 'sibling', timeout: 1 }, r.root));
    assert.equal(before.met, false);
    assert.equal(before.observed.proof_status, 'missing');
    const waiting = call('await', { green: 'sibling', timeout: 20 }, r.root);
    await later(300, () => undefined);
    assert.equal((await call('done', {}, w.path)).ok, true);
    const d = awaited(await waiting);
    assert.equal(d.met, true);
    assert.equal(d.observed.proof_status, 'honored');
  });

  it('timeout 0 checks once and returns', async () => {
    const r = trackedRepo(repos);
    const d = awaited(await call('await', { trunk_moved: true, timeout: 0 }, r.root));
    assert.equal(d.met, false);
    assert.equal(d.timeout_s, 0);
    assert.ok(d.elapsed_ms < 2000);
    assert.match(d.resume ?? '', /^C1-/);
  });

  it('a sibling with no commits of its own has not landed', async () => {
    const r = trackedRepo(repos);
    assert.equal((await call('start', { name: 'fresh' }, r.root)).ok, true);
    const d = awaited(await call('await', { landed: 'fresh', timeout: 0 }, r.root));
    assert.equal(d.met, false);
  });

  it('a cancelled wait is a success with no effect', async () => {
    const r = trackedRepo(repos);
    const controller = new AbortController();
    const waiting = invoke(
      'await',
      { trunk_moved: true, timeout: 30 },
      { surface: 'mcp', defaultTarget: r.root, env: cleanEnv(), signal: controller.signal },
    );
    await later(300, () => controller.abort());
    const result = await waiting;
    assert.ok(result.ok && result.verb === 'await' && result.data && 'met' in result.data);
    assert.equal(result.data.met, false);
    assert.equal(result.data.cancelled, true);
  });

  it('refuses no condition, two conditions, a malformed handle and an unknown effort', async () => {
    const r = trackedRepo(repos);
    assert.equal((await call('await', {}, r.root)).error, 'invalid_value');
    assert.equal((await call('await', { trunk_moved: true, landed: 'x' }, r.root)).error, 'invalid_value');
    const bad = await call('await', { resume: 'C1-0000-0000-00' }, r.root);
    assert.equal(bad.error, 'invalid_value');
    assert.equal((await call('await', { green: 'nobody' }, r.root)).error, 'unknown_target');
    assert.equal((await call('await', { resume: 'R1-0000-0000-00' }, r.root)).error, 'invalid_value');
  });

  it('the CLI exits 124 when the budget runs out, with the resume handle in the result', async () => {
    const r = trackedRepo(repos);
    const run = await runCli(['await', '--trunk-moved', '--timeout', '1', '--json'], { cwd: r.root, env: cleanEnv() });
    assert.equal(run.code, 124);
    const result = onlyJson(run) as { ok: boolean; data: DiscernAwaitData };
    assert.equal(result.ok, true);
    assert.equal(result.data.met, false);
    assert.match(result.data.timeout_basis, /the CLI: long profile \(3300 s\)/);
  });

  it('drove await through success and failure', () => assertDriven(['await']));
});

describe('await over MCP', () => {
  it('an unknown client gets the short profile; timeout shortens it', async () => {
    const r = trackedRepo(repos);
    const mcp = await connectStdio(r.root);
    try {
      const result = await mcp.client.callTool({ name: 'discern_await', arguments: { trunk_moved: true, timeout: 1 } });
      const d = (result.structuredContent as { data: DiscernAwaitData }).data;
      assert.equal(d.timeout_s, 1);
      assert.match(d.timeout_basis, /client "discern-tests": short profile \(45 s\)/);
      assert.equal(result.isError, false);
    } finally {
      await mcp.client.close();
    }
  });
});
