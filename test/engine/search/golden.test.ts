// Runs every row of golden.json against an index of the fixture manual. The table is the executable form of
// the documented ranking rules, so a change in behaviour shows up as a reviewed diff to that file.
//
// Row format: { name, query, expect } where every expect key is optional:
//   top         leading targets, in order
//   match       match label of the first result
//   tiers       match labels of the leading results, in order
//   count       full number of qualifying results
//   truncated   whether more results qualified than were returned
//   includes    targets that must appear somewhere in the returned results
//   suggestions exact suggestions (absent and [] are the same)
//   empty       no results and count 0
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { buildIndex, search, type SearchIndex, type SearchMatch } from '../../../src/engine/search/index.js';
import { loadCorpus } from './load-corpus.js';

interface GoldenRow {
  name: string;
  query: string;
  expect: {
    top?: string[];
    match?: SearchMatch;
    tiers?: SearchMatch[];
    count?: number;
    truncated?: boolean;
    includes?: string[];
    suggestions?: string[];
    empty?: boolean;
  };
}

const rows = JSON.parse(readFileSync(new URL('./golden.json', import.meta.url), 'utf8')) as GoldenRow[];
// Searching a JSON round-tripped index is how the CLI uses it.
const index = JSON.parse(JSON.stringify(buildIndex(loadCorpus()))) as SearchIndex;

describe('golden queries', () => {
  for (const row of rows) {
    it(`${row.name} (${JSON.stringify(row.query)})`, () => {
      const outcome = search(index, row.query);
      const targets = outcome.results.map((result) => result.target);
      const { expect } = row;
      if (expect.top) assert.deepEqual(targets.slice(0, expect.top.length), expect.top, 'leading targets');
      if (expect.match) assert.equal(outcome.results[0]?.match, expect.match, 'first match label');
      if (expect.tiers) {
        const tiers = outcome.results.slice(0, expect.tiers.length).map((result) => result.match);
        assert.deepEqual(tiers, expect.tiers, 'match labels');
      }
      if (expect.count !== undefined) assert.equal(outcome.count, expect.count, 'count');
      if (expect.truncated !== undefined) assert.equal(outcome.truncated, expect.truncated, 'truncated');
      for (const target of expect.includes ?? []) assert.ok(targets.includes(target), `missing ${target}`);
      if (expect.suggestions) assert.deepEqual(outcome.suggestions ?? [], expect.suggestions, 'suggestions');
      if (expect.empty) {
        assert.deepEqual(outcome.results, [], 'results');
        assert.equal(outcome.count, 0, 'count');
      }
      // Invariants every outcome must hold.
      assert.equal(outcome.truncated, outcome.count > outcome.results.length);
      assert.ok(outcome.results.length <= 5);
      assert.equal(new Set(targets).size, targets.length, 'duplicate results');
    });
  }
});
