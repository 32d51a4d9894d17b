// tidy's two normalisers, table-tested: what each rule changes, what it must never change (values, strings,
// fenced code), and that a second pass changes nothing.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { parse } from 'smol-toml';
import { tidyToml } from '../../src/engine/tidy/toml.js';
import { tidyMarkdown } from '../../src/engine/tidy/markdown.js';

const L = (...lines: string[]): string => lines.join('\n');

const tomlCases: { name: string; input: string; expected: string }[] = [
  {
    name: 'strips trailing whitespace, comments included',
    input: 'a = 1   \n# note  \t\n',
    expected: 'a = 1\n# note\n',
  },
  {
    name: 'spaces key = value',
    input: 'a=1\nb    =     "x"\n"q k"=2\nd.e=3\n',
    expected: 'a = 1\nb = "x"\n"q k" = 2\nd.e = 3\n',
  },
  {
    name: 'one blank line before each table',
    input: '[a]\nx = 1\n[b]\ny = 2\n\n\n\n[c]\n',
    expected: '[a]\nx = 1\n\n[b]\ny = 2\n\n[c]\n',
  },
  {
    name: 'the blank line goes above the comments of a table',
    input: '[a]\nx = 1\n# about b\n[b]\n',
    expected: '[a]\nx = 1\n\n# about b\n[b]\n',
  },
  { name: 'no blank lines at the start, one final newline', input: '\n\n\n[a]\nx = 1\n\n\n', expected: '[a]\nx = 1\n' },
  { name: 'adds a missing final newline', input: 'a = 1', expected: 'a = 1\n' },
  { name: 'collapses runs of blank lines between keys', input: 'a = 1\n\n\n\nb = 2\n', expected: 'a = 1\n\nb = 2\n' },
  {
    name: 'keeps comments and order',
    input: '# top\n\nz = 1 # last first\na = 2\n',
    expected: '# top\n\nz = 1 # last first\na = 2\n',
  },
  {
    name: 'never touches strings',
    input: 'a = """\nline with spaces   \n\n\n\n"""\nb = "x=1   "\n',
    expected: 'a = """\nline with spaces   \n\n\n\n"""\nb = "x=1   "\n',
  },
  {
    name: 'strips trailing whitespace inside multi-line arrays',
    input: 'a = [  \n  1,   \n]\n',
    expected: 'a = [\n  1,\n]\n',
  },
  { name: 'keeps CRLF', input: '[a]\r\nx=1  \r\n[b]\r\n', expected: '[a]\r\nx = 1\r\n\r\n[b]\r\n' },
  { name: 'keeps indentation', input: '[a]\n  x=1\n', expected: '[a]\n  x = 1\n' },
  { name: 'an empty file stays empty', input: '', expected: '' },
  {
    name: 'a tidy file is unchanged',
    input: L('# c', '', '[project]', 'name = "x"', '', '[jobs]', 'test = "npm test"', ''),
    expected: L('# c', '', '[project]', 'name = "x"', '', '[jobs]', 'test = "npm test"', ''),
  },
];

describe('tidyToml', () => {
  for (const c of tomlCases) {
    it(c.name, () => {
      const out = tidyToml(c.input);
      assert.equal(out, c.expected);
      assert.equal(tidyToml(out), out, 'idempotent');
      assert.deepEqual(JSON.parse(JSON.stringify(parse(out))), JSON.parse(JSON.stringify(parse(c.input))));
    });
  }
  it('refuses what does not parse', () => assert.throws(() => tidyToml('a = = 1\n'), /not valid TOML/));
});

const FENCED = L(
  '# Title   ',
  '',
  '',
  '',
  'Text  ',
  '```sh',
  'keep   ',
  '',
  '',
  '',
  '  indented  ',
  '```',
  '',
  '',
  'after',
  '~~~~',
  'tilde   ',
  '```',
  'still inside  ',
  '~~~~',
  'end   ',
);

const mdCases: { name: string; input: string; expected: string }[] = [
  { name: 'strips trailing whitespace and collapses blank lines', input: 'a  \n\n\n\nb\t\n', expected: 'a\n\nb\n' },
  {
    name: 'leaves fenced code alone',
    input: FENCED,
    expected: L(
      '# Title',
      '',
      'Text',
      '```sh',
      'keep   ',
      '',
      '',
      '',
      '  indented  ',
      '```',
      '',
      'after',
      '~~~~',
      'tilde   ',
      '```',
      'still inside  ',
      '~~~~',
      'end',
      '',
    ),
  },
  { name: 'an unclosed fence runs to the end', input: 'x  \n```\na  \n\n\n', expected: 'x\n```\na  \n\n\n' },
  { name: 'inline triple backticks are not a fence', input: '```js `x` ```  \ny  \n', expected: '```js `x` ```\ny\n' },
  { name: 'no blank lines at the start or end, a final newline', input: '\n\n# T\n\n\n', expected: '# T\n' },
  { name: 'keeps CRLF', input: 'a  \r\n\r\n\r\n\r\nb', expected: 'a\r\n\r\nb\r\n' },
  {
    name: 'leaves indented code byte for byte, blank lines and trailing spaces inside it included',
    input: 'para  \n\n    code  \n\n\n  \n    more\t\n\n\n\tTabbed  \nafter  \n',
    expected: 'para\n\n    code  \n\n\n  \n    more\t\n\n\n\tTabbed  \nafter\n',
  },
  {
    name: 'leaves <pre>, <script>, <style>, <textarea> and comment blocks byte for byte',
    input: L(
      'x  ',
      '<pre>',
      '  keep  ',
      '',
      '',
      '</pre>  ',
      '',
      '',
      '<Script type="x">  ',
      'a  ',
      '</script>',
      '<!-- note  ',
      '',
      '',
      '-->',
      '<pre>one line</pre>  ',
      'y  ',
      '',
    ),
    expected: L(
      'x',
      '<pre>',
      '  keep  ',
      '',
      '',
      '</pre>  ',
      '',
      '<Script type="x">  ',
      'a  ',
      '</script>',
      '<!-- note  ',
      '',
      '',
      '-->',
      '<pre>one line</pre>  ',
      'y',
      '',
    ),
  },
  { name: 'a <preview> tag is not a <pre> block', input: '<preview>  \n\n\nx\n', expected: '<preview>\n\nx\n' },
  { name: 'an empty file stays empty', input: '', expected: '' },
];

describe('tidyMarkdown', () => {
  for (const c of mdCases) {
    it(c.name, () => {
      const out = tidyMarkdown(c.input);
      assert.equal(out, c.expected);
      assert.equal(tidyMarkdown(out), out, 'idempotent');
    });
  }
});
