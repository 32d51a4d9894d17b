// The tokenizer covers the text exactly (its tokens concatenate back to it) and labels each part by its role;
// and over a document using every TOML form, every key can be set, removed and renamed with a result that
// parses to exactly the intended data.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { parse } from 'smol-toml';
import { tokenize, type TokenKind } from '../../../src/engine/toml-edit/tokens.js';
import { parseDocument } from '../../../src/engine/toml-edit/document.js';
import { removeKey, renameKey, setValue, TomlEditError } from '../../../src/engine/toml-edit/index.js';

const EVERY_FORM = `# This is a TOML document, with every form the editor must read.

title = "TOML Example" # trailing comment
"quoted key" = 'literal value'
'single quoted' = "with \\"escapes\\" and \\u00e9"
dotted.key.here = 1
spaced . dotted = 2
bare-key_1 = true
1234 = "numeric bare key"

[owner]
name = "Tom Preston-Werner"
dob = 1979-05-27T07:32:00-08:00
local = 1979-05-27 07:32:00
day = 1979-05-27
time = 07:32:00.999

[numbers]
int = +99
neg = -17
hex = 0xDEAD_BEEF
oct = 0o755
bin = 0b1101
float = 6.626e-34
under = 1_000.000_1
inf = -inf
nan = nan

[strings]
multi = """
Roses are red
  Violets are "blue" \\
  and so on"""
quotes = """Here are two quotation marks: "". Simple."""
five = """Five: ""\\""""
raw = '''
The first newline is
trimmed in raw strings.
   # not a comment
'''
raw_quotes = ''''That,' she said.''''
path = 'C:\\Users\\nodejs\\templates'

[arrays]
ints = [ 1, 2, 3 ]
nested = [ [ 1, 2 ], ["a", 'b'] ]
multi = [
  "one",   # first
  # a comment line inside
  "two",
]
empty = []
tables = [ { x = 1 }, { y = [2] } ]

[servers]

  # indented tables and keys
  [servers.alpha]
  ip = "10.0.0.1"
  role = { name = "frontend", weight = 1.5, tags = ["a", "b"] }

  [servers."beta gamma"]
  ip = "10.0.0.2"

[[products]]
name = "Hammer"
sku = 738594937

[[products]]  # empty element

[[products]]
name = "Nail"
color = "gray"

[unicode]
"ключ" = "значение"
emoji = "🚀"
`;

describe('tokenizer', () => {
  it('covers the text exactly, with no gaps and no overlaps', () => {
    for (const text of [EVERY_FORM, EVERY_FORM.replace(/\n/g, '\r\n'), '', 'a = 1', '\n\n', '  # only a comment']) {
      const tokens = tokenize(text);
      let at = 0;
      for (const t of tokens) {
        assert.equal(t.start, at);
        assert.ok(t.end > t.start);
        at = t.end;
      }
      assert.equal(at, text.length);
      assert.equal(tokens.map((t) => text.slice(t.start, t.end)).join(''), text);
    }
  });
  const roles: { text: string; kinds: TokenKind[] }[] = [
    { text: 'a.b = 1.5', kinds: ['key', 'dot', 'key', 'whitespace', 'equals', 'whitespace', 'scalar'] },
    {
      text: '"x y".\'z\' = "s" # c',
      kinds: ['key', 'dot', 'key', 'whitespace', 'equals', 'whitespace', 'string', 'whitespace', 'comment'],
    },
    { text: '[[a.b]]\n', kinds: ['array-header-open', 'key', 'dot', 'key', 'array-header-close', 'newline'] },
    { text: '[ a ]', kinds: ['header-open', 'whitespace', 'key', 'whitespace', 'header-close'] },
    {
      text: 'x = [1,\n# c\n]',
      kinds: [
        'key',
        'whitespace',
        'equals',
        'whitespace',
        'array-open',
        'scalar',
        'comma',
        'newline',
        'comment',
        'newline',
        'array-close',
      ],
    },
    {
      text: 'x = {a=1}',
      kinds: ['key', 'whitespace', 'equals', 'whitespace', 'inline-open', 'key', 'equals', 'scalar', 'inline-close'],
    },
    { text: 'd = 1979-05-27 07:32:00', kinds: ['key', 'whitespace', 'equals', 'whitespace', 'scalar'] },
    { text: "s = '''a\nb'''", kinds: ['key', 'whitespace', 'equals', 'whitespace', 'string'] },
    { text: 'true = false', kinds: ['key', 'whitespace', 'equals', 'whitespace', 'scalar'] },
  ];
  for (const r of roles) {
    it(`labels ${JSON.stringify(r.text)}`, () =>
      assert.deepEqual(
        tokenize(r.text).map((t) => t.kind),
        r.kinds,
      ));
  }
  it('decodes quoted key names', () => {
    const names = tokenize('"a\\tb".\'c\\d\' = 1')
      .filter((t) => t.kind === 'key')
      .map((t) => t.name);
    assert.deepEqual(names, ['a\tb', 'c\\d']);
  });
  it('reads multi-line strings with up to two extra closing quotes', () => {
    const strings = tokenize(EVERY_FORM)
      .filter((t) => t.kind === 'string')
      .map((t) => EVERY_FORM.slice(t.start, t.end));
    assert.ok(strings.includes('"""Five: ""\\""""'));
    assert.ok(strings.includes("''''That,' she said.''''"));
  });
  it('refuses a broken line with its line and column', () => {
    assert.throws(
      () => tokenize('a = 1\nb = "open\n'),
      (e: unknown) => e instanceof TomlEditError && e.line === 2 && e.column === 10,
    );
    assert.throws(
      () => tokenize('a = 1 2\n'),
      (e: unknown) => e instanceof TomlEditError && e.line === 1 && e.column === 7,
    );
  });
  it('classifies every line of a document', () => {
    const doc = parseDocument(EVERY_FORM);
    assert.equal(doc.lines[0]?.kind, 'comment');
    assert.equal(doc.lines[1]?.kind, 'blank');
    assert.equal(
      doc.lines.reduce((n, l) => n + (l.end - l.start), 0),
      EVERY_FORM.length,
    );
    const multi = doc.entries.find((e) => e.path.join('.') === 'strings.multi');
    assert.equal(EVERY_FORM.slice(multi?.value.start, multi?.value.end).split('\n').length, 4);
    assert.deepEqual(
      doc.headers.filter((h) => h.inArray).map((h) => h.path.join('.')),
      ['products', 'products', 'products'],
    );
  });
});

/** Every leaf path of a parsed document that does not pass through an array. */
function leafPaths(value: unknown, prefix: string[] = []): string[][] {
  if (typeof value !== 'object' || value === null || Array.isArray(value) || value instanceof Date) return [prefix];
  const entries = Object.entries(value);
  if (entries.length === 0) return [prefix];
  return entries.flatMap(([k, v]) => leafPaths(v, [...prefix, k]));
}

describe('every key of a document using every form', () => {
  const paths = leafPaths(parse(EVERY_FORM)).filter((p) => p[0] !== 'products');
  it('has many keys to edit', () => assert.ok(paths.length > 35, String(paths.length)));
  it('each can be set (the editor checks the data of each result)', () => {
    for (const path of paths) {
      const result = setValue(EVERY_FORM, path, 'X');
      assert.notEqual(result, EVERY_FORM, path.join('.'));
      assert.equal(setValue(result, path, 'X'), result);
    }
  });
  it('each can be removed', () => {
    for (const path of paths) assert.notEqual(removeKey(EVERY_FORM, path), EVERY_FORM, path.join('.'));
  });
  it('each can be renamed', () => {
    for (const path of paths) {
      const to = [...path.slice(0, -1), `${path[path.length - 1] ?? ''}_renamed`];
      assert.notEqual(renameKey(EVERY_FORM, path, to), EVERY_FORM, path.join('.'));
    }
  });
  it('each can get a new sibling', () => {
    for (const path of paths) setValue(EVERY_FORM, [...path.slice(0, -1), 'new_sibling_key'], 1);
  });
  it('keys inside arrays of tables are refused, not guessed', () => {
    assert.throws(() => setValue(EVERY_FORM, ['products', 'name'], 'x'), TomlEditError);
  });
});
