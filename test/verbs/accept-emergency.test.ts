// accept's emergency integration on real scratch repositories: a repair whose gate is not green gets a plan
// (the checks that failed, never ran or are stale) and an approval token; the confirmed call with that token
// lands it as an exception — never Proof — and refuses an expired, forged or outdated token with a fresh one;
// the repair must include the trunk and no other effort's work; bad combinations of keys are named.
import { describe, it, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import type { DiscernAcceptData, DiscernResult } from '../../generated/types.js';
import { issueApproval, APPROVAL_TTL_MS } from '../../src/engine/acceptance/emergency-approval.js';
import { parseExceptionNote } from '../../src/engine/notes/exception-note.js';
import { parseProofNote } from '../../src/engine/notes/proof-note.js';
import { assertDriven, call } from '../helpers/drive.js';
import { effort, type Work } from '../helpers/efforts.js';
import { scratchRepo, type ScratchRepo } from '../helpers/scratch-repo.js';

const repos: ScratchRepo[] = [];
after(() => repos.forEach((r) => r.cleanup()));

export const EMERGENCY_CONFIG = `[project]
name = "emergency"

[jobs]
build = "test ! -f broken"
lint = "true"
test = "test ! -f conflict-marker"
`;

function repo(): ScratchRepo {
  const r = scratchRepo({ 'discern.toml': EMERGENCY_CONFIG, 'shared.txt': 'one\n' });
  repos.push(r);
  return r;
}

const schemaPath = fileURLToPath(new URL('../../schema/discern-exception-note.schema.json', import.meta.url));
const ajv = new Ajv2020({ strict: false });
(addFormats as unknown as (a: Ajv2020) => void)(ajv);
const exceptionSchema = JSON.parse(readFileSync(schemaPath, 'utf8')) as { $id: string };
const validateEnvelope = ajv.compile(exceptionSchema);
const validatePayload = ajv.getSchema(`${exceptionSchema.$id}#/$defs/DiscernExceptionNotePayload`);

function data(result: DiscernResult): DiscernAcceptData {
  assert.ok(result.verb === 'accept' && result.data && !('issues' in result.data), JSON.stringify(result, null, 2));
  return result.data;
}

function emergencyOf(result: DiscernResult): NonNullable<DiscernAcceptData['emergency']> {
  const e = data(result).emergency;
  assert.ok(e, JSON.stringify(result, null, 2));
  return e;
}

function tip(r: ScratchRepo): string {
  return r.git('rev-parse', 'main').trim();
}

const REASON = 'main does not build since the last landing; this repairs the build';

/** An effort proven green on its first commit, then made red at build by a second. */
async function redRepair(r: ScratchRepo, id = 'repair'): Promise<Work & { head: string }> {
  const w = await effort(r, id, 'fix.txt', 'fixed\n');
  w.change('broken', 'x\n', 'a commit that breaks the build');
  const done = await call('done', {}, w.path);
  assert.equal(done.error, 'gate_failed', JSON.stringify(done, null, 2));
  return { ...w, head: w.git('rev-parse', 'HEAD').trim() };
}

function key(r: ScratchRepo): Buffer {
  return readFileSync(join(r.root, '.git', 'discern', 'validation-hmac-key'));
}

describe('accept action "emergency"', () => {
  it('previews a red repair: the checks that failed, are stale and never ran, and an approval token; nothing changes', async () => {
    const r = repo();
    const before = tip(r);
    const w = await redRepair(r);
    const preview = await call('accept', { action: 'emergency', reason: REASON }, w.path);
    assert.equal(preview.ok, false);
    assert.equal(preview.error, 'confirmation_required');
    assert.ok(preview.plan && !preview.steps && preview.dry_run === undefined, 'a review plan');
    const e = emergencyOf(preview);
    assert.deepEqual(e.trunk, { name: 'main', tip: before });
    assert.deepEqual(e.repair, { effort: 'repair', branch: 'agent/repair', path: w.path, head: w.head });
    assert.equal(e.reason, REASON);
    assert.deepEqual(e.checks, { failed: ['build'], never_ran: [], stale: ['lint', 'test'] });
    // The Proof of the first commit stays on record: it is what makes lint and test stale, not missing.
    assert.deepEqual(
      e.evidence?.map((row) => [row.source, row.current, row.verdict, row.commit === w.head]),
      [
        ['proof', false, 'green', false],
        ['last_run', true, 'red', true],
      ],
    );
    assert.match(e.approval_token ?? '', /^EA1\./);
    assert.match(e.landing_id ?? '', /^E-[0-9a-f]{12}$/);
    assert.ok(Date.parse(e.expires_at ?? '') - Date.now() > APPROVAL_TTL_MS - 60_000);
    assert.match(preview.message ?? '', /owner's approval of this exact plan/);
    assert.equal(tip(r), before);
    assert.ok(existsSync(w.path));
    const keyFile = join(r.root, '.git', 'discern', 'validation-hmac-key');
    assert.equal(statSync(keyFile).mode & 0o777, 0o600);
    assert.equal(statSync(keyFile).size, 32);
  });

  it('lists never-run checks for a repair with no gate records', async () => {
    const r = repo();
    const w = await effort(r, 'unrun', 'fix.txt', 'fixed\n', false);
    const e = emergencyOf(await call('accept', { action: 'emergency', reason: REASON }, w.path));
    assert.deepEqual(e.checks, { failed: [], never_ran: ['build', 'lint', 'test'], stale: [] });
    assert.equal(e.evidence, undefined);
  });

  it('confirmed with the token lands: trunk at the repair, exception record schema-valid, no Proof note, cleanup done', async () => {
    const r = repo();
    const before = tip(r);
    const w = await redRepair(r);
    const preview = emergencyOf(await call('accept', { action: 'emergency', reason: REASON }, w.path));
    // A sibling waiting for the repair to be green, and one waiting for it to land, watch the landing happen.
    const watchingGreen = call('await', { green: 'repair', timeout: 60 }, r.root);
    const watchingLanded = call('await', { landed: 'repair', timeout: 60 }, r.root);
    const landed = await call(
      'accept',
      { action: 'emergency', reason: REASON, confirmed: true, approval_token: preview.approval_token },
      w.path,
    );
    assert.ok(landed.ok, JSON.stringify(landed, null, 2));
    const d = data(landed);
    const e = emergencyOf(landed);
    assert.equal(e.state, 'landed');
    assert.equal(e.landing_id, preview.landing_id);
    assert.deepEqual(e.trunk, { name: 'main', tip: before });
    assert.deepEqual(e.checks, preview.checks);
    assert.equal(e.record?.ref, 'refs/notes/discern-exceptions');
    assert.equal(e.record?.commit, w.head);
    // The record is signed with the suite's discern key (no owner key is configured here).
    assert.equal(e.record?.signature?.key_source, 'discern');
    assert.match(e.record?.signature?.keyid ?? '', /^SHA256:[A-Za-z0-9+/]{43}$/);
    assert.match(
      e.line ?? '',
      /^discern exception E-[0-9a-f]{12}: main @ [0-9a-f]{12} landed by emergency integration, not Proof/,
    );
    assert.ok(Date.parse(e.approved_at ?? '') > 0);
    assert.deepEqual(d.landing, {
      recovery_performed: false,
      trunk_landed: true,
      landed_commit: w.head,
      fast_forward: true,
      worktree_removed: true,
      branch_deleted: true,
    });
    assert.equal(d.root, r.root);
    assert.equal(d.proof_line, undefined, 'an exception has no Proof line');
    assert.equal(d.proof_note, undefined);
    assert.equal(tip(r), w.head);
    assert.equal(readFileSync(join(r.root, 'fix.txt'), 'utf8'), 'fixed\n', 'the main checkout of the trunk followed');
    assert.ok(!existsSync(w.path));
    assert.ok(!r.git('branch', '--list', 'agent/repair').trim());

    const body = r.git('notes', '--ref=refs/notes/discern-exceptions', 'show', w.head);
    const note = parseExceptionNote(body);
    assert.ok(note && validateEnvelope(note.envelope), JSON.stringify(validateEnvelope.errors));
    assert.ok(validatePayload?.(note.payload), JSON.stringify(validatePayload?.errors));
    assert.equal(note.payload.landing_id, e.landing_id);
    assert.equal(note.payload.reason, REASON);
    assert.deepEqual(note.payload.checks, e.checks);
    assert.equal(parseProofNote(body), undefined, 'the exception cannot be read as Proof');
    assert.throws(
      () => r.git('notes', '--ref=refs/notes/discern', 'show', w.head),
      'no Proof note on the landed commit',
    );

    // status shows the exception, not Proof; await green never counts it as green, await landed reports it.
    const status = await call('status', {}, r.root);
    assert.ok(
      status.verb === 'status' && status.data && 'landed_exception' in status.data,
      JSON.stringify(status.data),
    );
    assert.equal(status.data.landed_proof, undefined);
    assert.equal(status.data.landed_exception?.landing_id, e.landing_id);
    assert.equal(status.data.landed_exception?.commit, w.head);
    const green = await watchingGreen;
    assert.ok(green.ok && green.verb === 'await' && green.data && 'met' in green.data, JSON.stringify(green, null, 2));
    assert.equal(green.data.met, false, 'landed by exception is never green');
    assert.equal(green.data.observed.proof_status, 'exception');
    assert.equal(green.data.observed.exception?.landing_id, e.landing_id);
    assert.equal(green.data.resume, undefined, 'nothing to wait for any more');
    assert.match(green.hints?.join(' ') ?? '', /will never be green/);
    const landedWatch = await watchingLanded;
    assert.ok(
      landedWatch.ok && landedWatch.verb === 'await' && landedWatch.data && 'met' in landedWatch.data,
      JSON.stringify(landedWatch, null, 2),
    );
    assert.equal(landedWatch.data.met, true);
    assert.equal(landedWatch.data.observed.exception?.landing_id, e.landing_id);

    // Repeating the same confirmed call answers with the same landing, without landing anything again.
    const again = await call(
      'accept',
      {
        action: 'emergency',
        reason: REASON,
        confirmed: true,
        approval_token: preview.approval_token,
        target: 'repair',
      },
      r.root,
    );
    assert.ok(again.ok, JSON.stringify(again, null, 2));
    assert.equal(emergencyOf(again).landing_id, e.landing_id);
    assert.equal(tip(r), w.head);
  });

  it('an expired token is refused with a fresh one, and says so', async () => {
    const r = repo();
    const w = await redRepair(r);
    const preview = emergencyOf(await call('accept', { action: 'emergency', reason: REASON }, w.path));
    // A token signed with the repository's own key for exactly this plan, issued 16 minutes ago: only the
    // clock can refuse it.
    const old = issueApproval(
      key(r),
      {
        trunk: preview.trunk,
        repair: { effort: preview.repair.effort, branch: preview.repair.branch, head: preview.repair.head },
        reason: REASON,
        checks: preview.checks,
      },
      new Date(Date.now() - APPROVAL_TTL_MS - 60_000),
    );
    const refused = await call(
      'accept',
      { action: 'emergency', reason: REASON, confirmed: true, approval_token: old.token },
      w.path,
    );
    assert.equal(refused.error, 'confirmation_required');
    const e = emergencyOf(refused);
    assert.equal(e.state, 'expired');
    assert.equal(e.token_problem?.kind, 'expired');
    assert.match(refused.message ?? '', /expired/);
    assert.notEqual(e.approval_token, old.token);
    assert.equal(tip(r), preview.trunk.tip);
    // The same plan, issued just now with the same key, lands: the age was the only problem.
    const fresh = issueApproval(
      key(r),
      {
        trunk: preview.trunk,
        repair: { effort: preview.repair.effort, branch: preview.repair.branch, head: preview.repair.head },
        reason: REASON,
        checks: preview.checks,
      },
      new Date(),
    );
    const landed = await call(
      'accept',
      { action: 'emergency', reason: REASON, confirmed: true, approval_token: fresh.token },
      w.path,
    );
    assert.ok(landed.ok, JSON.stringify(landed, null, 2));
  });

  it('a tampered or foreign token is refused as forged; a different reason as a changed plan', async () => {
    const r = repo();
    const w = await redRepair(r);
    const token =
      emergencyOf(await call('accept', { action: 'emergency', reason: REASON }, w.path)).approval_token ?? '';
    const parts = token.split('.');
    // The claims say another trunk tip: the signature no longer matches them.
    parts[2] = parts[2]?.replace(/^./, (c) => (c === 'a' ? 'b' : 'a')) ?? '';
    for (const forged of [parts.join('.'), 'not-a-token', `${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}`]) {
      const refused = await call(
        'accept',
        { action: 'emergency', reason: REASON, confirmed: true, approval_token: forged },
        w.path,
      );
      assert.equal(refused.error, 'confirmation_required');
      assert.equal(emergencyOf(refused).token_problem?.kind, 'forged', forged);
    }
    const otherReason = await call(
      'accept',
      { action: 'emergency', reason: 'another reason', confirmed: true, approval_token: token },
      w.path,
    );
    assert.equal(emergencyOf(otherReason).token_problem?.kind, 'changed');
    assert.match(otherReason.message ?? '', /the reason is not the one approved/);
    assert.ok(existsSync(w.path));
  });

  it('a new commit on the repair after approval is a changed plan: refused with a fresh token', async () => {
    const r = repo();
    const w = await redRepair(r);
    const token = emergencyOf(await call('accept', { action: 'emergency', reason: REASON }, w.path)).approval_token;
    const newHead = w.change('more.txt', 'more\n');
    const refused = await call(
      'accept',
      { action: 'emergency', reason: REASON, confirmed: true, approval_token: token },
      w.path,
    );
    assert.equal(refused.error, 'confirmation_required');
    const e = emergencyOf(refused);
    assert.equal(e.token_problem?.kind, 'changed');
    assert.match(e.token_problem?.why ?? '', /the repair's HEAD moved from [0-9a-f]{12} to [0-9a-f]{12}/);
    assert.equal(e.repair.head, newHead);
    assert.notEqual(e.approval_token, token);
    // The trunk moving is a changed plan too.
    r.write('elsewhere.txt', 'moved\n');
    r.commit('the trunk moves');
    const moved = await call(
      'accept',
      { action: 'emergency', reason: REASON, confirmed: true, approval_token: e.approval_token },
      w.path,
    );
    assert.equal(moved.error, 'precondition_failed', 'the repair no longer includes the trunk');
  });

  it('a repair that does not include the trunk is refused and told to update', async () => {
    const r = repo();
    const w = await redRepair(r);
    r.write('elsewhere.txt', 'moved\n');
    r.commit('the trunk moves');
    const refused = await call('accept', { action: 'emergency', reason: REASON }, w.path);
    assert.equal(refused.error, 'precondition_failed');
    assert.match(refused.message ?? '', /does not include main's tip/);
    assert.match(refused.message ?? '', /discern_update/);
    assert.equal(refused.data, undefined, 'no plan, no token');
  });

  it("a repair carrying another effort's unlanded work is refused", async () => {
    const r = repo();
    const other = await effort(r, 'other', 'other.txt', 'o\n');
    const w = await effort(r, 'rider', 'fix.txt', 'fixed\n', false);
    w.git('merge', '-q', '--no-edit', 'agent/other');
    const refused = await call('accept', { action: 'emergency', reason: REASON }, w.path);
    assert.equal(refused.error, 'precondition_failed');
    assert.match(refused.message ?? '', /effort other \(agent\/other/);
    assert.ok(existsSync(other.path));
  });

  it('a green repair needs no exception', async () => {
    const r = repo();
    const w = await effort(r, 'green', 'fix.txt', 'fixed\n');
    const refused = await call('accept', { action: 'emergency', reason: REASON }, w.path);
    assert.equal(refused.error, 'precondition_failed');
    assert.match(refused.message ?? '', /is green: it needs no exception/);
  });

  it('dry_run shows the plan without a token; combinations that make no sense are named', async () => {
    const r = repo();
    const w = await redRepair(r);
    // The red run sealed its records under the repository key: the dry run leaves the key as it found it.
    const keyFile = join(r.root, '.git', 'discern', 'validation-hmac-key');
    const keyBefore = existsSync(keyFile) ? readFileSync(keyFile, 'hex') : undefined;
    const dry = await call('accept', { action: 'emergency', reason: REASON, dry_run: true }, w.path);
    assert.ok(dry.ok && dry.dry_run === true, JSON.stringify(dry, null, 2));
    assert.equal(emergencyOf(dry).approval_token, undefined);
    assert.equal(existsSync(keyFile) ? readFileSync(keyFile, 'hex') : undefined, keyBefore, 'a dry run changes no key');
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ reason: REASON }, /`reason` goes with `action: "emergency"` only/],
      [{ action: 'queue', approval_token: 'x' }, /`approval_token` goes with/],
      [{ action: 'emergency' }, /`reason` is required/],
      [{ action: 'emergency', reason: '   ' }, /`reason` is required/],
      [{ action: 'emergency', reason: REASON, approval_token: 'x' }, /`approval_token` goes with `confirmed: true`/],
      [
        { action: 'emergency', reason: REASON, dry_run: true, confirmed: true },
        /`dry_run` previews and `confirmed` lands/,
      ],
      [{ recover: 'E-000000000000', confirmed: true, reason: REASON }, /`recover` .* drop `reason`, `confirmed`/],
      [
        { action: 'emergency', reason: REASON, confirmed: true, approve_standard: true },
        /`approve_standard` does not go with/,
      ],
    ];
    for (const [input, message] of cases) {
      const refused = await call('accept', input, w.path);
      assert.equal(refused.error, 'invalid_arguments', JSON.stringify(input));
      assert.match(refused.message ?? '', message);
    }
    const grant = await call('accept', { action: 'emergency', reason: REASON, grant: true }, w.path, {}, 'cli');
    assert.equal(grant.error, 'invalid_arguments');
    assert.match(grant.message ?? '', /`grant` does not go with/);
    const long = await call('accept', { action: 'emergency', reason: 'x'.repeat(501) }, w.path);
    assert.equal(long.error, 'invalid_arguments', 'the schema caps the reason at 500 characters');
    const confirmedOnly = await call('accept', { action: 'emergency', reason: REASON, confirmed: true }, w.path);
    assert.equal(confirmedOnly.error, 'confirmation_required');
    assert.equal(emergencyOf(confirmedOnly).token_problem?.kind, 'missing');
  });

  it('recover with an unknown landing id is a classified refusal', async () => {
    const r = repo();
    for (const id of ['E-000000000000', '../../etc/passwd']) {
      const refused = await call('accept', { recover: id }, r.root);
      assert.equal(refused.error, 'unknown_target');
      assert.match(refused.message ?? '', /names no emergency landing/);
    }
  });

  it('drove accept through success and failure', () => assertDriven(['accept']));
});
