// Each rule of the envelope (design.md §2) has a test here that fails when the rule is broken.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { buildEnvelope, evaluate } from '../../src/core/envelope.js';
import { ContractViolation } from '../../src/core/contract-violation.js';
import type { AnyOutcome } from '../../src/core/outcome.js';
import type { CompletionPolicy } from '../../generated/registry.js';
import { ERROR_REGISTRY } from '../../generated/errors.js';
import type { DiscernPlan } from '../../generated/types.js';

const observation: CompletionPolicy = {
  required_postconditions: ['declared-outcome'],
  optional_advisories: [],
  refusal: 'failure',
  cancellation: 'not-applicable',
  partial_effect: 'not-applicable',
  no_op: 'success',
  recovery_owner: 'caller',
};
const effect: CompletionPolicy = {
  ...observation,
  required_postconditions: ['declared-outcome', 'executed-steps'],
  cancellation: 'failure',
  partial_effect: 'failure',
};
const doctorLike: CompletionPolicy = {
  ...observation,
  required_postconditions: ['declared-outcome', 'doctor-checks'],
  optional_advisories: ['doctor-warning'],
};
const subject = (policy: CompletionPolicy) => ({ verb: 'test verb', policy });
const step = (outcome: 'ok' | 'failed' | 'skipped' | 'cancelled') =>
  ({ kind: 'job', label: `job-${outcome}`, disposition: 'run', outcome }) as const;

describe('ok follows the completion policy', () => {
  it('is true when every required postcondition holds', () => {
    assert.equal(buildEnvelope(subject(observation), {}).ok, true);
    assert.equal(buildEnvelope(subject(effect), { steps: [step('ok'), step('skipped')] }).ok, true);
    assert.equal(buildEnvelope(subject(doctorLike), { held: ['doctor-checks'] }).ok, true);
  });
  it('is false when a refusal is declared', () => {
    const result = buildEnvelope(subject(observation), {
      refusal: { error: 'unknown_target', message: 'no such page', next: { list: '`discern docs`' } },
    });
    assert.equal(result.ok, false);
    assert.equal(result.error, 'unknown_target');
    assert.equal(result.message, 'no such page');
  });
  it('is false when a required step failed or was cancelled, classified apply_failed', () => {
    for (const outcome of ['failed', 'cancelled'] as const) {
      const result = buildEnvelope(subject(effect), { steps: [step('ok'), step(outcome)] });
      assert.equal(result.ok, false);
      assert.equal(result.error, 'apply_failed');
      assert.match(result.message ?? '', new RegExp(`job-${outcome}`));
    }
  });
  it('ignores steps under a policy that does not require executed-steps', () => {
    assert.equal(evaluate(observation, { steps: [step('failed')] } as AnyOutcome).ok, true);
  });
  it('refuses to report success for an unestablished custom postcondition without a classification', () => {
    assert.throws(() => buildEnvelope(subject(doctorLike), {}), ContractViolation);
  });
  it('hints never change ok', () => {
    assert.equal(buildEnvelope(subject(observation), { hints: ['something looks off'] }).ok, true);
  });
});

describe('a failure carries its registered next action last', () => {
  it('appends the slug template with its values filled in', () => {
    const result = buildEnvelope(subject(observation), {
      hints: ['first'],
      refusal: { error: 'no_trunk', message: 'm', next: { trunk: 'develop' } },
    });
    assert.deepEqual(result.hints?.slice(0, 1), ['first']);
    assert.equal(result.hints?.at(-1), ERROR_REGISTRY.no_trunk.nextAction.replace('{trunk}', 'develop'));
  });
  it('uses the family template when the slug has none of its own', () => {
    const result = buildEnvelope(subject(observation), {
      refusal: { error: 'invalid_toml', message: 'm', next: { file: 'discern.toml', where: 'line 2, column 3' } },
    });
    assert.equal(
      result.hints?.at(-1),
      'Fix discern.toml at line 2, column 3 as the message says, then run `discern doctor`.',
    );
  });
  it('refuses a next action with a missing value', () => {
    assert.throws(
      () => buildEnvelope(subject(observation), { refusal: { error: 'no_trunk', message: 'm', next: { trunk: '' } } }),
      ContractViolation,
    );
  });
  it('success carries no error, message or forced hint', () => {
    const result = buildEnvelope(subject(observation), {});
    assert.equal('error' in result, false);
    assert.equal('message' in result, false);
    assert.equal('hints' in result, false);
  });
});

describe('advisories are only the kinds the policy permits', () => {
  it('keeps a permitted advisory on a successful result', () => {
    const advisory = { kind: 'doctor-warning', evidence: ['git: old'], next_action: 'upgrade git' } as const;
    const result = buildEnvelope(subject(doctorLike), {
      held: ['doctor-checks'],
      advisories: [{ ...advisory, evidence: [...advisory.evidence] }],
    });
    assert.equal(result.ok, true);
    assert.deepEqual(result.advisories, [advisory]);
  });
  it('rejects an advisory kind the policy does not list', () => {
    assert.throws(
      () =>
        buildEnvelope(subject(observation), {
          advisories: [{ kind: 'doctor-warning', evidence: ['x'], next_action: 'y' }],
        }),
      ContractViolation,
    );
  });
});

describe('execution states', () => {
  const plan = {
    title: 'p',
    details: [],
    steps: [{ kind: 'git', label: 'x', disposition: 'run' }],
  } satisfies DiscernPlan;
  it('never emits plan and steps together', () => {
    assert.throws(
      () => buildEnvelope(subject(effect), { plan, steps: [step('ok')] } as unknown as AnyOutcome),
      ContractViolation,
    );
  });
  it('a preview has dry_run true and no steps', () => {
    assert.throws(
      () => buildEnvelope(subject(effect), { dry_run: true, steps: [step('ok')] } as unknown as AnyOutcome),
      ContractViolation,
    );
    const preview = buildEnvelope(subject(effect), { dry_run: true, plan });
    assert.equal(preview.dry_run, true);
    assert.equal('steps' in preview, false);
  });
});

describe('serialisation omits undefined', () => {
  it('drops undefined fields at every depth', () => {
    const result = buildEnvelope(subject(observation), {
      data: { a: 1, b: undefined, nested: { c: undefined, d: [1, { e: undefined }] } },
    });
    assert.equal(JSON.stringify(result), '{"ok":true,"verb":"test verb","data":{"a":1,"nested":{"d":[1,{}]}}}');
  });
});
