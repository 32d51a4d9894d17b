import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  headingAt,
  leadingSnippet,
  SNIPPET_AFTER,
  SNIPPET_BEFORE,
  snippetAround,
} from '../../../src/engine/search/snippet.js';

const words = (count: number, prefix: string): string =>
  Array.from({ length: count }, (_unused, index) => `${prefix}${index}`).join(' ');

describe('snippetAround', () => {
  it('quotes short texts whole, without ellipses', () => {
    assert.equal(snippetAround('Landing is refused without a proof.', 11, 18), 'Landing is refused without a proof.');
  });

  it('cuts long texts at word boundaries and marks both cuts', () => {
    const before = words(40, 'b');
    const after = words(60, 'a');
    const text = `${before} NEEDLE ${after}`;
    const start = before.length + 1;
    const snippet = snippetAround(text, start, start + 'NEEDLE'.length);
    assert.ok(snippet.startsWith('…'));
    assert.ok(snippet.endsWith('…'));
    assert.ok(snippet.includes('NEEDLE'));
    const inner = snippet.slice(1, -1);
    // Every quoted word is whole: each one exists as a word of the source.
    const sourceWords = new Set(text.split(' '));
    for (const word of inner.split(' ')) assert.ok(sourceWords.has(word), `cut word: ${word}`);
    const needleAt = inner.indexOf('NEEDLE');
    assert.ok(needleAt <= SNIPPET_BEFORE && needleAt >= SNIPPET_BEFORE - 10);
    assert.ok(inner.length - needleAt - 'NEEDLE'.length <= SNIPPET_AFTER);
  });

  it('never drops the hit itself, even inside one very long word', () => {
    const text = `${'x'.repeat(200)}HIT${'y'.repeat(200)}`;
    const snippet = snippetAround(text, 200, 203);
    assert.ok(snippet.includes('HIT'));
  });

  it('collapses whitespace', () => {
    assert.equal(snippetAround('a  b\n\tc', 0, 1), 'a b c');
  });

  it('quotes the opening of a text when there is no hit', () => {
    const text = words(80, 'w');
    const snippet = leadingSnippet(text);
    assert.ok(snippet.startsWith('w0 w1'));
    assert.ok(snippet.endsWith('…'));
  });
});

describe('headingAt', () => {
  const headings = [{ text: 'One' }, { text: 'Missing' }, { text: 'Two' }];
  const offsets = [10, -1, 50];

  it('returns the last heading starting at or before the offset', () => {
    assert.equal(headingAt(headings, offsets, 10), 'One');
    assert.equal(headingAt(headings, offsets, 49), 'One');
    assert.equal(headingAt(headings, offsets, 80), 'Two');
  });

  it('returns undefined before the first heading', () => {
    assert.equal(headingAt(headings, offsets, 3), undefined);
  });
});
