// The pure parts of the standards verbs, table by table: which breaches a branch has against the trunk, whether a
// recorded batch covers them, how a requested batch is judged, and what a pin would change (and the text it
// writes).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { standardDefinition, type StandardDefinition } from '../../src/engine/config/standards.js';
import { limitBreaches } from '../../src/engine/gate/standards-limits.js';
import { planBatch, proposalCoverage, type ProposalBatch } from '../../src/engine/gate/standard-proposals.js';
import { pinnedText, planPins } from '../../src/engine/gate/pin-plan.js';

function std(name: string, direction: 'up' | 'down', limit: number, run = `echo ${name}`): StandardDefinition {
  return standardDefinition(name, { direction, limit, run });
}

const trunk = [std('coverage', 'up', 80), std('size', 'down', 100), std('docs', 'up', 50)];

describe('limitBreaches', () => {
  it('names each kind of loosening, and nothing for a tightening', () => {
    const branch = [std('coverage', 'up', 70), std('size', 'down', 90), std('docs', 'down', 50)];
    assert.deepEqual(
      limitBreaches(trunk, branch).map((b) => [b.name, b.kind, b.from, b.to]),
      [
        ['coverage', 'limit', 80, 70],
        ['docs', 'direction', 50, undefined],
      ],
    );
    assert.deepEqual(
      limitBreaches(trunk, [
        std('coverage', 'up', 80),
        std('size', 'down', 100, 'echo other'),
        std('docs', 'up', 50),
      ]).map((b) => b.kind),
      ['measurement'],
    );
    assert.deepEqual(
      limitBreaches(trunk, [std('coverage', 'up', 80)]).map((b) => [b.name, b.kind]),
      [
        ['size', 'deleted'],
        ['docs', 'deleted'],
      ],
    );
  });
});

describe('proposalCoverage', () => {
  const breaches = limitBreaches(trunk, [std('coverage', 'up', 70), std('size', 'down', 120), std('docs', 'up', 50)]);
  const batch = (commit: string, proposals: ProposalBatch['proposals']): ProposalBatch => ({
    format: 1,
    commit,
    trunk: 'main',
    recorded_at: 'now',
    proposals,
  });
  const both: ProposalBatch['proposals'] = [
    { name: 'coverage', reason: 'a', from: 80, to: 70, direction: 'up' },
    { name: 'size', reason: 'b', from: 100, to: 120, direction: 'down' },
  ];
  it('none, stale, exact, and every kind of mismatch', () => {
    assert.deepEqual(proposalCoverage(undefined, 'h', breaches), { status: 'none' });
    assert.deepEqual(proposalCoverage(batch('old', both), 'h', breaches), { status: 'stale', commit: 'old' });
    const exact = proposalCoverage(batch('h', both), 'h', breaches);
    assert.ok(exact.status === 'current' && exact.uncovered.length === 0 && exact.unmatched.length === 0);
    const partial = proposalCoverage(batch('h', both.slice(0, 1)), 'h', breaches);
    assert.ok(partial.status === 'current');
    assert.deepEqual(
      partial.uncovered.map((b) => b.name),
      ['size'],
    );
    const wrongTo = proposalCoverage(
      batch('h', [
        both[0] as ProposalBatch['proposals'][number],
        { name: 'size', reason: 'b', from: 100, to: 110, direction: 'down' },
      ]),
      'h',
      breaches,
    );
    assert.ok(wrongTo.status === 'current');
    assert.deepEqual([wrongTo.uncovered.map((b) => b.name), wrongTo.unmatched.map((p) => p.to)], [['size'], [110]]);
  });
});

describe('planBatch', () => {
  const breaches = limitBreaches(trunk, [std('coverage', 'up', 70), std('size', 'down', 120), std('docs', 'up', 50)]);
  const known = ['coverage', 'size', 'docs'];
  const cases: [string, { name: string; reason: string }[], string | undefined][] = [
    [
      'the whole batch, in order',
      [
        { name: 'size', reason: 's' },
        { name: 'coverage', reason: 'c' },
      ],
      undefined,
    ],
    [
      'a duplicate',
      [
        { name: 'size', reason: 's' },
        { name: 'size', reason: 't' },
      ],
      'duplicate',
    ],
    [
      'a blank reason',
      [
        { name: 'size', reason: ' ' },
        { name: 'coverage', reason: 'c' },
      ],
      'blank_reason',
    ],
    ['an unknown name', [{ name: 'speed', reason: 'x' }], 'unknown'],
    [
      'a standard that is not loosened',
      [
        { name: 'docs', reason: 'x' },
        { name: 'size', reason: 's' },
        { name: 'coverage', reason: 'c' },
      ],
      'not_loosened',
    ],
    ['a missing breach', [{ name: 'coverage', reason: 'c' }], 'missing'],
  ];
  for (const [name, requested, refusal] of cases) {
    it(name, () => {
      const plan = planBatch(requested, breaches, known);
      if (refusal === undefined) {
        assert.ok(plan.ok, JSON.stringify(plan));
        assert.deepEqual(
          plan.proposals.map((p) => [p.name, p.from, p.to, p.direction, p.reason]),
          [
            ['size', 100, 120, 'down', 's'],
            ['coverage', 80, 70, 'up', 'c'],
          ],
        );
      } else {
        assert.ok(!plan.ok);
        assert.equal(plan.kind, refusal, plan.message);
      }
    });
  }
  it('a deleted standard cannot be proposed, and a batch cannot be complete without it', () => {
    const deleted = limitBreaches(trunk, [std('coverage', 'up', 70), std('size', 'down', 100)]);
    const asked = planBatch([{ name: 'docs', reason: 'gone' }], deleted, known);
    assert.ok(!asked.ok && asked.kind === 'not_a_limit', JSON.stringify(asked));
    const without = planBatch([{ name: 'coverage', reason: 'c' }], deleted, known);
    assert.ok(
      !without.ok && without.kind === 'missing' && /cannot be proposed at all/.test(without.message),
      JSON.stringify(without),
    );
  });
});

describe('planPins and pinnedText', () => {
  it('pins beyond the margin, skips within it, and edits only the numbers', () => {
    const plan = planPins([
      {
        name: 'coverage',
        direction: 'up',
        limit: 80,
        margin: 2,
        measurement: 'measured',
        value: 90.5,
        verdict: 'improved',
        pin_eligible: true,
        pin_target: 88.5,
      },
      {
        name: 'size',
        direction: 'down',
        limit: 100,
        margin: 5,
        measurement: 'measured',
        value: 97,
        verdict: 'held',
        pin_eligible: false,
      },
      {
        name: 'exact',
        direction: 'up',
        limit: 3,
        measurement: 'measured',
        value: 3,
        verdict: 'held',
        pin_eligible: false,
      },
      { name: 'bench', direction: 'down', limit: 9, measurement: 'deferred', reason: 'on-demand' },
    ]);
    assert.deepEqual(plan.pins, [{ name: 'coverage', from: 80, to: 88.5, measured: 90.5 }]);
    assert.deepEqual(
      plan.skipped.map((s) => s.name),
      ['size', 'exact', 'bench'],
    );
    assert.match(plan.skipped[1]?.reason ?? '', /exactly its limit/);
    const text = '# top\r\n[standards.coverage]\r\ndirection = "up"\r\nlimit = 80 # floor\r\n\r\n# the end\r\n';
    assert.equal(
      pinnedText(text, plan.pins),
      '# top\r\n[standards.coverage]\r\ndirection = "up"\r\nlimit = 88.5 # floor\r\n\r\n# the end\r\n',
    );
    const inline = '[standards]\nsize = { direction = "down", limit = 100, run = "a" } # kept\n';
    assert.equal(
      pinnedText(inline, [{ name: 'size', from: 100, to: 60, measured: 55 }]),
      '[standards]\nsize = { direction = "down", limit = 60, run = "a" } # kept\n',
    );
  });
});
