// The front-matter reader: YAML as YAML reads it (block scalars, nested maps such as an Agent Skills
// `metadata` map), and a located problem for text that is not YAML or not a map.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { parseDocument } from 'yaml';
import { readerWith } from '../../../src/engine/corpus/front-matter.js';
import { pageMeta } from '../../../src/engine/corpus/page-meta.js';

const readFrontMatter = readerWith(parseDocument);

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
    assert.deepEqual(data('aliases:\n- one\n- 2024 # a year'), { aliases: ['one', 2024] });
    assert.deepEqual(data('day: 2026-12-07\nempty:'), { day: '2026-12-07', empty: null });
  });

  it("reads an Agent Skills SKILL.md's optional fields, the metadata map among them", () => {
    const text = [
      'name: pdf-tools',
      'description: Reads and fills PDF forms.',
      'license: Apache-2.0',
      'compatibility: Needs python3 and poppler',
      'allowed-tools: Bash(python3:*) Read',
      'metadata:',
      '  author: example-org',
      '  version: "1.0"',
    ].join('\n');
    assert.deepEqual(data(text)['metadata'], { author: 'example-org', version: '1.0' });
    assert.equal(data(text)['allowed-tools'], 'Bash(python3:*) Read');
  });

  const blocks: [name: string, text: string, expected: string][] = [
    ['folded, stripped', 'description: >-\n  One\n  two.\n\n  Three.\n', 'One two.\nThree.'],
    ['folded, clipped', 'description: >\n  One\n  two.\n', 'One two.\n'],
    ['literal, clipped', 'description: |\n  line one\n    indented\n  line two\n', 'line one\n  indented\nline two\n'],
    ['literal, stripped, at the end', 'description: |-\n  last\n  lines', 'last\nlines'],
    ['with a comment after the header', 'description: >- # why\n  text', 'text'],
  ];
  for (const [name, text, expected] of blocks) {
    it(`block scalar: ${name}`, () => assert.equal(data(text)['description'], expected));
  }

  const refused: [text: string, line: number, reason: RegExp][] = [
    ['title: a\ntitle: b', 2, /unique/],
    ['title: a\naliases: [a, b', 2, /\]/],
    ['- stray', 1, /must be a map/],
    ['just text', 1, /must be a map/],
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

  it('bounds what aliases may expand to', () => {
    const bomb = ['a: &a [x, x, x, x, x, x, x, x, x, x]'];
    for (let k = 0; k < 8; k++)
      bomb.push(
        `${String.fromCharCode(98 + k)}: &${String.fromCharCode(98 + k)} [${Array(10)
          .fill(`*${String.fromCharCode(97 + k)}`)
          .join(', ')}]`,
      );
    const read = readFrontMatter(bomb.join('\n'));
    assert.equal(read.ok, false);
  });
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
      '`aliases` is the text "one"; it must be a list of names, such as [a, b]',
      '`publish` is the text "yes"; it must be true or false',
    ]);
  });
});
