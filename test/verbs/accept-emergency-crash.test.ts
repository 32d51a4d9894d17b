// Crash safety of an emergency landing, through the real CLI: the process is SIGKILLed at each named step
// (DISCERN_FAULT=emergency:<step>); the trunk is then before or exactly at the repair, never elsewhere, and
// `discern accept --recover <landing id>` finishes exactly the rest — once, idempotently — or, when the trunk
// went elsewhere meanwhile, withdraws the exception record and lands nothing. Also the CLI and MCP surfaces.
import { describe, it, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { cleanEnv, scratchRepo, type ScratchRepo } from '../helpers/scratch-repo.js';
import { onlyJson, runCli } from '../helpers/cli.js';
import { call } from '../helpers/drive.js';
import { effort } from '../helpers/efforts.js';
import { connectStdio } from '../helpers/mcp-client.js';
import { parseExceptionNote } from '../../src/engine/notes/exception-note.js';

const repos: ScratchRepo[] = [];
after(() => repos.forEach((r) => r.cleanup()));

const CONFIG = `[project]
name = "emergency"

[jobs]
build = "test ! -f broken"
test = "true"
`;
const REASON = 'the trunk is broken; this repairs it';

interface Emergency {
  landing_id?: string;
  approval_token?: string;
  state?: string;
  token_problem?: { kind: string };
  record?: { ref: string; commit: string };
}
interface Landed {
  ok: boolean;
  error?: string;
  message?: string;
  hints?: string[];
  data?: {
    emergency?: Emergency;
    landing?: {
      recovery_performed: boolean;
      recovered_from?: string;
      worktree_removed: boolean;
      branch_deleted: boolean;
    };
    root?: string;
  };
}

async function redRepair(): Promise<{ r: ScratchRepo; path: string; head: string; before: string }> {
  const r = scratchRepo({ 'discern.toml': CONFIG });
  repos.push(r);
  const before = r.git('rev-parse', 'main').trim();
  const w = await effort(r, 'repair', 'fix.txt', 'fixed\n', false);
  const head = w.change('broken', 'x\n', 'still broken elsewhere');
  return { r, path: w.path, head, before };
}

async function cli(
  r: ScratchRepo,
  args: string[],
  fault?: string,
): Promise<{ killed: boolean; code: number | null; result?: Landed }> {
  const run = await runCli([...args, '--json'], {
    cwd: r.root,
    env: cleanEnv(fault ? { DISCERN_FAULT: `emergency:${fault}` } : {}),
  });
  if (run.signal === 'SIGKILL') return { killed: true, code: null };
  return { killed: false, code: run.code, result: onlyJson(run) as unknown as Landed };
}

function worktreeCount(r: ScratchRepo): number {
  return r
    .git('worktree', 'list', '--porcelain')
    .split('\n')
    .filter((l) => l.startsWith('worktree ')).length;
}

function exceptionOn(r: ScratchRepo, commit: string): ReturnType<typeof parseExceptionNote> {
  try {
    return parseExceptionNote(r.git('notes', '--ref=refs/notes/discern-exceptions', 'show', commit));
  } catch {
    return undefined;
  }
}

describe('an emergency landing killed at each step', () => {
  for (const step of [
    'started',
    'note_written',
    'trunk_landed',
    'resources_destroyed',
    'worktree_removed',
    'branch_deleted',
  ]) {
    it(`a kill at ${step}, then recover: landed exactly once, recorded, cleaned up`, async () => {
      const { r, path, head, before } = await redRepair();
      const preview = await cli(r, ['accept', 'repair', '--emergency', '--reason', REASON]);
      assert.equal(preview.code, 1);
      assert.equal(preview.result?.error, 'confirmation_required');
      const token = preview.result?.data?.emergency?.approval_token ?? '';
      const id = preview.result?.data?.emergency?.landing_id ?? '';
      assert.match(id, /^E-[0-9a-f]{12}$/);

      const killed = await cli(
        r,
        ['accept', 'repair', '--emergency', '--reason', REASON, '--confirmed', '--approval-token', token],
        step,
      );
      assert.equal(killed.killed, true, `the fault at ${step} killed the process`);
      const trunkNow = r.git('rev-parse', 'main').trim();
      const landedYet = !['started', 'note_written'].includes(step);
      assert.equal(trunkNow, landedYet ? head : before, 'the trunk is before or exactly at the repair');
      // The record is written before the trunk moves: the repair is never on the trunk without it.
      if (landedYet || step === 'note_written') assert.equal(exceptionOn(r, head)?.payload.landing_id, id);
      const status = await call('status', {}, r.root);
      assert.ok(
        status.verb === 'status' && status.data && 'emergency_pending' in status.data,
        JSON.stringify(status.data),
      );
      assert.deepEqual(
        status.data.emergency_pending?.map((e) => e.landing_id),
        [id],
      );

      const recovered = await cli(r, ['accept', '--recover', id]);
      assert.ok(recovered.result?.ok, JSON.stringify(recovered.result, null, 2));
      assert.equal(recovered.code, 0);
      assert.equal(recovered.result.data?.landing?.recovery_performed, true);
      assert.equal(recovered.result.data?.landing?.recovered_from, step);
      assert.equal(recovered.result.data?.emergency?.landing_id, id);
      assert.equal(recovered.result.data?.emergency?.state, 'landed');
      assert.equal(r.git('rev-parse', 'main').trim(), head);
      assert.equal(exceptionOn(r, head)?.payload.landing_id, id);
      assert.throws(() => r.git('notes', '--ref=refs/notes/discern', 'show', head), 'never a Proof note');
      assert.ok(!existsSync(path), 'no orphaned worktree');
      assert.equal(worktreeCount(r), 1);
      assert.ok(!r.git('branch', '--list', 'agent/repair').trim());
      assert.ok(!existsSync(join(r.root, '.git', 'discern', 'locks', 'accept.lock')), 'no lock left held');
      const record = JSON.parse(readFileSync(join(r.root, '.git', 'discern', 'emergency', `${id}.json`), 'utf8')) as {
        completed_at?: string;
      };
      assert.ok(record.completed_at, 'the transaction is closed as completed');

      // Idempotent: recovering a finished landing answers with it and changes nothing.
      const again = await cli(r, ['accept', '--recover', id]);
      assert.ok(again.result?.ok, JSON.stringify(again.result, null, 2));
      assert.equal(again.result.data?.landing?.recovery_performed, false);
      assert.equal(r.git('rev-parse', 'main').trim(), head);
      const after = await call('status', {}, r.root);
      assert.ok(after.verb === 'status' && after.data && 'location' in after.data);
      assert.equal(after.data.emergency_pending, undefined);
      assert.equal(after.data.landed_exception?.landing_id, id);
    });
  }

  it('the same confirmed call repeated after a kill resumes the landing it started', async () => {
    const { r, head } = await redRepair();
    const token =
      (await cli(r, ['accept', 'repair', '--emergency', '--reason', REASON])).result?.data?.emergency?.approval_token ??
      '';
    const args = ['accept', 'repair', '--emergency', '--reason', REASON, '--confirmed', '--approval-token', token];
    assert.equal((await cli(r, args, 'trunk_landed')).killed, true);
    const again = await cli(r, args);
    assert.ok(again.result?.ok, JSON.stringify(again.result, null, 2));
    assert.equal(again.result.data?.landing?.recovered_from, 'trunk_landed');
    assert.equal(r.git('rev-parse', 'main').trim(), head);
  });

  it('a kill before the trunk moved, then the trunk moves elsewhere: recover lands nothing and withdraws the record', async () => {
    const { r, path, head, before } = await redRepair();
    const preview = (await cli(r, ['accept', 'repair', '--emergency', '--reason', REASON])).result?.data?.emergency;
    assert.equal(
      (
        await cli(
          r,
          [
            'accept',
            'repair',
            '--emergency',
            '--reason',
            REASON,
            '--confirmed',
            '--approval-token',
            preview?.approval_token ?? '',
          ],
          'note_written',
        )
      ).killed,
      true,
    );
    assert.ok(exceptionOn(r, head));
    r.write('elsewhere.txt', 'moved\n');
    r.commit('the trunk moves on');
    const moved = r.git('rev-parse', 'main').trim();
    assert.notEqual(moved, before);
    const recovered = await cli(r, ['accept', '--recover', preview?.landing_id ?? '']);
    assert.equal(recovered.result?.error, 'apply_failed', JSON.stringify(recovered.result, null, 2));
    assert.match(recovered.result.message ?? '', /Nothing landed/);
    assert.equal(r.git('rev-parse', 'main').trim(), moved);
    assert.equal(exceptionOn(r, head), undefined, 'the record of a landing that did not happen is withdrawn');
    assert.ok(existsSync(path), 'the repair is kept');
    assert.ok(!existsSync(join(r.root, '.git', 'discern', 'emergency', `${preview?.landing_id ?? ''}.json`)));
  });

  it('recover of an unknown landing id is refused with exit 1', async () => {
    const { r } = await redRepair();
    const refused = await cli(r, ['accept', '--recover', 'E-0123456789ab']);
    assert.equal(refused.code, 1);
    assert.equal(refused.result?.error, 'unknown_target');
  });
});

describe('emergency integration over MCP', () => {
  it('previews, then lands with the token through the SDK client; the server re-aims at the main checkout', async () => {
    const { r, path, head } = await redRepair();
    const mcp = await connectStdio(path);
    try {
      const preview = await mcp.client.callTool({
        name: 'discern_accept',
        arguments: { action: 'emergency', reason: REASON },
      });
      assert.equal(preview.isError, true);
      const previewed = preview.structuredContent as Landed;
      assert.equal(previewed.error, 'confirmation_required');
      const text = (preview.content as { type: string; text: string }[])[0]?.text ?? '';
      assert.match(text, /without passing Proof/);
      assert.match(text, /approval_token/);
      const landed = await mcp.client.callTool({
        name: 'discern_accept',
        arguments: {
          action: 'emergency',
          reason: REASON,
          confirmed: true,
          approval_token: previewed.data?.emergency?.approval_token,
        },
      });
      assert.equal(landed.isError, false, JSON.stringify(landed.structuredContent));
      assert.equal((landed.structuredContent as Landed).data?.emergency?.record?.commit, head);
      const status = await mcp.client.callTool({ name: 'discern_status', arguments: {} });
      const statusData = (
        status.structuredContent as {
          data: { root: string; landed_exception?: { commit: string }; landed_proof?: unknown };
        }
      ).data;
      assert.equal(statusData.root, r.root);
      assert.equal(statusData.landed_exception?.commit, head);
      assert.equal(statusData.landed_proof, undefined);
      const emergencyFlag = await mcp.client.callTool({
        name: 'discern_accept',
        arguments: { emergency: true, reason: REASON },
      });
      assert.equal(
        (emergencyFlag.structuredContent as Landed).error,
        'invalid_arguments',
        'emergency is the CLI spelling only',
      );
    } finally {
      await mcp.client.close();
    }
  });
});
