// Table-driven: published names and completion-policy resolution.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { envelopeDefName, verbDefName, vocabularyKey, vocabularyType } from '../../codegen/schemas/names.js';
import { resolvePolicy } from '../../codegen/spec/policy.js';

describe('names', () => {
  const cases: [string, string, string][] = [
    [verbDefName('Docs', 'DocsIndex'), 'DiscernDocsIndex', 'a def already named for its verb'],
    [verbDefName('Docs', 'DocEntry'), 'DiscernDocsDocEntry', 'a def named otherwise gets the verb'],
    [verbDefName('SetupVerify', 'Page'), 'DiscernSetupVerifyPage', 'multi-word verbs'],
    [verbDefName('Docs', 'DiscernThing'), 'DiscernThing', 'already published names stay'],
    [envelopeDefName('Step'), 'DiscernStep', 'envelope defs'],
    [vocabularyKey('failed_stage'), 'x-discern-failed-stage', 'vocabulary root key'],
    [vocabularyKey('error'), 'x-discern-error-slugs', 'error slugs key'],
    [vocabularyType('advisory_kind'), 'DiscernAdvisoryKind', 'vocabulary type'],
    [vocabularyType('error'), 'DiscernErrorSlug', 'error type'],
  ];
  for (const [got, want, why] of cases) it(why, () => assert.equal(got, want));
});

describe('resolvePolicy', () => {
  it('observation base', () => {
    assert.deepEqual(resolvePolicy({ base: 'observation' }), {
      required_postconditions: ['declared-outcome'],
      optional_advisories: ['state-record-skipped'],
      refusal: 'failure',
      cancellation: 'not-applicable',
      partial_effect: 'not-applicable',
      no_op: 'success',
      recovery_owner: 'caller',
    });
  });
  it('effect base requires executed steps and fails on cancellation', () => {
    const p = resolvePolicy({ base: 'effect' });
    assert.deepEqual(p.required_postconditions, ['declared-outcome', 'executed-steps']);
    assert.equal(p.cancellation, 'failure');
    assert.equal(p.partial_effect, 'failure');
  });
  it('adds postconditions and advisories and applies overrides', () => {
    const p = resolvePolicy({
      base: 'effect',
      required_postconditions: ['gate-finish', 'executed-steps'],
      optional_advisories: ['z-kind', 'a-kind'],
      recovery_owner: 'owner',
      no_op: 'not-applicable',
    });
    assert.deepEqual(p.required_postconditions, ['declared-outcome', 'executed-steps', 'gate-finish']);
    assert.deepEqual(p.optional_advisories, ['a-kind', 'state-record-skipped', 'z-kind']);
    assert.equal(p.recovery_owner, 'owner');
    assert.equal(p.no_op, 'not-applicable');
  });
});
