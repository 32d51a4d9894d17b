// accept on real scratch repositories with real efforts (start, commit, done): refusal without authority and the
// queue it leaves, the owner's grant (CLI only), consent, standing scopes, fast-forward landing with a clean
// trunk checkout following, composition over a moved trunk, a conflicting or red composition returned with the
// trunk untouched, the Proof note, cleanup, dry runs, queue mode, and MCP re-aiming.
import { describe, it, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv2020 } from 'ajv/dist/2020.js';
import type { DiscernAcceptData } from '../../generated/types.js';
import { parseProofNote } from '../../src/engine/notes/proof-note.js';
import { assertDriven, AT_A_TERMINAL, call } from '../helpers/drive.js';
import { BASE_CONFIG, effort, trackedRepo } from '../helpers/efforts.js';
import { connectStdio } from '../helpers/mcp-client.js';
import type { ScratchRepo } from '../helpers/scratch-repo.js';

const repos: ScratchRepo[] = [];
after(() => repos.forEach((r) => r.cleanup()));
const repo = (extra = ''): ScratchRepo => trackedRepo(repos, extra);

const noteSchema = JSON.parse(
  readFileSync(fileURLToPath(new URL('../../schema/discern-proof-note.schema.json', import.meta.url)), 'utf8'),
) as object;
const validateNote = new Ajv2020({ strict: false }).compile(noteSchema);

function accepted(result: Awaited<ReturnType<typeof call>>): DiscernAcceptData {
  assert.ok(result.verb === 'accept' && result.data && !('issues' in result.data), JSON.stringify(result, null, 2));
  return result.data;
}

function trunk(r: ScratchRepo): string {
  return r.git('rev-parse', 'main').trim();
}

describe('accept', () => {
  it('without authority refuses read-only: the submission waits in the queue and nothing lands', async () => {
    const r = repo();
    const before = trunk(r);
    const w = await effort(r, 'feature', 'feature.txt', 'x\n');
    const result = await call('accept', {}, w.path);
    assert.equal(result.error, 'awaiting_consent');
    const d = accepted(result);
    assert.equal(d.submission?.state, 'queued');
    assert.equal(d.queue?.[0]?.effort, 'feature');
    assert.equal(d.queue?.[0]?.readiness, 'waiting');
    assert.equal(d.landing_authority?.kind, 'conversation-required');
    assert.match(result.message ?? '', /discern Proof: agent\/feature @/);
    assert.equal(trunk(r), before);
    assert.ok(existsSync(w.path));
  });

  it('confirmed consent lands by fast-forward; the clean trunk checkout follows; note, worktree and branch are handled', async () => {
    const r = repo();
    const w = await effort(r, 'ff', 'ff.txt', 'ff\n');
    const head = w.git('rev-parse', 'HEAD').trim();
    const result = await call('accept', { confirmed: true }, w.path);
    assert.ok(result.ok, JSON.stringify(result, null, 2));
    const d = accepted(result);
    assert.deepEqual(d.landing, {
      recovery_performed: false,
      trunk_landed: true,
      landed_commit: head,
      fast_forward: true,
      worktree_removed: true,
      branch_deleted: true,
    });
    assert.deepEqual(d.consent, { source: 'conversation' });
    assert.equal(d.root, r.root);
    assert.equal(trunk(r), head);
    assert.equal(readFileSync(join(r.root, 'ff.txt'), 'utf8'), 'ff\n', 'the main checkout of the trunk moved with it');
    assert.equal(r.git('status', '--porcelain').trim(), '');
    assert.ok(!existsSync(w.path));
    assert.ok(!r.git('branch', '--list', 'agent/ff').trim());
    assert.equal(d.proof_note?.write.status, 'recorded');
    const note = parseProofNote(r.git('notes', '--ref=refs/notes/discern', 'show', head));
    assert.ok(note && validateNote(note.envelope), JSON.stringify(validateNote.errors));
    assert.equal(note.payload.subject.commit, head);
    assert.equal(note.payload.presentation.line, d.proof_line);
    assert.deepEqual(note.payload.acceptance, { consent: { source: 'conversation' } });
  });

  it("the owner's grant is CLI only, recorded, and lands", async () => {
    const r = repo();
    const w = await effort(r, 'granted', 'g.txt', 'g\n');
    const overMcp = await call('accept', { target: 'granted', grant: true }, r.root, {}, 'mcp');
    assert.equal(overMcp.error, 'invalid_arguments', 'grant is not in the MCP schema');
    const withoutTerminal = await call('accept', { target: 'granted', grant: true }, r.root, {}, 'cli');
    assert.equal(withoutTerminal.error, 'precondition_failed', 'a grant needs an interactive terminal');
    const result = await call('accept', { target: 'granted', grant: true }, r.root, {}, 'cli', AT_A_TERMINAL);
    assert.ok(result.ok, JSON.stringify(result, null, 2));
    assert.deepEqual(accepted(result).consent, { source: 'grant' });
    assert.equal(trunk(r), accepted(result).landing?.landed_commit);
    assert.ok(!existsSync(w.path));
  });

  it('a change inside pre_authorized scopes lands without consent; one outside them waits', async () => {
    const r = repo('\n[acceptance]\npre_authorized = ["docs"]\n');
    const docs = await effort(r, 'docs-only', 'docs/guide.md', '# Guide\n');
    const landed = await call('accept', {}, docs.path);
    assert.ok(landed.ok, JSON.stringify(landed, null, 2));
    assert.deepEqual(accepted(landed).consent, { source: 'pre_authorized', scopes: ['docs'] });
    const code = await effort(r, 'code', 'src.txt', 'code\n');
    const waiting = await call('accept', {}, code.path);
    assert.equal(waiting.error, 'awaiting_consent');
    assert.deepEqual(accepted(waiting).landing_authority?.uncovered, [{ path: 'src.txt' }]);
  });

  it('two efforts: the first lands by fast-forward, the second is composed over the moved trunk, gated and landed', async () => {
    const r = repo();
    const a = await effort(r, 'alpha', 'alpha.txt', 'a\n');
    const b = await effort(r, 'beta', 'beta.txt', 'b\n');
    const first = accepted(await call('accept', { confirmed: true }, a.path));
    assert.equal(first.landing?.fast_forward, true);
    const bHead = b.git('rev-parse', 'HEAD').trim();
    const result = await call('accept', { confirmed: true }, b.path);
    assert.ok(result.ok, JSON.stringify(result, null, 2));
    const second = accepted(result);
    assert.equal(second.landing?.fast_forward, false);
    assert.deepEqual(second.gate_validation, { mode: 'rerun', composed: true, commit: second.landing?.landed_commit });
    const tip = trunk(r);
    assert.equal(tip, second.landing?.landed_commit);
    assert.deepEqual(r.git('rev-list', '--parents', '-n', '1', tip).trim().split(' ').slice(1), [
      first.landing?.landed_commit,
      bHead,
    ]);
    assert.match(second.proof_line ?? '', /^discern Proof: agent\/beta \+ main @ /);
    assert.equal(r.git('notes', '--ref=refs/notes/discern', 'list').trim().split('\n').length, 2);
    assert.equal(
      r
        .git('worktree', 'list', '--porcelain')
        .split('\n')
        .filter((l) => l.startsWith('worktree ')).length,
      1,
      'no integration worktree left',
    );
    assert.ok(!r.git('branch', '--list', 'discern/*').trim());
  });

  it('a conflicting composition goes back to its author with the trunk untouched', async () => {
    const r = repo();
    const a = await effort(r, 'left', 'shared.txt', 'left\n');
    const b = await effort(r, 'right', 'shared.txt', 'right\n');
    accepted(await call('accept', { confirmed: true }, a.path));
    const tip = trunk(r);
    const result = await call('accept', { confirmed: true }, b.path);
    assert.equal(result.error, 'conflict');
    assert.match(result.message ?? '', /shared\.txt/);
    assert.equal(trunk(r), tip);
    assert.ok(existsSync(b.path));
    assert.equal(
      r
        .git('worktree', 'list', '--porcelain')
        .split('\n')
        .filter((l) => l.startsWith('worktree ')).length,
      2,
    );
  });

  it('a composition the gate fails goes back with diagnostics and the trunk untouched', async () => {
    const r = repo();
    // Each side alone is green; together they create conflict-marker's ingredients and the test job fails.
    r.write(
      'discern.toml',
      `${BASE_CONFIG.replace('test = "test ! -f conflict-marker"', 'test = "if [ -f one.txt ] && [ -f two.txt ]; then echo \'combo.txt:1:1: error: one and two together\'; exit 1; fi"')}`,
    );
    r.commit('a test that fails only on the combination');
    const a = await effort(r, 'one', 'one.txt', '1\n');
    const b = await effort(r, 'two', 'two.txt', '2\n');
    accepted(await call('accept', { confirmed: true }, a.path));
    const tip = trunk(r);
    const result = await call('accept', { confirmed: true }, b.path);
    assert.equal(result.error, 'gate_failed');
    assert.match(result.message ?? '', /composed with the moved main/);
    assert.equal(result.diagnostics?.[0]?.file, 'combo.txt');
    assert.equal(trunk(r), tip);
    assert.ok(existsSync(b.path));
    // The integration worktree is gone, but the red run's output is kept where the diagnostic says.
    const output = result.steps?.find((s) => s.kind === 'job' && s.label === 'test')?.output_path ?? '';
    assert.match(output, /\/\.git\/discern\/integration-output\/[0-9TZ-]+-two\//);
    assert.match(readFileSync(output, 'utf8'), /combo\.txt:1:1: error: one and two together/);
  });

  it('a dirty checkout of the trunk refuses before anything moves', async () => {
    const r = repo();
    const w = await effort(r, 'blocked', 'b.txt', 'b\n');
    r.write('shared.txt', 'edited in main\n');
    const before = trunk(r);
    const result = await call('accept', { confirmed: true }, w.path);
    assert.equal(result.error, 'dirty_worktree');
    assert.match(result.message ?? '', /checked out at/);
    assert.equal(trunk(r), before);
    assert.ok(existsSync(w.path));
  });

  it('without current Proof the gate runs first; a red one refuses', async () => {
    const r = repo();
    const w = await effort(r, 'unproven', 'u.txt', 'u\n', false);
    const result = await call('accept', { confirmed: true }, w.path);
    assert.ok(result.ok, JSON.stringify(result, null, 2));
    assert.equal(accepted(result).gate_validation?.mode, 'rerun');
    const red = await effort(r, 'red', 'conflict-marker', 'x\n', false);
    const refused = await call('accept', { confirmed: true }, red.path);
    assert.equal(refused.error, 'gate_failed');
    assert.ok(existsSync(red.path));
  });

  it('action queue records the exact HEAD; repeating keeps its place, a new commit replaces it', async () => {
    const r = repo();
    const a = await effort(r, 'qa', 'qa.txt', 'a\n');
    const b = await effort(r, 'qb', 'qb.txt', 'b\n');
    const first = accepted(await call('accept', { action: 'queue' }, a.path));
    accepted(await call('accept', { action: 'queue' }, b.path));
    const again = accepted(await call('accept', { action: 'queue' }, a.path));
    assert.equal(again.submission?.submission_id, first.submission?.submission_id);
    assert.deepEqual(
      again.queue?.map((q) => [q.effort, q.position]),
      [
        ['qa', 1],
        ['qb', 2],
      ],
    );
    const oldHead = a.git('rev-parse', 'HEAD').trim();
    a.change('qa.txt', 'a2\n');
    assert.ok((await call('done', {}, a.path)).ok);
    const replaced = accepted(await call('accept', { action: 'queue' }, a.path));
    assert.equal(replaced.submission?.replaces, oldHead);
    assert.equal((await call('accept', { action: 'queue', confirmed: true }, a.path)).error, 'invalid_value');
  });

  it('a dry run shows the queue and the verdict and changes nothing', async () => {
    const r = repo();
    const w = await effort(r, 'preview', 'p.txt', 'p\n');
    const before = trunk(r);
    const result = await call('accept', { dry_run: true, confirmed: true }, w.path);
    assert.equal(result.dry_run, true);
    assert.match(result.plan?.title ?? '', /would land by fast-forward/);
    assert.equal(trunk(r), before);
    assert.ok(!existsSync(join(r.root, '.git', 'discern', 'submissions', 'preview.json')));
  });

  it('from the main checkout a target is required, and must name an effort', async () => {
    const r = repo();
    await effort(r, 'named', 'n.txt', 'n\n');
    assert.equal((await call('accept', {}, r.root)).error, 'invalid_value');
    const unknown = await call('accept', { target: 'nope' }, r.root);
    assert.equal(unknown.error, 'unknown_target');
    assert.match(unknown.message ?? '', /Efforts: named/);
    const byBranch = await call('accept', { target: 'agent/named', confirmed: true }, r.root);
    assert.ok(byBranch.ok, JSON.stringify(byBranch, null, 2));
  });

  it('a walk lands the ready pre-authorized submissions ahead of the selected one, in queue order', async () => {
    const r = repo('\n[acceptance]\npre_authorized = ["docs"]\n');
    const first = await effort(r, 'docs-a', 'docs/a.md', '# a\n');
    const second = await effort(r, 'docs-b', 'docs/b.md', '# b\n');
    const mine = await effort(r, 'code', 'code.txt', 'c\n');
    for (const w of [first, second, mine]) assert.equal((await call('accept', { action: 'queue' }, w.path)).ok, true);
    const result = await call('accept', { confirmed: true }, mine.path);
    assert.ok(result.ok, JSON.stringify(result, null, 2));
    assert.deepEqual(
      accepted(result).landings?.map((l) => [l.effort, l.selected, l.status]),
      [
        ['docs-a', false, 'landed'],
        ['docs-b', false, 'landed'],
        ['code', true, 'landed'],
      ],
    );
    assert.equal(r.git('rev-list', '--count', 'main').trim(), '6', 'initial, three efforts, two compositions');
  });

  it('queue rows name the standing consent that pre-authorizes them: standing-grant, none while awaiting the owner', async () => {
    const r = repo('\n[acceptance]\npre_authorized = ["docs"]\n');
    const docs = await effort(r, 'docs-q', 'docs/q.md', '# q\n');
    const code = await effort(r, 'code-q', 'code-q.txt', 'c\n');
    for (const w of [docs, code]) assert.equal((await call('accept', { action: 'queue' }, w.path)).ok, true);
    const preview = accepted(await call('accept', { dry_run: true }, code.path));
    assert.deepEqual(
      preview.queue?.map((q) => [q.effort, q.authority, q.authority_source]),
      [
        ['docs-q', 'pre-authorized', 'standing-grant'],
        ['code-q', 'awaiting-owner', undefined],
      ],
    );
  });

  it('a walk that lands some and then stops is partial_acceptance, reporting what landed', async () => {
    const r = repo('\n[acceptance]\npre_authorized = ["docs"]\n');
    const ahead = await effort(r, 'docs-c', 'docs/c.md', '# c\n');
    const conflicting = await effort(r, 'clash', 'docs/c.md', '# mine\n');
    assert.equal((await call('accept', { action: 'queue' }, ahead.path)).ok, true);
    const result = await call('accept', { confirmed: true }, conflicting.path);
    assert.equal(result.error, 'partial_acceptance');
    assert.deepEqual(
      accepted(result).landings?.map((l) => [l.effort, l.status]),
      [
        ['docs-c', 'landed'],
        ['clash', 'refused'],
      ],
    );
    assert.ok(existsSync(conflicting.path));
  });

  it("an effort with nothing off the trunk is refused, and no note is written over the trunk tip's", async () => {
    const r = repo();
    const landedFirst = await effort(r, 'first', 'f.txt', 'f\n');
    assert.equal((await call('accept', { confirmed: true }, landedFirst.path)).ok, true);
    const tip = trunk(r);
    const noteBefore = r.git('notes', '--ref=refs/notes/discern', 'show', tip);
    const started = await call('start', { name: 'empty' }, r.root);
    assert.ok(started.ok && started.verb === 'start' && started.data && 'path' in started.data);
    const refused = await call('accept', { confirmed: true }, started.data.path);
    assert.equal(refused.error, 'precondition_failed');
    assert.match(refused.message ?? '', /already on main/);
    assert.equal(r.git('notes', '--ref=refs/notes/discern', 'show', tip), noteBefore);
  });

  it('a pre-authorized submission ahead that cannot land is skipped and marked; the selected effort still lands', async () => {
    const r = repo('\n[acceptance]\npre_authorized = ["docs"]\n');
    const stuck = await effort(r, 'docs-stuck', 'docs/index.md', '# stuck\n');
    assert.equal((await call('accept', { action: 'queue' }, stuck.path)).ok, true);
    // The trunk moves under it in the same file: its composition conflicts.
    r.write('docs/index.md', '# moved\n');
    r.commit('move docs on the trunk');
    const mine = await effort(r, 'code-ok', 'ok.txt', 'ok\n');
    const result = await call('accept', { confirmed: true }, mine.path);
    assert.ok(result.ok, JSON.stringify(result, null, 2));
    assert.deepEqual(
      accepted(result).landings?.map((l) => [l.effort, l.status]),
      [
        ['docs-stuck', 'failed'],
        ['code-ok', 'landed'],
      ],
    );
    const queue = accepted(await call('accept', { dry_run: true }, stuck.path)).queue ?? [];
    assert.match(queue.find((q) => q.effort === 'docs-stuck')?.reason ?? '', /last landing attempt failed/);
  });

  it('drove accept through success and failure', () => assertDriven(['accept']));
});

describe('accept over MCP', () => {
  it('re-aims the server at the main checkout once it removed the worktree it was aimed at', async () => {
    const r = repo();
    const w = await effort(r, 'served', 's.txt', 's\n');
    const mcp = await connectStdio(w.path);
    try {
      const result = await mcp.client.callTool({ name: 'discern_accept', arguments: { confirmed: true } });
      assert.equal((result.structuredContent as { ok: boolean }).ok, true, JSON.stringify(result.structuredContent));
      const status = await mcp.client.callTool({ name: 'discern_status', arguments: {} });
      assert.equal((status.structuredContent as { data: { root: string } }).data.root, r.root);
    } finally {
      await mcp.client.close();
    }
  });
});
