import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { extractFields, splitFrontMatter } from '../../../src/engine/search/index.js';

describe('extractFields', () => {
  it('collects headings of depth 2 and deeper, without hashes or closing sequences', () => {
    const fields = extractFields('# Title\n\nIntro.\n\n## First ##\n\ntext\n\n### Second `code`\n\n#nothashtag');
    assert.deepEqual(
      fields.headings.map(({ depth, text }) => ({ depth, text })),
      [
        { depth: 2, text: 'First' },
        { depth: 3, text: 'Second code' },
      ],
    );
  });

  it('ignores heading-like lines inside fenced code, but keeps the code', () => {
    const fields = extractFields(
      '## Real\n\n```sh\n# not a heading\n## neither\necho hi\n```\n\n~~~\n# also code\n~~~\n',
    );
    assert.deepEqual(
      fields.headings.map(({ depth, text }) => ({ depth, text })),
      [{ depth: 2, text: 'Real' }],
    );
    assert.deepEqual(fields.code, ['# not a heading\n## neither\necho hi', '# also code']);
    assert.match(fields.body, /# not a heading ## neither echo hi/);
  });

  it('treats an unclosed fence as code to the end', () => {
    const fields = extractFields('text\n\n```\n## inside\n');
    assert.deepEqual(fields.headings, []);
    assert.deepEqual(fields.code, ['## inside']);
  });

  it('captures inline code spans, including double-backtick spans', () => {
    const fields = extractFields('Use `discern_docs` or ``a `tick` b`` with `--search`.');
    assert.deepEqual(fields.code, ['discern_docs', 'a `tick` b', '--search']);
    assert.equal(fields.body, 'Use discern_docs or a `tick` b with --search.');
  });

  it('flattens links and images to their text and drops reference definitions', () => {
    const fields = extractFields(
      'See [the guide](../guide.md "Guide") and [exit codes][codes], ![diagram](img.png), <https://x.dev/a_b_c>.\n\n[codes]: ./exit-codes.md',
    );
    assert.equal(fields.body, 'See the guide and exit codes, diagram, https://x.dev/a_b_c.');
  });

  it('strips emphasis but leaves underscores inside identifiers', () => {
    const fields = extractFields(
      'A **bold** and *italic* and _under_ and ~~gone~~ word, plus DISCERN_TRUNK and \\*literal\\*.',
    );
    assert.equal(fields.body, 'A bold and italic and under and gone word, plus DISCERN_TRUNK and *literal*.');
  });

  it('removes table pipes, delimiter rows, list markers, quotes and html tags', () => {
    const markdown = [
      '| Code | Meaning |',
      '|-----:|---------|',
      '| 0 | ok `a|b` |',
      '',
      '- [x] done item',
      '2. numbered',
      '> quoted <kbd>Ctrl</kbd> text<!-- hidden -->',
      '',
      '---',
    ].join('\n');
    assert.equal(extractFields(markdown).body, 'Code Meaning 0 ok a|b done item numbered quoted Ctrl text');
  });

  it('keeps heading text in the body, in document order', () => {
    assert.equal(extractFields('## Setup\n\nInstall it.\n\n## Use\n\nRun it.').body, 'Setup Install it. Use Run it.');
  });
});

describe('splitFrontMatter', () => {
  it('splits a leading block without interpreting it', () => {
    const split = splitFrontMatter('---\ntitle: Exit codes\naliases:\n  - status\n---\n# Body\n');
    assert.equal(split.frontMatter, 'title: Exit codes\naliases:\n  - status');
    assert.equal(split.body, '# Body\n');
  });

  it('handles CRLF line endings and a byte-order mark', () => {
    const split = splitFrontMatter('\uFEFF---\r\ntitle: x\r\n---\r\nbody');
    assert.equal(split.frontMatter, 'title: x');
    assert.equal(split.body, 'body');
  });

  it('returns null when there is no front matter or it never closes', () => {
    assert.deepEqual(splitFrontMatter('# Just text\n---\n'), { frontMatter: null, body: '# Just text\n---\n' });
    assert.deepEqual(splitFrontMatter('---\ntitle: x\n'), { frontMatter: null, body: '---\ntitle: x\n' });
  });
  it('records where each heading starts in the body, even when its words appear earlier in the prose', () => {
    const fields = extractFields(
      'Only these keys: [jobs] and [repository].\n\n## [repository]\n\ntrunk = main\n\n## [jobs]\n\ntest = x\n',
    );
    for (const heading of fields.headings)
      assert.equal(fields.body.slice(heading.offset, heading.offset + heading.text.length), heading.text);
    assert.ok(
      (fields.headings[0]?.offset ?? 0) > fields.body.indexOf('[repository]'),
      'the heading, not the earlier mention',
    );
  });
});
