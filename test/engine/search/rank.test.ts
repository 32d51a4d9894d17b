import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { buildIndex, search, type SearchDocument } from '../../../src/engine/search/index.js';

function page(target: string, body: string, overrides: Partial<SearchDocument> = {}): SearchDocument {
  return {
    target,
    path: `${target}.md`,
    section: 'test',
    title: target,
    description: `About ${target}.`,
    aliases: [],
    headings: [],
    code: [],
    body,
    ...overrides,
  };
}

const targets = (outcome: ReturnType<typeof search>): string[] => outcome.results.map((result) => result.target);

describe('search', () => {
  it('returns nothing for queries without letters or digits', () => {
    const index = buildIndex([page('a', 'alpha')]);
    for (const query of ['', '   ', '?!', '--']) {
      assert.deepEqual(search(index, query), { query, count: 0, truncated: false, results: [] });
    }
  });

  it('fills with partials greedily, favouring pages that cover terms not yet covered', () => {
    const index = buildIndex([
      page('p-one', 'alpha beta', { title: 'Alpha beta' }),
      page('p-two', 'alpha beta', { headings: [{ depth: 2, text: 'Beta' }] }),
      page('p-three', 'alpha gamma'),
      page('other', 'nothing relevant here'),
    ]);
    const outcome = search(index, 'beta gamma alpha');
    // By score alone p-two would precede p-three; p-three wins the second slot by adding "gamma".
    assert.deepEqual(targets(outcome), ['p-one', 'p-three', 'p-two']);
    assert.ok(outcome.results.every((result) => result.match === 'partial'));
  });

  it('puts complete results before partials and honours the limit', () => {
    const index = buildIndex([
      page('complete-a', 'alpha beta'),
      page('complete-b', 'alpha beta'),
      page('partial', 'alpha', { title: 'Alpha' }),
    ]);
    const outcome = search(index, 'alpha beta');
    assert.deepEqual(targets(outcome), ['complete-a', 'complete-b', 'partial']);
    assert.deepEqual(
      outcome.results.map((result) => result.match),
      ['complete', 'complete', 'partial'],
    );
    const limited = search(index, 'alpha beta', { limit: 1 });
    assert.deepEqual(targets(limited), ['complete-a']);
    assert.equal(limited.count, 3);
    assert.equal(limited.truncated, true);
  });

  it('breaks score ties by target and lets kindWeight tip the balance', () => {
    const docs = [page('b', 'alpha'), page('a', 'alpha')];
    assert.deepEqual(targets(search(buildIndex(docs), 'alpha')), ['a', 'b']);
    const weighted = [page('b', 'alpha', { kindWeight: 5 }), page('a', 'alpha')];
    assert.deepEqual(targets(search(buildIndex(weighted), 'alpha')), ['b', 'a']);
  });

  it('weights title above body', () => {
    const index = buildIndex([page('body-only', 'gate gate gate'), page('titled', 'other words', { title: 'Gate' })]);
    assert.deepEqual(targets(search(index, 'gate')), ['titled', 'body-only']);
  });

  it('restricts results to the scope but keeps frequencies over the whole index', () => {
    const index = buildIndex([
      page('guides/a', 'alpha beta'),
      page('reference/b', 'alpha beta', { title: 'Alpha beta' }),
    ]);
    const scoped = search(index, 'alpha', { scope: (doc) => doc.target.startsWith('guides/') });
    assert.deepEqual(targets(scoped), ['guides/a']);
    assert.equal(scoped.count, 1);
  });

  it('labels the heading a body hit sits under and omits it before the first heading', () => {
    const index = buildIndex([
      page('doc', 'Intro words. Setup Install with npm. Usage Run the tool daily.', {
        headings: [
          { depth: 2, text: 'Setup' },
          { depth: 2, text: 'Usage' },
        ],
      }),
    ]);
    assert.equal(search(index, 'daily').results[0]?.heading, 'Usage');
    assert.equal(search(index, 'intro words').results[0]?.heading, undefined);
    assert.equal('heading' in (search(index, 'intro words').results[0] ?? {}), false);
  });

  it('matches technical queries literally, not by their tokens', () => {
    const index = buildIndex([
      page('flag', 'Pass --search to rank pages.'),
      page('word', 'You can search for pages.', { title: 'Search' }),
    ]);
    const outcome = search(index, '--search');
    assert.deepEqual(targets(outcome), ['flag']);
    assert.equal(outcome.results[0]?.match, 'complete');
    assert.equal(outcome.results[0]?.snippet, 'Pass --search to rank pages.');
  });

  it('falls back to term ranking when a technical query has no literal match', () => {
    const index = buildIndex([page('gate', 'The quality gate runs tests.')]);
    const outcome = search(index, 'quality-gate');
    assert.deepEqual(targets(outcome), ['gate']);
    assert.equal(outcome.results[0]?.match, 'complete');
  });

  it('echoes the query it was given', () => {
    const index = buildIndex([page('a', 'alpha')]);
    assert.equal(search(index, '  Alpha ').query, '  Alpha ');
  });
});
