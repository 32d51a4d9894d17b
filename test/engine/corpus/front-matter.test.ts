// The front-matter reader: the YAML subset pages use, block scalars included, and a located problem for
// anything else rather than a guess.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFrontMatter } from '../../../src/engine/corpus/front-matter.js';
import { pageMeta } from '../../../src/engine/corpus/page-meta.js';

function data(text: string): Record<string, unknown> {
  const read = readFrontMatter(text);
  assert.ok(read.ok, JSON.stringify(read));
  return read.data;
}

describe('readFrontMatter', () => {
  it('reads scalars, inline lists and block lists (items indented or not)', () => {
    assert.deepEqual(data('title: "Quoted: yes"\norder: 5\npublish: false\naliases: [a, "b, c"]\nid: x # comment'), {
      title: 'Quoted: yes',
      order: 5,
      publish: false,
      aliases: ['a', 'b, c'],
      id: 'x',
    });
    assert.deepEqual(data('aliases:\n  - one\n  - two\ntitle: T'), { aliases: ['one', 'two'], title: 'T' });
    assert.deepEqual(data('aliases:\n- one\n- 2024 # a year'), { aliases: ['one', '2024'] });
    assert.deepEqual(data('aliases: [a, b] # two'), { aliases: ['a', 'b'] });
  });

  const blocks: [name: string, text: string, expected: string][] = [
    ['folded, stripped', 'description: >-\n  One\n  two.\n\n  Three.\n', 'One two.\nThree.'],
    ['folded, clipped', 'description: >\n  One\n  two.\n', 'One two.\n'],
    ['folded, kept', 'description: >+\n  One\n\n\ntitle: T', 'One\n\n\n'],
    ['folded, more-indented lines keep their breaks', 'description: >\n  a\n    code\n  b\n', 'a\n  code\nb\n'],
    ['literal, clipped', 'description: |\n  line one\n    indented\n  line two\n', 'line one\n  indented\nline two\n'],
    ['literal, stripped, at the end', 'description: |-\n  last\n  lines', 'last\nlines'],
    ['literal with explicit indentation', 'description: |2\n    two spaces kept\n', '  two spaces kept\n'],
    ['empty block', 'description: >\ntitle: T', ''],
    ['with a comment after the header', 'description: >- # why\n  text', 'text'],
  ];
  for (const [name, text, expected] of blocks) {
    it(`block scalar: ${name}`, () => assert.equal(data(text)['description'], expected));
  }
  it('a block scalar ends at the next key', () => {
    assert.deepEqual(data('title: |\n  Multi\n  line\ndescription: >-\n  folded\n  text\norder: 2'), {
      title: 'Multi\nline\n',
      description: 'folded text',
      order: 2,
    });
  });

  const refused: [text: string, line: number, reason: RegExp][] = [
    ['title: a\nnested:\n  key: value', 3, /not a "key: value" line/],
    ['title: a\ntitle: b', 2, /appears twice/],
    ['- stray', 1, /outside a list/],
    ['aliases: [a, b', 1, /must end with \]/],
    ['title: a\n  continued plain scalar', 2, /not a "key: value" line/],
    ['aliases:\n  - [nested]', 2, /not a nested list or mapping/],
    ['meta: {a: 1}', 1, /mapping is not read/],
  ];
  for (const [text, line, reason] of refused) {
    it(`reports ${JSON.stringify(text)} at line ${line}`, () => {
      const read = readFrontMatter(text);
      assert.equal(read.ok, false);
      if (read.ok) return;
      assert.equal(read.line, line);
      assert.match(read.reason, reason);
    });
  }
});

describe('pageMeta', () => {
  it('takes the keys a listing reads when they have their type', () => {
    assert.deepEqual(pageMeta({ title: ' T ', description: 'D', id: 'i', order: 3, aliases: ['a'], publish: false }), {
      meta: { title: 'T', description: 'D', id: 'i', order: 3, aliases: ['a'], publish: false },
      problems: [],
    });
  });
  it('reports a wrongly typed key and ignores it; an empty key says nothing', () => {
    const { meta, problems } = pageMeta({
      title: 2024,
      order: 'first',
      aliases: 'one',
      publish: 'yes',
      description: [],
    });
    assert.deepEqual(meta, {});
    assert.deepEqual(problems, [
      '`title` is the number 2024; it must be text (quote it to keep it as written)',
      '`order` is the text "first"; it must be a whole number',
      '`aliases` is the text "one"; it must be a list, such as [a, b]',
      '`publish` is the text "yes"; it must be true or false',
    ]);
  });
});
