// discern.toml parsing: accepted forms, and where each kind of problem is reported.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { parseConfig } from '../../src/engine/config/validate.js';
import { configuredJobs } from '../../src/engine/config/jobs.js';
import { compiledScopes } from '../../src/engine/config/scopes.js';
import { locateKey } from '../../src/engine/config/locate.js';

const parse = (text: string) => parseConfig(new TextEncoder().encode(text));

describe('parseConfig', () => {
  it('accepts every job form and normalises them', () => {
    const result = parse(
      `[jobs]\nformat = "prettier --write ."\nlint = ["eslint .", ":"]\ntest = { run = "npm test" }\n\n[jobs.e2e]\nstage = "test"\nrun = ["a", ""]\n`,
    );
    assert.ok(result.ok, JSON.stringify(result));
    assert.deepEqual(configuredJobs(result.config), [
      { name: 'format', stage: 'fix', commands: ['prettier --write .'] },
      { name: 'lint', stage: 'check', commands: ['eslint .'] },
      { name: 'test', stage: 'test', commands: ['npm test'] },
      { name: 'e2e', stage: 'test', commands: ['a'] },
    ]);
  });
  it('accepts an empty file', () => assert.equal(parse('').ok, true));
  const cases: { name: string; text: string; error: string; path?: string; line?: number }[] = [
    { name: 'syntax error', text: 'a = \n', error: 'invalid_toml', line: 1 },
    { name: 'duplicate key', text: '[project]\nname = "a"\nname = "b"\n', error: 'invalid_toml', line: 3 },
    { name: 'unknown section', text: '[desk]\nroot = "x"\n', error: 'unknown_key', path: 'desk', line: 1 },
    {
      name: 'unknown key in [gate]',
      text: '[gate]\nverbose = true\n',
      error: 'unknown_key',
      path: 'gate.verbose',
      line: 2,
    },
    {
      name: 'negative timeout',
      text: '[gate]\ntimeout = -1\n',
      error: 'invalid_config',
      path: 'gate.timeout',
      line: 2,
    },
    {
      name: 'standard without a limit',
      text: '[standards.cov]\ndirection = "up"\nrun = "x"\n',
      error: 'invalid_config',
      path: 'standards.cov',
      line: 1,
    },
    {
      name: 'generator without paths',
      text: '[generated.types]\nrun = "x"\n',
      error: 'invalid_config',
      path: 'generated.types',
      line: 1,
    },
    {
      name: 'unknown key in a known section',
      text: '[project]\nname = "a"\nlogbok = true\n',
      error: 'unknown_key',
      path: 'project.logbok',
      line: 3,
    },
    {
      name: 'dotted key at top level',
      text: 'project.nmae = "a"\n',
      error: 'unknown_key',
      path: 'project.nmae',
      line: 1,
    },
    {
      name: 'custom job without stage',
      text: '[jobs.e2e]\nrun = "x"\n',
      error: 'invalid_config',
      path: 'jobs.e2e',
      line: 1,
    },
    {
      name: 'bad stage',
      text: '[jobs.e2e]\nstage = "deploy"\nrun = "x"\n',
      error: 'invalid_config',
      path: 'jobs.e2e.stage',
      line: 2,
    },
    { name: 'bad job name', text: '[jobs]\n"my job" = "x"\n', error: 'invalid_config' },
    { name: 'not UTF-8', text: '', error: 'invalid_toml' },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const result =
        c.name === 'not UTF-8' ? parseConfig(new Uint8Array([0x61, 0x3d, 0x22, 0xff, 0x22])) : parse(c.text);
      assert.equal(result.ok, false);
      if (result.ok) return;
      assert.equal(result.error, c.error, result.message);
      if (c.path) assert.equal(result.issues[0]?.path, c.path);
      if (c.line) assert.equal(result.issues[0]?.line, c.line, JSON.stringify(result.issues));
    });
  }
});

describe('locateKey', () => {
  const text =
    '# comment\n[project]\nname = "a" # trailing\n\n[jobs.e2e]\nstage = "test"\n[jobs]\ntest = { run = "x", timeout = 9 }\n';
  const cases: [string[], { line: number; column: number } | undefined][] = [
    [['project'], { line: 2, column: 1 }],
    [['project', 'name'], { line: 3, column: 1 }],
    [['jobs', 'e2e', 'stage'], { line: 6, column: 1 }],
    [['jobs', 'test', 'timeout'], { line: 8, column: 21 }],
    [['missing'], undefined],
  ];
  for (const [path, want] of cases) it(path.join('.'), () => assert.deepEqual(locateKey(text, path), want));
});

describe('compiledScopes', () => {
  it('names each bad pattern by its own index, also when the same one is written twice', () => {
    const result = parse('[scopes.docs]\npaths = ["docs/", "*.md", "docs/"]\n');
    assert.ok(result.ok, JSON.stringify(result));
    assert.deepEqual(
      compiledScopes(result.config).issues.map((i) => i.path),
      ['scopes.docs.paths.0', 'scopes.docs.paths.2'],
    );
  });
});

describe('[map] dir', () => {
  const refused = [
    '.',
    './',
    './/',
    './.',
    '.git',
    '.git/',
    './.git',
    'docs/.git',
    'docs/.git/map',
    '.GIT/map',
    '../up',
    'a/../b',
    '/abs',
    'C:/x',
    'a\\b',
  ];
  for (const dir of refused) {
    it(`refuses ${JSON.stringify(dir)}`, () => {
      const result = parse(`[map]\ndir = ${JSON.stringify(dir)}\n`);
      assert.equal(result.ok, false, dir);
      if (result.ok) return;
      assert.equal(result.error, 'invalid_config');
      assert.equal(result.issues[0]?.path, 'map.dir');
    });
  }
  const accepted = [
    'discern/map/',
    './discern/map',
    'knowledge',
    '.discern/map',
    'docs/.github',
    'a.git',
    '.gitmap/x',
    '...',
  ];
  for (const dir of accepted)
    it(`accepts ${JSON.stringify(dir)}`, () =>
      assert.equal(parse(`[map]\ndir = ${JSON.stringify(dir)}\n`).ok, true, dir));
});

describe('a TOML date or time where discern.toml takes text', () => {
  for (const [name, value, key] of [
    ['a date-time as a job command', 'test = 1979-05-27T07:32:00Z', 'jobs.test'],
    ['a local time in a command list', 'test = ["echo", 07:32:00]', 'jobs.test.1'],
    ['a date as a table job run', 'test = { run = 1979-05-27 }', 'jobs.test.run'],
  ] as const) {
    it(`${name} is invalid_config at the key, never a command to run`, () => {
      const loaded = parseConfig(new TextEncoder().encode(`[project]\nname = "d"\n\n[jobs]\n${value}\n`));
      assert.equal(loaded.ok, false);
      if (loaded.ok) return;
      assert.equal(loaded.error, 'invalid_config');
      assert.equal(loaded.issues[0]?.path, key);
      assert.equal(loaded.issues[0]?.line, 5);
      assert.match(loaded.message, /date or time/);
    });
  }
});
