import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseQuery } from '../../../src/engine/search/query.js';
import {
  meaningfulTerms,
  pluralVariants,
  sharesForm,
  termForms,
  tokenize,
  tokenSpans,
} from '../../../src/engine/search/tokenize.js';

describe('tokenize', () => {
  it('lowercases and splits on anything that is not a letter or digit', () => {
    assert.deepEqual(tokenize('Run `discern_docs` --search "Exit codes" v2'), [
      'run',
      'discern',
      'docs',
      'search',
      'exit',
      'codes',
      'v2',
    ]);
  });

  it('keeps letters of any script together', () => {
    assert.deepEqual(tokenize('Größe naïve café'), ['größe', 'naïve', 'café']);
  });

  it('drops contraction and possessive tails but keeps longer words after an apostrophe', () => {
    assert.deepEqual(tokenize("what's the agent’s O'Reilly"), ['what', 'the', 'agent', 'o', 'reilly']);
  });

  it('reports offsets into the original text', () => {
    assert.deepEqual(tokenSpans('A Worktree!'), [
      { token: 'a', start: 0, end: 1 },
      { token: 'worktree', start: 2, end: 10 },
    ]);
  });
});

describe('meaningfulTerms', () => {
  it('drops filler words and duplicates', () => {
    assert.deepEqual(meaningfulTerms(tokenize('How do I connect my agent to the agent server')), [
      'connect',
      'agent',
      'server',
    ]);
  });

  it('keeps filler words when nothing else would remain', () => {
    assert.deepEqual(meaningfulTerms(tokenize('what is this')), ['what', 'is', 'this']);
  });
});

describe('pluralVariants', () => {
  it('maps -ies to -y', () => {
    assert.ok(pluralVariants('policies').includes('policy'));
  });

  it('strips -es after a sibilant and -s otherwise', () => {
    assert.ok(pluralVariants('classes').includes('class'));
    assert.ok(pluralVariants('matches').includes('match'));
    assert.deepEqual(pluralVariants('worktrees'), ['worktree']);
    // "notes" must not fold to the unrelated "not".
    assert.deepEqual(pluralVariants('notes'), ['note']);
  });

  it('leaves words ending in -ss alone', () => {
    assert.deepEqual(pluralVariants('process'), []);
    assert.deepEqual(pluralVariants('progress'), []);
  });

  it('leaves words of 4 characters or fewer alone', () => {
    assert.deepEqual(pluralVariants('docs'), []);
    assert.deepEqual(pluralVariants('runs'), []);
  });

  it('treats a word and its plural as sharing a form in both directions', () => {
    assert.ok(sharesForm('worktrees', new Set(termForms('worktree'))));
    assert.ok(sharesForm('worktree', new Set(termForms('worktrees'))));
    assert.ok(!sharesForm('not', new Set(termForms('notes'))));
  });
});

describe('parseQuery', () => {
  it('marks queries with punctuation inside as technical', () => {
    assert.equal(parseQuery('--search').technical, true);
    assert.equal(parseQuery('DISCERN_TRUNK').technical, true);
    assert.equal(parseQuery('refs/notes').technical, true);
    assert.equal(parseQuery('exit codes').technical, false);
  });

  it('does not let sentence punctuation or quotes at the ends make a query technical', () => {
    const parsed = parseQuery('  "How do I   land a change?"  ');
    assert.equal(parsed.technical, false);
    assert.equal(parsed.phrase, 'how do i land a change');
    assert.deepEqual(parsed.phraseTokens, ['how', 'do', 'i', 'land', 'a', 'change']);
    assert.deepEqual(parsed.terms, ['land', 'change']);
  });

  it('keeps a leading dot, which is part of file names', () => {
    assert.equal(parseQuery('.discern.toml').phrase, '.discern.toml');
  });
});
