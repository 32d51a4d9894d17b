import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { editDistance } from '../../../src/engine/search/edit-distance.js';

describe('editDistance', () => {
  it('is zero for equal strings and the length for an empty side', () => {
    assert.equal(editDistance('gate', 'gate'), 0);
    assert.equal(editDistance('', 'gate'), 4);
    assert.equal(editDistance('gate', ''), 4);
  });

  it('counts insertions, deletions and substitutions', () => {
    assert.equal(editDistance('kitten', 'sitting'), 3);
    assert.equal(editDistance('worktree', 'worktrees'), 1);
  });

  it('counts an adjacent transposition as one edit', () => {
    assert.equal(editDistance('wroktrees', 'worktrees'), 1);
    assert.equal(editDistance('confgiuration', 'configuration'), 1);
  });

  it('uses optimal string alignment, which never edits a substring twice', () => {
    // Unrestricted Damerau–Levenshtein gives 2 here; OSA gives 3.
    assert.equal(editDistance('ca', 'abc'), 3);
  });

  it('is symmetric and counts code points, not UTF-16 units', () => {
    assert.equal(editDistance('standards', 'standrads'), editDistance('standrads', 'standards'));
    assert.equal(editDistance('a😀b', 'ab'), 1);
  });
});
