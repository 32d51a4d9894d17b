// The TOML editor, table-tested: each case is an input text, one edit, and the exact expected text. Beyond the
// exact text, every result must parse (smol-toml) to the input's data with exactly that one change.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { parse } from 'smol-toml';
import {
  getValue,
  removeKey,
  renameKey,
  setTable,
  setValue,
  TomlEditError,
  type TomlValue,
} from '../../../src/engine/toml-edit/index.js';

const L = (...lines: string[]): string => lines.join('\n');

type Edit =
  | { set: string[]; value: TomlValue }
  | { remove: string[] }
  | { rename: string[]; to: string[] }
  | { table: string[]; entries: Record<string, TomlValue> };

interface Case {
  name: string;
  input: string;
  edit: Edit;
  expected: string;
}

const COMMENTED = L(
  '# discern.toml for the example project',
  '',
  '[project]',
  'name = "Example"  # shown in status',
  '',
  '# How the gate runs',
  '[gate]',
  'timeout = 600',
  '# fail_fast = false',
  '',
  '[jobs]',
  '# the linter',
  'lint = "eslint ."',
  'test = { run = "npm test", timeout = 90 }  # slow',
  '',
  '[jobs.e2e]',
  'stage = "test"',
  'run = ["npm run e2e"]',
  '',
  '[scopes.docs]',
  'paths = ["docs/**", "*.md"]',
  'neutral = true',
  '',
);

const cases: Case[] = [
  // ——— replacing values in place ———
  {
    name: 'replaces a string, keeping the comment after it',
    input: COMMENTED,
    edit: { set: ['project', 'name'], value: 'Renamed' },
    expected: COMMENTED.replace('name = "Example"  #', 'name = "Renamed"  #'),
  },
  {
    name: 'replaces an integer',
    input: COMMENTED,
    edit: { set: ['gate', 'timeout'], value: 30 },
    expected: COMMENTED.replace('timeout = 600', 'timeout = 30'),
  },
  {
    name: 'replaces an array with a string',
    input: COMMENTED,
    edit: { set: ['jobs', 'e2e', 'run'], value: 'npm run e2e -- --ci' },
    expected: COMMENTED.replace('run = ["npm run e2e"]', 'run = "npm run e2e -- --ci"'),
  },
  {
    name: 'replaces a value inside an inline table',
    input: COMMENTED,
    edit: { set: ['jobs', 'test', 'timeout'], value: 120 },
    expected: COMMENTED.replace('timeout = 90 }', 'timeout = 120 }'),
  },
  {
    name: 'replaces a boolean',
    input: COMMENTED,
    edit: { set: ['scopes', 'docs', 'neutral'], value: false },
    expected: COMMENTED.replace('neutral = true', 'neutral = false'),
  },
  {
    name: 'keeps odd spacing around =',
    input: 'a   =    1   # one\n',
    edit: { set: ['a'], value: 2 },
    expected: 'a   =    2   # one\n',
  },
  {
    name: 'keeps indentation',
    input: '[t]\n    a = 1\n    b = 2\n',
    edit: { set: ['t', 'a'], value: 'x' },
    expected: '[t]\n    a = "x"\n    b = 2\n',
  },
  {
    name: 'replaces a multi-line array with comments inside',
    input: L('[scopes.src]', 'paths = [', '  "src/**",  # sources', '  "lib/**",', ']  # end', 'neutral = false', ''),
    edit: { set: ['scopes', 'src', 'paths'], value: ['app/**'] },
    expected: L('[scopes.src]', 'paths = ["app/**"]  # end', 'neutral = false', ''),
  },
  {
    name: 'replaces a multi-line basic string',
    input: L('a = """', 'one', 'two"""', 'b = 1', ''),
    edit: { set: ['a'], value: 'x' },
    expected: L('a = "x"', 'b = 1', ''),
  },
  {
    name: 'replaces a literal string',
    input: "path = 'C:\\dir'\n",
    edit: { set: ['path'], value: 'D:\\dir' },
    expected: 'path = "D:\\\\dir"\n',
  },
  {
    name: 'replaces a date',
    input: 'when = 1979-05-27 07:32:00 # local\n',
    edit: { set: ['when'], value: 'later' },
    expected: 'when = "later" # local\n',
  },
  {
    name: 'replaces a key written dotted',
    input: '[jobs]\nlint.run = "a"\nlint.timeout = 5\n',
    edit: { set: ['jobs', 'lint', 'timeout'], value: 9 },
    expected: '[jobs]\nlint.run = "a"\nlint.timeout = 9\n',
  },
  {
    name: 'replaces a quoted key',
    input: '[scopes]\n"my docs" = { paths = ["d/**"] }\n',
    edit: { set: ['scopes', 'my docs', 'paths'], value: ['e/**'] },
    expected: '[scopes]\n"my docs" = { paths = ["e/**"] }\n',
  },
  {
    name: "replaces a 'literal' quoted key",
    input: "[t]\n'a.b' = 1\n",
    edit: { set: ['t', 'a.b'], value: 2 },
    expected: "[t]\n'a.b' = 2\n",
  },
  {
    name: 'replaces a key in a table defined later',
    input: L('[b]', 'x = 1', '', '[a]', 'y = 2', '', '[b.c]', 'z = 3', ''),
    edit: { set: ['b', 'c', 'z'], value: 4 },
    expected: L('[b]', 'x = 1', '', '[a]', 'y = 2', '', '[b.c]', 'z = 4', ''),
  },
  {
    name: 'replaces in a super-table defined after its sub-table',
    input: L('[a.b]', 'x = 1', '[a]', 'y = 2', ''),
    edit: { set: ['a', 'y'], value: 3 },
    expected: L('[a.b]', 'x = 1', '[a]', 'y = 3', ''),
  },
  {
    name: 'writes Unicode as is',
    input: 'name = "x" # ünïcödé\n',
    edit: { set: ['name'], value: 'Ärger 🚀' },
    expected: 'name = "Ärger 🚀" # ünïcödé\n',
  },
  {
    name: 'escapes quotes, backslashes and control characters',
    input: 'a = 1\n',
    edit: { set: ['a'], value: 'say "hi"\\\n\t\u0001' },
    expected: 'a = "say \\"hi\\"\\\\\\n\\t\\u0001"\n',
  },
  {
    name: 'keeps CRLF line endings',
    input: 'a = 1\r\n# c\r\nb = 2\r\n',
    edit: { set: ['b'], value: 3 },
    expected: 'a = 1\r\n# c\r\nb = 3\r\n',
  },
  {
    name: 'keeps a file without a final newline',
    input: 'a = 1\nb = 2',
    edit: { set: ['b'], value: 3 },
    expected: 'a = 1\nb = 3',
  },
  {
    name: 'replaces a whitespace-padded header table key',
    input: '[ jobs . e2e ]\nrun = "a"\n',
    edit: { set: ['jobs', 'e2e', 'run'], value: 'b' },
    expected: '[ jobs . e2e ]\nrun = "b"\n',
  },
  {
    name: 'writes an inline table value',
    input: '[jobs]\ntest = "npm test"\n',
    edit: { set: ['jobs', 'test'], value: { run: 'npm test', timeout: 5 } },
    expected: '[jobs]\ntest = { run = "npm test", timeout = 5 }\n',
  },
  {
    name: 'keeps a byte-order mark',
    input: '\uFEFFa = 1\n',
    edit: { set: ['b'], value: 2 },
    expected: '\uFEFFa = 1\nb = 2\n',
  },
  {
    name: 'writes floats and special floats',
    input: 'a = 1\nb = 2\n',
    edit: { set: ['a'], value: 0.5 },
    expected: 'a = 0.5\nb = 2\n',
  },
  {
    name: 'writes nested arrays and tables',
    input: 'a = 1\n',
    edit: { set: ['a'], value: [[1, 2], { 'k k': true }] },
    expected: 'a = [[1, 2], { "k k" = true }]\n',
  },

  // ——— inserting keys ———
  {
    name: 'inserts at the end of its table’s keys, before the blank line',
    input: COMMENTED,
    edit: { set: ['project', 'slug'], value: 'ex' },
    expected: COMMENTED.replace('# shown in status\n', '# shown in status\nslug = "ex"\n'),
  },
  {
    name: 'inserts after the last key, not after a trailing comment',
    input: COMMENTED,
    edit: { set: ['gate', 'fail_fast'], value: false },
    expected: COMMENTED.replace('timeout = 600\n', 'timeout = 600\nfail_fast = false\n'),
  },
  {
    name: 'inserts into an inline table',
    input: COMMENTED,
    edit: { set: ['jobs', 'test', 'stage'], value: 'test' },
    expected: COMMENTED.replace('timeout = 90 }', 'timeout = 90, stage = "test" }'),
  },
  {
    name: 'inserts into an empty inline table',
    input: 'a = {}\n',
    edit: { set: ['a', 'b'], value: 1 },
    expected: 'a = { b = 1 }\n',
  },
  {
    name: 'inserts in dotted form inside an existing parent',
    input: COMMENTED,
    edit: { set: ['jobs', 'smoke', 'run'], value: 'npm run smoke' },
    expected: COMMENTED.replace('# slow\n', '# slow\nsmoke.run = "npm run smoke"\n'),
  },
  {
    name: 'inserts beside its dotted siblings',
    input: '[jobs]\nlint.run = "a"\ntest = "t"\n',
    edit: { set: ['jobs', 'lint', 'timeout'], value: 5 },
    expected: '[jobs]\nlint.run = "a"\nlint.timeout = 5\ntest = "t"\n',
  },
  {
    name: 'creates a [table] at the end of the file',
    input: COMMENTED,
    edit: { set: ['repository', 'trunk'], value: 'main' },
    expected: `${COMMENTED}\n[repository]\ntrunk = "main"\n`,
  },
  {
    name: 'creates a [table] after the last table of its section',
    input: COMMENTED,
    edit: { set: ['jobs', 'format', 'run'], value: 'prettier' },
    expected: COMMENTED.replace('# slow\n', '# slow\nformat.run = "prettier"\n'),
  },
  {
    name: 'creates a sibling table after its section',
    input: COMMENTED,
    edit: { set: ['scopes', 'src', 'paths'], value: ['src/**'] },
    expected: `${COMMENTED}\n[scopes.src]\npaths = ["src/**"]\n`,
  },
  {
    name: 'creates a sibling table in the middle of the file',
    input: L('[scopes.docs]', 'paths = ["d"]', '# trailing note', '', '# about gate', '[gate]', 'timeout = 1', ''),
    edit: { set: ['scopes', 'src', 'paths'], value: ['s'] },
    expected: L(
      '[scopes.docs]',
      'paths = ["d"]',
      '# trailing note',
      '',
      '[scopes.src]',
      'paths = ["s"]',
      '',
      '# about gate',
      '[gate]',
      'timeout = 1',
      '',
    ),
  },
  {
    name: 'creates a super-table before its sub-tables',
    input: L('# e2e', '[jobs.e2e]', 'stage = "test"', 'run = "x"', ''),
    edit: { set: ['jobs', 'lint'], value: 'eslint' },
    expected: L('[jobs]', 'lint = "eslint"', '', '# e2e', '[jobs.e2e]', 'stage = "test"', 'run = "x"', ''),
  },
  {
    name: 'creates a table in an empty file',
    input: '',
    edit: { set: ['project', 'name'], value: 'x' },
    expected: '[project]\nname = "x"\n',
  },
  {
    name: 'creates a table after a file without a final newline',
    input: '[a]\nb = 1',
    edit: { set: ['c', 'd'], value: 2 },
    expected: '[a]\nb = 1\n\n[c]\nd = 2',
  },
  {
    name: 'creates a table in a CRLF file',
    input: '[a]\r\nb = 1\r\n',
    edit: { set: ['c', 'd'], value: 2 },
    expected: '[a]\r\nb = 1\r\n\r\n[c]\r\nd = 2\r\n',
  },
  {
    name: 'inserts a root key before the first table',
    input: '# top\n\n[a]\nb = 1\n',
    edit: { set: ['x'], value: 1 },
    expected: '# top\n\nx = 1\n\n[a]\nb = 1\n',
  },
  {
    name: 'inserts a root key after the root keys',
    input: 'x = 1\n\n[a]\nb = 1\n',
    edit: { set: ['y'], value: 2 },
    expected: 'x = 1\ny = 2\n\n[a]\nb = 1\n',
  },
  {
    name: 'inserts under a header with no keys',
    input: '[a]\n\n[b]\nc = 1\n',
    edit: { set: ['a', 'k'], value: 'v' },
    expected: '[a]\nk = "v"\n\n[b]\nc = 1\n',
  },
  {
    name: 'inserts into a table defined later',
    input: L('[b]', 'x = 1', '', '[a]', 'y = 2', '', '[b.c]', 'z = 3', ''),
    edit: { set: ['b', 'c', 'w'], value: 4 },
    expected: L('[b]', 'x = 1', '', '[a]', 'y = 2', '', '[b.c]', 'z = 3', 'w = 4', ''),
  },
  {
    name: 'inserts with the indentation of its neighbours',
    input: '[t]\n  a = 1\n',
    edit: { set: ['t', 'b'], value: 2 },
    expected: '[t]\n  a = 1\n  b = 2\n',
  },
  {
    name: 'inserts a quoted key',
    input: '[scopes]\n',
    edit: { set: ['scopes', 'my docs', 'paths'], value: ['d'] },
    expected: '[scopes]\n"my docs".paths = ["d"]\n',
  },
  {
    name: 'inserts after an entry with a multi-line value',
    input: 'a = [\n  1,\n  2,\n]\n\n[t]\n',
    edit: { set: ['b'], value: 3 },
    expected: 'a = [\n  1,\n  2,\n]\nb = 3\n\n[t]\n',
  },
  {
    name: 'inserts beside an array of tables, not into it',
    input: '[[plugins]]\nname = "a"\n\n[x]\ny = 1\n',
    edit: { set: ['x', 'z'], value: 2 },
    expected: '[[plugins]]\nname = "a"\n\n[x]\ny = 1\nz = 2\n',
  },
  {
    name: 'inserts a Unicode key',
    input: '[t]\n',
    edit: { set: ['t', 'ключ'], value: 'значение' },
    expected: '[t]\n"ключ" = "значение"\n',
  },

  // ——— removing ———
  {
    name: 'removes a key, keeping the comment above it',
    input: COMMENTED,
    edit: { remove: ['jobs', 'lint'] },
    expected: COMMENTED.replace('lint = "eslint ."\n', ''),
  },
  {
    name: 'removes a key with its trailing comment',
    input: COMMENTED,
    edit: { remove: ['jobs', 'test'] },
    expected: COMMENTED.replace('test = { run = "npm test", timeout = 90 }  # slow\n', ''),
  },
  {
    name: 'removes a key from the middle of an inline table',
    input: 'a = { x = 1, y = 2, z = 3 }\n',
    edit: { remove: ['a', 'y'] },
    expected: 'a = { x = 1, z = 3 }\n',
  },
  {
    name: 'removes the last key of an inline table',
    input: 'a = { x = 1, y = 2 }\n',
    edit: { remove: ['a', 'y'] },
    expected: 'a = { x = 1 }\n',
  },
  {
    name: 'removes the only key of an inline table',
    input: 'a = { x = 1 }\n',
    edit: { remove: ['a', 'x'] },
    expected: 'a = {}\n',
  },
  {
    name: 'removes a whole table with its comment and sub-tables',
    input: COMMENTED,
    edit: { remove: ['jobs'] },
    expected: COMMENTED.replace(
      '[jobs]\n# the linter\nlint = "eslint ."\ntest = { run = "npm test", timeout = 90 }  # slow\n\n[jobs.e2e]\nstage = "test"\nrun = ["npm run e2e"]\n\n',
      '',
    ),
  },
  {
    name: 'removes a table and its attached comment',
    input: COMMENTED,
    edit: { remove: ['gate'] },
    expected: COMMENTED.replace('# How the gate runs\n[gate]\ntimeout = 600\n# fail_fast = false\n\n', ''),
  },
  {
    name: 'removes the last table, leaving one final newline',
    input: COMMENTED,
    edit: { remove: ['scopes', 'docs'] },
    expected: COMMENTED.replace('\n[scopes.docs]\npaths = ["docs/**", "*.md"]\nneutral = true\n', ''),
  },
  {
    name: 'removes a table defined by dotted keys',
    input: '[jobs]\nlint.run = "a"\nlint.timeout = 5\ntest = "t"\n',
    edit: { remove: ['jobs', 'lint'] },
    expected: '[jobs]\ntest = "t"\n',
  },
  {
    name: 'removes a multi-line value',
    input: 'a = [\n  1, # one\n]\nb = 2\n',
    edit: { remove: ['a'] },
    expected: 'b = 2\n',
  },
  {
    name: 'removes in a CRLF file',
    input: 'a = 1\r\n\r\n[t]\r\nb = 2\r\n\r\n[u]\r\nc = 3\r\n',
    edit: { remove: ['t'] },
    expected: 'a = 1\r\n\r\n[u]\r\nc = 3\r\n',
  },
  {
    name: 'removing a key that is not set changes nothing',
    input: COMMENTED,
    edit: { remove: ['jobs', 'nosuch'] },
    expected: COMMENTED,
  },

  // ——— renaming ———
  {
    name: 'renames a key in place',
    input: COMMENTED,
    edit: { rename: ['jobs', 'lint'], to: ['jobs', 'check'] },
    expected: COMMENTED.replace('lint = "eslint ."', 'check = "eslint ."'),
  },
  {
    name: 'renames a key into another table with its comments',
    input: COMMENTED,
    edit: { rename: ['jobs', 'test'], to: ['gate', 'tests'] },
    expected: COMMENTED.replace(
      'timeout = 600\n',
      'timeout = 600\ntests = { run = "npm test", timeout = 90 }  # slow\n',
    ).replace('test = { run = "npm test", timeout = 90 }  # slow\n', ''),
  },
  {
    name: 'moves the comment lines directly above a key',
    input: '[a]\n# about x\nx = 1 # one\n\n[b]\ny = 2\n',
    edit: { rename: ['a', 'x'], to: ['b', 'x'] },
    expected: '[a]\n\n[b]\ny = 2\n# about x\nx = 1 # one\n',
  },
  {
    name: 'renames a table header and its sub-tables',
    input: '[old]\na = 1 # keep\n\n[old.sub]\nb = 2\n',
    edit: { rename: ['old'], to: ['new'] },
    expected: '[new]\na = 1 # keep\n\n[new.sub]\nb = 2\n',
  },
  {
    name: 'renames a key inside an inline table',
    input: 'a = { x = 1, y = 2 }\n',
    edit: { rename: ['a', 'x'], to: ['a', 'w'] },
    expected: 'a = { w = 1, y = 2 }\n',
  },
  {
    name: 'renaming a key that is not set changes nothing',
    input: COMMENTED,
    edit: { rename: ['nosuch'], to: ['other'] },
    expected: COMMENTED,
  },
  {
    name: 'renames a dotted key',
    input: '[jobs]\nlint.run = "a"\n',
    edit: { rename: ['jobs', 'lint', 'run'], to: ['jobs', 'lint', 'cmd'] },
    expected: '[jobs]\nlint.cmd = "a"\n',
  },
  {
    name: 'renames a root key into a new table',
    input: 'old_trunk = "main" # the trunk\n\n[project]\nname = "x"\n',
    edit: { rename: ['old_trunk'], to: ['repository', 'trunk'] },
    expected: '[project]\nname = "x"\n\n[repository]\ntrunk = "main" # the trunk\n',
  },

  // ——— whole tables ———
  {
    name: 'writes a new table after its section',
    input: COMMENTED,
    edit: { table: ['jobs', 'smoke'], entries: { run: 'npm run smoke', timeout: 30 } },
    expected: COMMENTED.replace(
      'run = ["npm run e2e"]\n',
      'run = ["npm run e2e"]\n\n[jobs.smoke]\nrun = "npm run smoke"\ntimeout = 30\n',
    ),
  },
  {
    name: 'rewrites an existing table key by key',
    input: COMMENTED,
    edit: { table: ['jobs', 'e2e'], entries: { stage: 'check', run: ['npm run e2e'], timeout: 60 } },
    expected: COMMENTED.replace(
      'stage = "test"\nrun = ["npm run e2e"]\n',
      'stage = "check"\nrun = ["npm run e2e"]\ntimeout = 60\n',
    ),
  },
  {
    name: 'drops keys the new table does not have',
    input: COMMENTED,
    edit: { table: ['scopes', 'docs'], entries: { paths: ['docs/**', '*.md'] } },
    expected: COMMENTED.replace('neutral = true\n', ''),
  },
  {
    name: 'rewrites an inline table in place',
    input: COMMENTED,
    edit: { table: ['jobs', 'test'], entries: { run: 'npm test', timeout: 120 } },
    expected: COMMENTED.replace('timeout = 90 }', 'timeout = 120 }'),
  },
  {
    name: 'turns a string job into an inline table',
    input: COMMENTED,
    edit: { table: ['jobs', 'lint'], entries: { run: 'eslint .', timeout: 20 } },
    expected: COMMENTED.replace('lint = "eslint ."', 'lint = { run = "eslint .", timeout = 20 }'),
  },
  {
    name: 'writes a new table in an empty file',
    input: '',
    edit: { table: ['standards', 'coverage'], entries: { direction: 'up', limit: 80, run: 'npm run cov' } },
    expected: '[standards.coverage]\ndirection = "up"\nlimit = 80\nrun = "npm run cov"\n',
  },
  {
    name: 'an unchanged table is byte-identical',
    input: COMMENTED,
    edit: { table: ['jobs', 'e2e'], entries: { stage: 'test', run: ['npm run e2e'] } },
    expected: COMMENTED,
  },
  { name: 'writes an empty table', input: 'a = 1\n', edit: { table: ['t'], entries: {} }, expected: 'a = 1\n\n[t]\n' },
  {
    name: 'replaces a table with a value',
    input: '[jobs.test]\nrun = "x"\n\n[gate]\ntimeout = 1\n',
    edit: { set: ['jobs', 'test'], value: 'npm test' },
    expected: '[gate]\ntimeout = 1\n\n[jobs]\ntest = "npm test"\n',
  },
];

function apply(text: string, edit: Edit): string {
  if ('set' in edit) return setValue(text, edit.set, edit.value);
  if ('remove' in edit) return removeKey(text, edit.remove);
  if ('rename' in edit) return renameKey(text, edit.rename, edit.to);
  return setTable(text, edit.table, edit.entries);
}

function plain(value: unknown): unknown {
  return JSON.parse(JSON.stringify(value)) as unknown;
}

function expectedTree(text: string, edit: Edit): unknown {
  const tree = plain(parse(text)) as Record<string, unknown>;
  const at = (path: string[]): { parent: Record<string, unknown>; key: string } => {
    let t = tree;
    for (const k of path.slice(0, -1)) t = (t[k] ??= {}) as Record<string, unknown>;
    return { parent: t, key: path[path.length - 1] ?? '' };
  };
  if ('set' in edit) {
    const { parent, key } = at(edit.set);
    parent[key] = plain(edit.value);
  } else if ('remove' in edit) {
    const { parent, key } = at(edit.remove);
    delete parent[key];
  } else if ('rename' in edit) {
    const { parent, key } = at(edit.rename);
    const value = parent[key];
    if (value !== undefined) {
      delete parent[key];
      const target = at(edit.to);
      target.parent[target.key] = value;
    }
  } else {
    const { parent, key } = at(edit.table);
    parent[key] = plain(edit.entries);
  }
  return prune(tree);
}

/** Tables left empty by a removal disappear with the keys that defined them. */
function prune(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(prune);
  if (typeof value === 'object' && value !== null) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      const p = prune(v);
      if (typeof p === 'object' && p !== null && !Array.isArray(p) && Object.keys(p).length === 0) continue;
      out[k] = p;
    }
    return out;
  }
  return value;
}

describe('TOML editor', () => {
  for (const c of cases) {
    it(c.name, () => {
      const result = apply(c.input, c.edit);
      assert.equal(result, c.expected);
      assert.deepEqual(prune(plain(parse(result))), expectedTree(c.input, c.edit));
    });
  }
});

describe('TOML editor: whole-file invariants', () => {
  it('an edit is idempotent', () => {
    for (const c of cases) {
      if ('rename' in c.edit) continue;
      const once = apply(c.input, c.edit);
      assert.equal(apply(once, c.edit), once, c.name);
    }
  });
  it('bytes before and after the edited line are identical', () => {
    const result = setValue(COMMENTED, ['jobs', 'e2e', 'stage'], 'check');
    const at = COMMENTED.indexOf('stage = "test"');
    assert.equal(result.slice(0, at), COMMENTED.slice(0, at));
    assert.equal(result.slice(at + 'stage = "check"'.length), COMMENTED.slice(at + 'stage = "test"'.length));
  });
});

describe('getValue', () => {
  it('returns plain values and tables', () => {
    assert.equal(getValue(COMMENTED, ['project', 'name']), 'Example');
    assert.deepEqual(getValue(COMMENTED, ['jobs', 'test']), { run: 'npm test', timeout: 90 });
    assert.equal(Object.getPrototypeOf(getValue(COMMENTED, ['jobs'])), Object.prototype);
    assert.equal(getValue(COMMENTED, ['jobs', 'nosuch']), undefined);
    assert.equal(getValue(COMMENTED, ['project', 'name', 'deeper']), undefined);
  });
  it('returns dates as their TOML text', () => assert.equal(getValue('d = 1979-05-27\n', ['d']), '1979-05-27'));
});

describe('TOML editor refusals', () => {
  const refusals: { name: string; run: () => unknown; match: RegExp; line?: number }[] = [
    {
      name: 'unparseable input, with its line and column',
      run: () => setValue('a = 1\nb = = 2\n', ['a'], 2),
      match: /not valid TOML/,
      line: 2,
    },
    { name: 'getValue of unparseable input', run: () => getValue('[a\n', ['a']), match: /not valid TOML/, line: 1 },
    {
      name: 'a key under a value that is not a table',
      run: () => setValue('a = "x"\n', ['a', 'b'], 1),
      match: /`a` is a string, not a table/,
    },
    { name: 'a key inside an array of tables', run: () => setValue('[[p]]\nn = 1\n', ['p', 'n'], 2), match: /array/ },
    {
      name: 'a value TOML cannot hold',
      run: () => setValue('a = 1\n', ['a'], null as unknown as TomlValue),
      match: /cannot be written/,
    },
    { name: 'an empty path', run: () => setValue('a = 1\n', [], 1), match: /empty key path/ },
    {
      name: 'renaming onto a key that is set',
      run: () => renameKey('a = 1\nb = 2\n', ['a'], ['b']),
      match: /is set already/,
    },
    {
      name: 'a key in an inline table whose parent is a header',
      run: () => setValue('a = { b = 1 }\n[a.c]\n', ['a', 'd'], 1),
      match: /not valid TOML/,
    },
  ];
  for (const r of refusals) {
    it(r.name, () => {
      assert.throws(r.run, (error: unknown) => {
        assert.ok(error instanceof TomlEditError, String(error));
        assert.match(error.message, r.match);
        if (r.line !== undefined) assert.equal(error.line, r.line);
        return true;
      });
    });
  }
});
