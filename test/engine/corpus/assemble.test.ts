// Assembling a corpus from files whose names collide once number prefixes, `.md` and case are dropped: every
// page keeps a unique target (the search index needs one), every page is reachable by its path, and each
// renaming is reported.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { parseDocument } from 'yaml';
import { assembleCorpus } from '../../../src/engine/corpus/assemble.js';
import { readerWith } from '../../../src/engine/corpus/front-matter.js';
import { lookupTarget } from '../../../src/engine/corpus/lookup.js';
import { indexCorpus } from '../../../src/engine/corpus/search-documents.js';

function assemble(paths: readonly string[]) {
  const result = assembleCorpus(
    paths.map((path) => ({ path, text: `# ${path}\n\nbody of ${path}\n` })),
    readerWith(parseDocument),
  );
  indexCorpus(result.corpus); // throws on a duplicate target
  return result;
}
const targets = (paths: readonly string[]): Record<string, string> =>
  Object.fromEntries(assemble(paths).corpus.pages.map((p) => [p.path, p.target]));

describe('assembleCorpus name collisions', () => {
  it('a folder without a number prefix keeps its region name; the prefixed one is named by its folder', () => {
    const { corpus, problems } = assemble(['10-guides/a.md', 'guides/a.md']);
    assert.deepEqual(
      corpus.regions.map((r) => [r.dir, r.name]),
      [
        ['10-guides', '10-guides'],
        ['guides', 'guides'],
      ],
    );
    assert.deepEqual(targets(['10-guides/a.md', 'guides/a.md']), {
      'guides/a.md': 'guides/a',
      '10-guides/a.md': '10-guides/a',
    });
    assert.deepEqual(
      problems.map((p) => [p.kind, p.path]),
      [['name-collision', '10-guides/']],
    );
    assert.match(problems[0]?.message ?? '', /"guides" belongs to guides\/, so this folder is the region "10-guides"/);
  });
  it('among equally renamed folders the first in path order keeps the name', () => {
    assert.deepEqual(targets(['20-guides/a.md', '10-guides/a.md']), {
      '10-guides/a.md': 'guides/a',
      '20-guides/a.md': '20-guides/a',
    });
  });
  it("pages named like another page's path (x.md.md, x.MD) still get unique targets", () => {
    assert.deepEqual(targets(['x.md.md', '01-x.md', 'x.md']), { 'x.md': 'x', 'x.md.md': 'x.md', '01-x.md': '01-x' });
    const t = targets(['x.md.md', '10-x.md', 'x.MD', 'x.md']);
    assert.equal(new Set(Object.values(t)).size, 4, JSON.stringify(t));
  });
  it('folders differing only in case are distinct regions, each reachable by its own spelling', () => {
    const { corpus } = assemble(['Guides/a.md', 'guides/a.md']);
    assert.deepEqual(corpus.regions.map((r) => r.name).sort(), ['Guides', 'guides']);
    for (const path of ['Guides/a.md', 'guides/a.md']) {
      const found = lookupTarget(corpus, path);
      assert.ok(found.kind === 'page' && found.page.path === path, `${path}: ${JSON.stringify(found)}`);
    }
    for (const dir of ['Guides', 'guides']) {
      const found = lookupTarget(corpus, dir);
      assert.ok(found.kind === 'region' && found.region.dir === dir, dir);
    }
  });
  it('names nothing when nothing collides', () => {
    assert.deepEqual(assemble(['10-guides/20-a.md', '10-guides/b.md', 'c.md']).problems, []);
  });
});
