// Checkpoint preparation of an emergency integration on real scratch repositories: a repair that trips a stop
// checkpoint is refused awaiting_declaration until a prepare call declares the question met and returns a
// receipt; the preview and the confirmed call present it, the approval token is bound to it, and the exception
// record names it. A new commit, another reason or a token issued under no preparation no longer match; an
// unmet stop question blocks; a dry run evaluates and records nothing; a repair no stop question fires on needs
// no preparation; keys that make no sense with preparation are named.
import { describe, it, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import type { DiscernAcceptData, DiscernResult } from '../../generated/types.js';
import { issueApproval } from '../../src/engine/acceptance/emergency-approval.js';
import { parseExceptionNote } from '../../src/engine/notes/exception-note.js';
import { assertDriven, call } from '../helpers/drive.js';
import { effort } from '../helpers/efforts.js';
import { onlyJson, runCli } from '../helpers/cli.js';
import { scratchRepo, type ScratchRepo } from '../helpers/scratch-repo.js';

const repos: ScratchRepo[] = [];
after(() => repos.forEach((r) => r.cleanup()));

const CONFIG = `[project]
name = "emergency-prepare"

[jobs]
build = "test ! -f broken"
test = "true"

[scopes.api]
paths = ["api/**"]

[checkpoints.api-review]
scope = "api"
question = "Is the API change backwards compatible?"

[checkpoints.api-docs]
scope = "api"
mode = "advise"
question = "Are the API docs updated?"
`;

const REASON = 'main does not build since the last landing; this repairs the build and the API handler';

function show(result: unknown): string {
  return JSON.stringify(result, null, 2);
}

function repo(): ScratchRepo {
  const r = scratchRepo({ 'discern.toml': CONFIG, 'shared.txt': 'one\n', 'api/users.ts': 'export const users = 1;\n' });
  repos.push(r);
  return r;
}

interface Repair {
  id: string;
  path: string;
  gitDir: string;
  head: string;
  commit(file: string, text: string): string;
}

/** An effort whose change touches `file` and is not proven (its checks never ran). */
async function repair(r: ScratchRepo, id: string, file: string): Promise<Repair> {
  const w = await effort(r, id, file, 'export const users = 2;\n', false);
  return {
    id,
    path: w.path,
    head: w.git('rev-parse', 'HEAD').trim(),
    commit: w.change,
    gitDir: w.git('rev-parse', '--absolute-git-dir').trim(),
  };
}

function emergencyOf(result: DiscernResult): NonNullable<DiscernAcceptData['emergency']> {
  assert.ok(
    result.verb === 'accept' && result.data && !('issues' in result.data) && result.data.emergency,
    show(result),
  );
  return result.data.emergency;
}

function preparationOf(result: DiscernResult): NonNullable<NonNullable<DiscernAcceptData['emergency']>['preparation']> {
  const p = emergencyOf(result).preparation;
  assert.ok(p, show(result));
  return p;
}

function tip(r: ScratchRepo): string {
  return r.git('rev-parse', 'main').trim();
}

function key(r: ScratchRepo): Buffer {
  return readFileSync(join(r.root, '.git', 'discern', 'validation-hmac-key'));
}

const schemaPath = fileURLToPath(new URL('../../schema/discern-exception-note.schema.json', import.meta.url));
const ajv = new Ajv2020({ strict: false });
(addFormats as unknown as (a: Ajv2020) => void)(ajv);
const exceptionSchema = JSON.parse(readFileSync(schemaPath, 'utf8')) as { $id: string };
ajv.compile(exceptionSchema);
const validatePayload = ajv.getSchema(`${exceptionSchema.$id}#/$defs/DiscernExceptionNotePayload`);

const EMERGENCY = { action: 'emergency', reason: REASON } as const;

describe('accept action "emergency" with checkpoint preparation', () => {
  it('a stop checkpoint on the repair: preview awaits a declaration, prepare with met gives a receipt, the receipt gives a token, both land it', async () => {
    const r = repo();
    const before = tip(r);
    const w = await repair(r, 'repair', 'api/users.ts');

    const preview = await call('accept', EMERGENCY, w.path);
    assert.equal(preview.error, 'awaiting_declaration', show(preview));
    const waiting = preparationOf(preview);
    assert.equal(waiting.required, true);
    assert.deepEqual(
      waiting.outstanding?.map((q) => q.id),
      ['api-review'],
    );
    assert.deepEqual(waiting.questions?.map((q) => [q.id, q.mode]).sort(), [
      ['api-docs', 'advise'],
      ['api-review', 'stop'],
    ]);
    assert.equal(waiting.receipt_problem?.kind, 'missing');
    assert.equal(emergencyOf(preview).approval_token, undefined, 'no token without preparation');
    assert.match(preview.message ?? '', /api-review — “Is the API change backwards compatible\?”/);
    assert.match(preview.hints?.at(-1) ?? '', /the same reason and prepare: true/);

    // Preparing without an answer serves the questions and issues nothing.
    const unanswered = await call('accept', { ...EMERGENCY, prepare: true }, w.path);
    assert.equal(unanswered.error, 'awaiting_declaration', show(unanswered));
    assert.equal(preparationOf(unanswered).receipt, undefined);

    const prepared = await call('accept', { ...EMERGENCY, prepare: true, met: ['api-review'] }, w.path);
    assert.ok(prepared.ok, show(prepared));
    assert.equal(prepared.dry_run, undefined);
    const p = preparationOf(prepared);
    assert.match(p.receipt ?? '', /^EP1\.[0-9a-f]{40}\.[0-9a-f]{40}\./);
    assert.deepEqual(p.met, ['api-review']);
    assert.deepEqual(p.recorded, ['api-review']);
    assert.equal(p.outstanding, undefined);
    assert.deepEqual(emergencyOf(prepared).checks, { failed: [], never_ran: ['build', 'test'], stale: [] });
    assert.ok(
      prepared.steps?.some((s) => /evaluated the checkpoint triggers/.test(s.label)),
      show(prepared.steps),
    );
    assert.ok(!prepared.steps?.some((s) => s.kind === 'job'), 'no validation job runs');
    assert.equal(tip(r), before);
    // Preparing the same facts again gives the same receipt.
    const again = await call('accept', { ...EMERGENCY, prepare: true }, w.path);
    assert.equal(preparationOf(again).receipt, p.receipt);

    const approved = await call('accept', { ...EMERGENCY, preparation_receipt: p.receipt }, w.path);
    assert.equal(approved.error, 'confirmation_required', show(approved));
    const e = emergencyOf(approved);
    assert.match(e.approval_token ?? '', /^EA1\./);
    assert.equal(e.preparation?.receipt, p.receipt);
    assert.ok(
      approved.plan?.details?.some((d) => d.startsWith(`checkpoint preparation ${p.receipt}: declared met api-review`)),
      show(approved.plan),
    );

    // The confirmed call needs the receipt too.
    const withoutReceipt = await call(
      'accept',
      { ...EMERGENCY, confirmed: true, approval_token: e.approval_token },
      w.path,
    );
    assert.equal(withoutReceipt.error, 'awaiting_declaration', show(withoutReceipt));
    assert.equal(tip(r), before);

    const landed = await call(
      'accept',
      { ...EMERGENCY, confirmed: true, approval_token: e.approval_token, preparation_receipt: p.receipt },
      w.path,
    );
    assert.ok(landed.ok, show(landed));
    assert.equal(tip(r), w.head);
    assert.deepEqual(emergencyOf(landed).preparation, {
      evaluated: true,
      required: true,
      receipt: p.receipt,
      met: ['api-review'],
    });
    const note = parseExceptionNote(r.git('notes', '--ref=refs/notes/discern-exceptions', 'show', w.head));
    assert.ok(note && validatePayload?.(note.payload), show(validatePayload?.errors));
    assert.deepEqual(note.payload.checkpoints, { preparation: p.receipt, met: ['api-review'] });
    assert.match(note.payload.presentation.markdown, /Checkpoints declared met \(preparation\): `api-review`/);
  });

  it('a new commit or another reason after preparation: the receipt no longer holds; a token issued under no preparation is refused', async () => {
    const r = repo();
    const w = await repair(r, 'stale', 'api/users.ts');
    const receipt = preparationOf(
      await call('accept', { ...EMERGENCY, prepare: true, met: ['api-review'] }, w.path),
    ).receipt;
    assert.ok(receipt);

    // The approval is bound to the preparation: a token for the same plan without it does not hold.
    const unprepared = emergencyOf(await call('accept', { ...EMERGENCY, preparation_receipt: receipt }, w.path));
    const bare = issueApproval(
      key(r),
      {
        trunk: unprepared.trunk,
        repair: { effort: unprepared.repair.effort, branch: unprepared.repair.branch, head: unprepared.repair.head },
        reason: REASON,
        checks: unprepared.checks,
      },
      new Date(),
    );
    const unbound = await call(
      'accept',
      { ...EMERGENCY, confirmed: true, approval_token: bare.token, preparation_receipt: receipt },
      w.path,
    );
    assert.equal(unbound.error, 'confirmation_required', show(unbound));
    assert.equal(emergencyOf(unbound).token_problem?.kind, 'changed');
    assert.match(unbound.message ?? '', /under another checkpoint preparation/);

    const otherReason = await call(
      'accept',
      { action: 'emergency', reason: 'another reason', preparation_receipt: receipt },
      w.path,
    );
    assert.equal(otherReason.error, 'awaiting_declaration', show(otherReason));
    assert.equal(preparationOf(otherReason).receipt_problem?.kind, 'changed');
    assert.match(otherReason.message ?? '', /the reason is not the one prepared/);

    // A commit outside the checkpoint's files keeps the declaration current, but not the receipt.
    const head = w.commit('notes.txt', 'n\n');
    const moved = await call('accept', { ...EMERGENCY, preparation_receipt: receipt }, w.path);
    assert.equal(moved.error, 'awaiting_declaration', show(moved));
    assert.match(
      moved.message ?? '',
      new RegExp(`the repair's HEAD moved from ${w.head.slice(0, 12)} to ${head.slice(0, 12)}`),
    );
    const confirmed = await call(
      'accept',
      { ...EMERGENCY, confirmed: true, approval_token: unprepared.approval_token, preparation_receipt: receipt },
      w.path,
    );
    assert.equal(confirmed.error, 'awaiting_declaration', 'the confirmed call checks the receipt first');

    // A commit to the checkpoint's files reopens the question: it needs declaring again.
    w.commit('api/users.ts', 'export const users = 3;\n');
    const reopened = await call('accept', { ...EMERGENCY, preparation_receipt: receipt }, w.path);
    assert.equal(reopened.error, 'awaiting_declaration');
    assert.deepEqual(
      preparationOf(reopened).outstanding?.map((q) => [q.id, q.state]),
      [['api-review', 'reopened']],
    );
    const fresh = preparationOf(
      await call('accept', { ...EMERGENCY, prepare: true, met: ['api-review'] }, w.path),
    ).receipt;
    assert.ok(fresh && fresh !== receipt);
    const ready = await call('accept', { ...EMERGENCY, preparation_receipt: fresh }, w.path);
    assert.equal(ready.error, 'confirmation_required', show(ready));
  });

  it('an unmet stop question blocks an emergency landing, and variance does not lift it', async () => {
    const r = repo();
    const w = await repair(r, 'unmet', 'api/users.ts');
    // Declared unmet in the effort (done records it, then its gate fails on nothing here: the repair is green).
    const done = await call('done', { unmet: [{ id: 'api-review', why: 'renames a field' }] }, w.path);
    assert.ok(done.verb === 'done', show(done));
    w.commit('broken', 'x\n');
    const refused = await call('accept', EMERGENCY, w.path);
    assert.equal(refused.error, 'precondition_failed', show(refused));
    assert.match(
      refused.message ?? '',
      /declared unmet .*api-review \(“renames a field”\).*blocks an emergency landing/,
    );
    assert.deepEqual(
      preparationOf(refused).unmet?.map((u) => u.id),
      ['api-review'],
    );
    const prepare = await call('accept', { ...EMERGENCY, prepare: true }, w.path);
    assert.equal(prepare.error, 'precondition_failed', 'no receipt while it is unmet');
    assert.equal(preparationOf(prepare).receipt, undefined);
    for (const input of [
      { ...EMERGENCY, unmet: [{ id: 'api-review', why: 'no' }] },
      { ...EMERGENCY, prepare: true, unmet: [{ id: 'api-review', why: 'no' }] },
      { ...EMERGENCY, variance: 'owner accepts' },
    ]) {
      const bad = await call('accept', input, w.path);
      assert.equal(bad.error, 'invalid_arguments', show(input));
      assert.match(bad.message ?? '', /blocks an emergency landing/);
    }
    // Once the question does hold, declaring it met in a preparation clears the way.
    const ok = await call('accept', { ...EMERGENCY, prepare: true, met: ['api-review'] }, w.path);
    assert.ok(ok.ok, show(ok));
  });

  it('dry_run prepare evaluates and records nothing; unknown ids record nothing', async () => {
    const r = repo();
    const w = await repair(r, 'dry', 'api/users.ts');
    const store = join(w.gitDir, 'discern', 'checkpoint-open-questions');
    const dry = await call('accept', { ...EMERGENCY, prepare: true, dry_run: true, met: ['api-review'] }, w.path);
    assert.ok(dry.ok && dry.dry_run === true && dry.plan && !dry.steps, show(dry));
    const p = preparationOf(dry);
    assert.equal(p.evaluated, false);
    assert.deepEqual([...(p.would_evaluate ?? [])].sort(), ['api-docs', 'api-review']);
    assert.deepEqual(p.would_record, ['api-review']);
    assert.equal(p.questions, undefined);
    assert.equal(p.receipt, undefined);
    assert.ok(!existsSync(store), 'nothing recorded');
    assert.ok(!existsSync(join(r.root, '.git', 'discern', 'validation-hmac-key')), 'no key');

    const unknown = await call('accept', { ...EMERGENCY, prepare: true, met: ['no-such'] }, w.path);
    assert.equal(unknown.error, 'invalid_value', show(unknown));
    assert.match(unknown.message ?? '', /Nothing was recorded: "no-such" is not a checkpoint that governs this change/);
    assert.ok(!existsSync(store) || !readFileSync(store, 'utf8').includes('"conclusion"'), 'no declaration recorded');
  });

  it('no stop question fires: no receipt is needed, and the preview says so', async () => {
    const r = repo();
    const w = await repair(r, 'plain', 'fix.txt');
    const preview = await call('accept', EMERGENCY, w.path);
    assert.equal(preview.error, 'confirmation_required', show(preview));
    assert.equal(emergencyOf(preview).preparation, undefined);
    assert.ok(
      preview.plan?.details?.includes(
        'checkpoint preparation: not needed (no stop checkpoint question fires on the repair)',
      ),
      show(preview.plan),
    );
    const prepared = await call('accept', { ...EMERGENCY, prepare: true }, w.path);
    assert.ok(prepared.ok, show(prepared));
    assert.equal(preparationOf(prepared).required, false);
    const landed = await call(
      'accept',
      { ...EMERGENCY, confirmed: true, approval_token: emergencyOf(preview).approval_token },
      w.path,
    );
    assert.ok(landed.ok, show(landed));
    const note = parseExceptionNote(r.git('notes', '--ref=refs/notes/discern-exceptions', 'show', w.head));
    assert.equal(note?.payload.checkpoints, undefined);
  });

  it('preparation does not go with confirmed, approval_token, recover or a receipt; its keys need an emergency', async () => {
    const r = repo();
    const w = await repair(r, 'keys', 'api/users.ts');
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ ...EMERGENCY, prepare: true, confirmed: true }, /`prepare` .* does not go with `confirmed`/],
      [
        { ...EMERGENCY, prepare: true, confirmed: true, approval_token: 'x' },
        /does not go with `confirmed`, `approval_token`/,
      ],
      [{ ...EMERGENCY, prepare: true, preparation_receipt: 'x' }, /does not go with `preparation_receipt`/],
      [{ recover: 'E-000000000000', prepare: true }, /`recover` .* drop `prepare`/],
      [{ action: 'emergency', prepare: true }, /`reason` is required/],
      [{ prepare: true }, /`prepare` goes with `action: "emergency"` only/],
      [{ action: 'queue', prepare: true }, /`prepare` goes with `action: "emergency"` only/],
      [
        { preparation_receipt: 'x', confirmed: true, action: 'queue' },
        /`preparation_receipt` goes with `action: "emergency"` only/,
      ],
      [{ ...EMERGENCY, met: ['api-review'] }, /`met` goes with `prepare: true`/],
      [{ ...EMERGENCY, dry_run: true, preparation_receipt: 'x' }, /drop `preparation_receipt`/],
      [{ ...EMERGENCY, composition_receipt: 'x' }, /composes nothing/],
    ];
    for (const [input, message] of cases) {
      const refused = await call('accept', input, w.path);
      assert.equal(refused.error, 'invalid_arguments', show(input));
      assert.match(refused.message ?? '', message);
    }
    assert.ok((await call('accept', { ...EMERGENCY, prepare: true, met: ['api-review'] }, w.path)).ok);
    const forged = await call('accept', { ...EMERGENCY, preparation_receipt: 'EA1.not-a-receipt' }, w.path);
    assert.equal(forged.error, 'awaiting_declaration');
    assert.equal(preparationOf(forged).receipt_problem?.kind, 'forged');
  });

  it(
    'the CLI prepares with --prepare --met and previews with --preparation-receipt',
    {
      skip:
        !existsSync(fileURLToPath(new URL('../../dist/discern.js', import.meta.url))) &&
        'needs `npx tsx build/build.ts`',
    },
    async () => {
      const r = repo();
      const w = await repair(r, 'cli', 'api/users.ts');
      const prepared = onlyJson(
        await runCli(['accept', '--json', '--emergency', '--reason', REASON, '--prepare', '--met', 'api-review'], {
          cwd: w.path,
        }),
      );
      assert.equal(prepared.ok, true, show(prepared));
      const receipt = (prepared.data as DiscernAcceptData).emergency?.preparation?.receipt;
      assert.ok(receipt);
      const preview = onlyJson(
        await runCli(['accept', '--json', '--emergency', '--reason', REASON, '--preparation-receipt', receipt], {
          cwd: w.path,
        }),
      );
      assert.equal(preview.error, 'confirmation_required', show(preview));
    },
  );

  it('drove accept through success and failure', () => assertDriven(['accept']));
});
