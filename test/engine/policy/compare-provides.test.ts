// What a custom job provides is policy: a change that makes another job the project's test, or drops the claim,
// needs the owner's approval like a change of its command or stage.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { comparePolicy, needsPolicyApproval } from '../../../src/engine/policy/compare.js';
import type { DiscernConfig } from '../../../generated/types.js';

const withProvides = (provides?: ['test']): DiscernConfig => ({
  jobs: { pytest: { stage: 'test', run: 'pytest', ...(provides ? { provides } : {}) } },
});

describe('policy: [jobs.<custom>] provides', () => {
  it('adding or dropping provides on a trunk job is a change that needs approve_policy', () => {
    for (const [trunk, change] of [
      [withProvides(), withProvides(['test'])],
      [withProvides(['test']), withProvides()],
    ] as const) {
      const changes = needsPolicyApproval(comparePolicy(trunk, change));
      assert.deepEqual(
        changes.map((c) => [c.key, c.approval]),
        [['jobs.pytest.provides', 'approve_policy']],
      );
    }
  });

  it('the same provides on both sides is no change', () => {
    assert.deepEqual(comparePolicy(withProvides(['test']), withProvides(['test'])), []);
  });
});
