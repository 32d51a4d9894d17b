// The pure parts of emergency integration, table-tested: which checks a repair's records make failed, stale or
// never run; and what an approval token accepts and why it refuses (forged, changed — naming what — expired).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import {
  APPROVAL_TTL_MS,
  issueApproval,
  landingIdOf,
  verifyApproval,
  type ApprovedPlan,
} from '../../../src/engine/acceptance/emergency-approval.js';
import { classifyChecks, type CheckFacts } from '../../../src/engine/acceptance/emergency-checks.js';
import type { LastRun, ProofMarker } from '../../../src/engine/gate/proof-records.js';

const HEAD = 'a'.repeat(40);
const OLD = 'b'.repeat(40);
const base: CheckFacts = {
  head: HEAD,
  planned: ['build', 'lint', 'test'],
  configCanonical: 'C',
  configDigest: 'D',
  version: '1',
};

function lastRun(over: Partial<LastRun>): LastRun {
  return {
    format: 1,
    commit: HEAD,
    tree: 't',
    config_digest: 'D',
    discern_version: '1',
    verdict: 'red',
    failed_stage: 'build',
    at: '2026-01-01T00:00:00.000Z',
    ...over,
  };
}

function marker(over: Partial<ProofMarker>): ProofMarker {
  return {
    format: 1,
    commit: OLD,
    tree: 't0',
    config_digest: 'D',
    config_canonical: 'C',
    discern_version: '1',
    mode: 'strict',
    recorded_at: '2026-01-01T00:00:00.000Z',
    proof: {
      branch: 'b',
      trunk: 'main',
      head: OLD.slice(0, 12),
      commit: OLD,
      tree: 't0',
      mode: 'strict',
      recorded_at: '2026-01-01T00:00:00.000Z',
      files_total: 0,
      insertions: 0,
      deletions: 0,
      line: 'l',
    },
    markdown: '',
    producers: [
      { label: 'build', outcome: 'ok', duration_ms: 1 },
      { label: 'lint', outcome: 'ok', duration_ms: 1 },
      { label: 'test', outcome: 'ok', duration_ms: 1 },
    ],
    standards: [],
    ...over,
  };
}

describe('classifyChecks', () => {
  const cases: [
    string,
    Partial<CheckFacts>,
    { green: boolean; failed: string[]; never_ran: string[]; stale: string[] },
  ][] = [
    [
      'no records: everything never ran',
      {},
      { green: false, failed: [], never_ran: ['build', 'lint', 'test'], stale: [] },
    ],
    [
      'red on this HEAD, earlier commit proven: failed and stale',
      {
        marker: marker({}),
        lastRun: lastRun({
          producers: [
            { label: 'build', outcome: 'failed', duration_ms: 1 },
            { label: 'lint', outcome: 'skipped', duration_ms: 0 },
            { label: 'test', outcome: 'skipped', duration_ms: 0 },
          ],
        }),
      },
      { green: false, failed: ['build'], never_ran: [], stale: ['lint', 'test'] },
    ],
    [
      'red on this HEAD with some passing: passing ones are not listed',
      {
        lastRun: lastRun({
          failed_stage: 'check/test',
          producers: [
            { label: 'build', outcome: 'ok', duration_ms: 1 },
            { label: 'lint', outcome: 'ok', duration_ms: 1 },
            { label: 'test', outcome: 'failed', duration_ms: 1 },
          ],
        }),
      },
      { green: false, failed: ['test'], never_ran: [], stale: [] },
    ],
    [
      'a red record without producers (an older discern) names the failed stage',
      { lastRun: lastRun({ failed_stage: 'build' }) },
      { green: false, failed: ['stage:build'], never_ran: ['build', 'lint', 'test'], stale: [] },
    ],
    [
      'a failed standard is listed although standards are not planned',
      {
        lastRun: lastRun({
          failed_stage: 'standards',
          producers: [
            { label: 'build', outcome: 'ok', duration_ms: 1 },
            { label: 'lint', outcome: 'ok', duration_ms: 1 },
            { label: 'test', outcome: 'ok', duration_ms: 1 },
            { label: 'standard:size', outcome: 'failed', duration_ms: 1 },
          ],
        }),
      },
      { green: false, failed: ['standard:size'], never_ran: [], stale: [] },
    ],
    [
      'a red run under another configuration is stale, not failed',
      {
        lastRun: lastRun({
          config_digest: 'other',
          producers: [{ label: 'build', outcome: 'failed', duration_ms: 1 }],
        }),
      },
      { green: false, failed: [], never_ran: ['lint', 'test'], stale: ['build'] },
    ],
    [
      'Proof of this HEAD under another discern version is stale',
      { marker: marker({ commit: HEAD, discern_version: '0' }) },
      { green: false, failed: [], never_ran: [], stale: ['build', 'lint', 'test'] },
    ],
    [
      'current Proof: green',
      { marker: marker({ commit: HEAD }) },
      { green: true, failed: [], never_ran: [], stale: [] },
    ],
    [
      'report-mode Proof is no Proof',
      { marker: marker({ commit: HEAD, mode: 'report' }) },
      { green: false, failed: [], never_ran: [], stale: ['build', 'lint', 'test'] },
    ],
    [
      'a green last run on this HEAD: green',
      { lastRun: lastRun({ verdict: 'green', failed_stage: null }) },
      { green: true, failed: [], never_ran: [], stale: [] },
    ],
  ];
  for (const [name, facts, expected] of cases) {
    it(name, () => {
      const got = classifyChecks({ ...base, ...facts });
      assert.deepEqual({ green: got.green, ...got.checks }, expected);
    });
  }
});

describe('approval tokens', () => {
  const key = randomBytes(32);
  const plan: ApprovedPlan = {
    trunk: { name: 'main', tip: OLD },
    repair: { effort: 'fix', branch: 'agent/fix', head: HEAD },
    reason: 'broken',
    checks: { failed: ['build'], never_ran: [], stale: ['lint'] },
  };
  const now = new Date('2026-05-01T12:00:00.000Z');
  const issued = issueApproval(key, plan, now);

  it('holds for exactly its plan for 15 minutes, and names its landing', () => {
    assert.deepEqual(verifyApproval(key, issued.token, plan, new Date(now.getTime() + APPROVAL_TTL_MS)), {
      ok: true,
      landingId: issued.landingId,
      issuedAt: now,
    });
    assert.equal(issued.landingId, landingIdOf(issued.token));
    assert.match(issued.landingId, /^E-[0-9a-f]{12}$/);
    // The order of the checks is not part of the plan.
    assert.equal(
      verifyApproval(key, issued.token, { ...plan, checks: { failed: ['build'], never_ran: [], stale: ['lint'] } }, now)
        .ok,
      true,
    );
  });

  it('expires after 15 minutes', () => {
    const late = verifyApproval(key, issued.token, plan, new Date(now.getTime() + APPROVAL_TTL_MS + 1));
    assert.ok(!late.ok && late.kind === 'expired', JSON.stringify(late));
  });

  it('another key, a malformed token or altered claims are forged', () => {
    for (const token of [
      issueApproval(randomBytes(32), plan, now).token,
      'EA1.x',
      issued.token.replace(`.${HEAD}.`, `.${'c'.repeat(40)}.`),
      `${issued.token}x`,
    ]) {
      const verdict = verifyApproval(key, token, plan, now);
      assert.ok(!verdict.ok && verdict.kind === 'forged', token);
    }
  });

  const changes: [string, ApprovedPlan, RegExp][] = [
    [
      'trunk moved',
      { ...plan, trunk: { name: 'main', tip: 'c'.repeat(40) } },
      /main moved from bbbbbbbbbbbb to cccccccccccc/,
    ],
    [
      'new repair commit',
      { ...plan, repair: { ...plan.repair, head: 'd'.repeat(40) } },
      /the repair's HEAD moved from aaaaaaaaaaaa to dddddddddddd/,
    ],
    ['another reason', { ...plan, reason: 'other' }, /the reason is not the one approved/],
    ['other checks', { ...plan, checks: { failed: [], never_ran: [], stale: ['lint'] } }, /the checks .* changed/],
    ['another effort', { ...plan, repair: { ...plan.repair, effort: 'other' } }, /another effort or trunk/],
  ];
  for (const [name, changed, why] of changes) {
    it(`a changed plan is named: ${name}`, () => {
      const verdict = verifyApproval(key, issued.token, changed, now);
      assert.ok(!verdict.ok && verdict.kind === 'changed', JSON.stringify(verdict));
      assert.match(verdict.why, why);
    });
  }
});
