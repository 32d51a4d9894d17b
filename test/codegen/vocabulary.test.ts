// Table-driven: how a vocabulary-marked schema node is expanded for each kind of artifact.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { expandVocabularies, type Vocabulary, type VocabularyMode } from '../../codegen/schemas/vocabulary.js';

const vocabularies: Vocabulary[] = [
  { name: 'step_kind', open: true, description: 'd', members: ['job', 'git'] },
  { name: 'step_outcome', open: false, description: 'd', members: ['ok', 'failed'] },
  { name: 'error', open: true, description: 'd', members: ['internal_error'] },
];

const cases: [string, unknown, VocabularyMode, unknown][] = [
  [
    'open, published',
    { 'x-discern-vocabulary': 'step_kind', description: 'k' },
    'published',
    { type: 'string', description: 'k', 'x-discern-vocabulary': 'x-discern-step-kind' },
  ],
  [
    'closed, published',
    { 'x-discern-vocabulary': 'step_outcome' },
    'published',
    { type: 'string', enum: ['ok', 'failed'], 'x-discern-vocabulary': 'x-discern-step-outcome' },
  ],
  [
    'error slugs key',
    { 'x-discern-vocabulary': 'error' },
    'published',
    { type: 'string', 'x-discern-vocabulary': 'x-discern-error-slugs' },
  ],
  ['open, wire', { 'x-discern-vocabulary': 'step_kind' }, 'wire', { type: 'string' }],
  ['closed, wire', { 'x-discern-vocabulary': 'step_outcome' }, 'wire', { type: 'string', enum: ['ok', 'failed'] }],
  [
    'ts reference',
    { 'x-discern-vocabulary': 'step_outcome', description: 'o' },
    'ts',
    { description: 'o', tsType: 'DiscernStepOutcome' },
  ],
  [
    'nested under properties and items',
    {
      type: 'object',
      additionalProperties: false,
      properties: { steps: { type: 'array', items: { 'x-discern-vocabulary': 'step_kind' } } },
    },
    'wire',
    {
      type: 'object',
      additionalProperties: false,
      properties: { steps: { type: 'array', items: { type: 'string' } } },
    },
  ],
  ['unmarked nodes are untouched', { type: 'integer', minimum: 0 }, 'published', { type: 'integer', minimum: 0 }],
];

describe('expandVocabularies', () => {
  for (const [name, given, mode, want] of cases) {
    it(name, () => assert.deepEqual(expandVocabularies(given, vocabularies, mode), want));
  }
  it('rejects an unknown vocabulary', () => {
    assert.throws(
      () => expandVocabularies({ 'x-discern-vocabulary': 'nope' }, vocabularies, 'wire'),
      /unknown vocabulary nope/,
    );
  });
});
