import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { buildIndex, search, type SearchDocument } from '../../../src/engine/search/index.js';
import { loadCorpus } from './load-corpus.js';

function page(target: string, overrides: Partial<SearchDocument> = {}): SearchDocument {
  return {
    target,
    path: `${target}.md`,
    section: target.split('/')[0] ?? '',
    title: target,
    description: '',
    aliases: [],
    headings: [],
    code: [],
    body: '',
    ...overrides,
  };
}

describe('buildIndex', () => {
  it('is byte-identical across two builds and independent of input order', () => {
    const docs = loadCorpus();
    const first = JSON.stringify(buildIndex(docs));
    const second = JSON.stringify(buildIndex(loadCorpus()));
    const reversed = JSON.stringify(buildIndex([...docs].reverse()));
    assert.equal(first, second);
    assert.equal(first, reversed);
  });

  it('survives a JSON round trip, and searching the copy gives the same outcome', () => {
    const index = buildIndex(loadCorpus());
    const copy: unknown = JSON.parse(JSON.stringify(index));
    assert.deepEqual(copy, index);
    const restored = copy as typeof index;
    for (const query of ['--search', 'exit codes', 'proof note commit', 'wroktrees', 'cnfgration']) {
      assert.deepEqual(search(restored, query), search(index, query), query);
    }
  });

  it('holds only plain data', () => {
    const index = buildIndex(loadCorpus());
    const visit = (value: unknown): void => {
      if (value === null || ['string', 'number', 'boolean'].includes(typeof value)) return;
      assert.ok(Array.isArray(value) || Object.getPrototypeOf(value) === Object.prototype, 'not plain data');
      for (const child of Object.values(value as object)) visit(child);
    };
    visit(index);
  });

  it('folds singular variants into the term lists and keeps only headings of depth 2+', () => {
    const index = buildIndex([
      page('concepts/worktrees', {
        title: 'Worktrees',
        headings: [
          { depth: 1, text: 'Worktrees' },
          { depth: 2, text: 'Cleaning  up' },
        ],
        body: 'Worktrees intro. Cleaning up stale copies.',
      }),
    ]);
    const doc = index.documents[0];
    assert.ok(doc);
    assert.deepEqual(doc.terms.title, ['worktree', 'worktrees']);
    assert.deepEqual(doc.headings, [{ depth: 2, text: 'Cleaning up' }]);
    assert.deepEqual(doc.headingOffsets, ['Worktrees intro. '.length]);
    assert.equal(doc.kindWeight, 0);
  });

  it('rejects two documents with the same target', () => {
    assert.throws(() => buildIndex([page('a/b'), page('a/b')]), /duplicate search target: a\/b/);
  });
});
