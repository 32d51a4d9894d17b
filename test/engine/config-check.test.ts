// Checking a discern.toml text as validate-config does: every schema problem at once (with anyOf noise
// folded), the semantic problems the schema cannot see, and loading (parseConfig) unchanged by either.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { parseConfig, schemaIssues } from '../../src/engine/config/validate.js';
import { checkConfigText, keysOf } from '../../src/engine/config/check.js';
import { dotted } from '../../src/engine/config/load-result.js';
import { decodeToml } from '../../src/engine/config/toml.js';
import { scratchRepo } from '../helpers/scratch-repo.js';

const bytes = (text: string): Uint8Array => new TextEncoder().encode(text);

function issuesOf(text: string): string[] {
  const decoded = decodeToml(bytes(text), 'discern.toml');
  assert.ok(decoded.ok);
  return schemaIssues(decoded.value, decoded.text, 'discern.toml').map(
    (i) => `${i.line ?? '-'}:${i.column ?? '-'} ${i.kind} ${i.path} ${i.message}`,
  );
}

describe('schemaIssues: every problem, once, in file order', () => {
  it('reports each unknown key and each wrong value, however many', () => {
    const text = [
      '[project]',
      'agents = ["claude"]',
      '[repository]',
      'default_branch = "main"',
      '[jobs]',
      'test = 5',
      'lint = { run = "x", foo = 1 }',
      'build = { timeout = 5 }',
      'format = ["a", 5]',
      'custom = "echo"',
      'other = { stage = "lint", run = "x" }',
      '[gate]',
      'timeout = "600"',
      '[scopes.docs]',
      'paths = []',
      'neutral = "yes"',
      '[worktree.resources.db]',
      'destroy = "x"',
      '',
    ].join('\n');
    assert.deepEqual(issuesOf(text), [
      '2:1 invalid_config project.agents.0 must be one of "claude_code", "codex", "gemini", "cursor", "copilot"',
      '4:1 unknown_key repository.default_branch is not a key discern honours',
      '6:1 invalid_config jobs.test must be a string, an array or a table',
      '7:21 unknown_key jobs.lint.foo is not a key discern honours',
      '8:1 invalid_config jobs.build needs `run`',
      '9:1 invalid_config jobs.format.1 must be a string',
      '10:1 invalid_config jobs.custom must be a table',
      '11:11 invalid_config jobs.other.stage must be one of "fix", "build", "check", "test"',
      '13:1 invalid_config gate.timeout must be an integer',
      '15:1 invalid_config scopes.docs.paths needs at least 1 entry',
      '16:1 invalid_config scopes.docs.neutral must be true or false',
      '17:1 invalid_config worktree.resources.db needs `create`',
    ]);
  });
  it('is empty for a valid text', () => assert.deepEqual(issuesOf('[jobs]\ntest = "npm test"\n'), []));
  it('leaves what loading reports as it was: every unknown key, else the most specific error', () => {
    const both = parseConfig(bytes('[gate]\ntimeout = "x"\nverbose = true\n[repository]\nbogus = 1\n'));
    assert.ok(!both.ok);
    assert.equal(both.error, 'unknown_key');
    assert.deepEqual(
      both.issues.map((i) => i.path),
      ['gate.verbose', 'repository.bogus'],
    );
    const typed = parseConfig(bytes('[gate]\ntimeout = "x"\nfail_fast = 3\n'));
    assert.ok(!typed.ok);
    assert.equal(typed.error, 'invalid_config');
    assert.equal(typed.issues.length, 1);
  });
});

describe('checkConfigText', () => {
  it('reports a TOML syntax error alone, with its line and column, and skips the rest', async () => {
    const check = await checkConfigText(bytes('[jobs]\ntest = \n'), { displayName: 'inline TOML', env: process.env });
    assert.equal(check.slug, 'invalid_toml');
    assert.equal(check.errors[0]?.line, 2);
    assert.deepEqual(
      check.checks.map((c) => `${c.name}:${c.status}`),
      ['syntax:fail', 'schema:skipped', 'globs:skipped', 'pre_authorized:skipped', 'trunk:skipped', 'commands:skipped'],
    );
  });
  it('finds the semantic problems in one pass with the schema ones: globs, pre_authorized, trunk, commands', async () => {
    const repo = scratchRepo();
    try {
      const text = [
        '[repository]',
        'trunk = "develop"',
        'bogus = true',
        '[jobs]',
        'test = "no-such-program-anywhere --run"',
        'lint = "git --version"',
        '[scopes.docs]',
        'paths = ["docs/**", "[oops"]',
        '[acceptance]',
        'pre_authorized = ["docs", "website"]',
        '',
      ].join('\n');
      const check = await checkConfigText(bytes(text), {
        displayName: 'draft.toml',
        repository: { root: repo.root, commonDir: `${repo.root}/.git` },
        env: process.env,
      });
      assert.equal(check.slug, 'unknown_key');
      assert.equal(check.config, undefined);
      assert.deepEqual(
        check.errors.map((i) => `${i.line}:${i.kind}:${i.path}`),
        [
          '2:no_trunk:repository.trunk',
          '3:unknown_key:repository.bogus',
          '8:invalid_config:scopes.docs.paths.1',
          '10:unknown_scope:acceptance.pre_authorized.1',
        ],
      );
      assert.match(check.errors[3]?.message ?? '', /names "website", which no \[scopes\.website\] table defines/);
      assert.deepEqual(
        check.warnings.map((i) => `${i.line}:${i.kind}:${i.path}`),
        ['5:command_not_found:jobs.test'],
      );
      assert.deepEqual(
        check.checks.map((c) => `${c.name}:${c.status}`),
        ['syntax:ok', 'schema:fail', 'globs:fail', 'pre_authorized:fail', 'trunk:fail', 'commands:warn'],
      );
    } finally {
      repo.cleanup();
    }
  });
  it('skips the trunk when the schema refused it, rather than checking the default in its place', async () => {
    const repo = scratchRepo();
    try {
      const check = await checkConfigText(bytes('[repository]\ntrunk = "bad..name"\n'), {
        displayName: 'draft.toml',
        repository: { root: repo.root, commonDir: `${repo.root}/.git` },
        env: process.env,
      });
      assert.deepEqual(
        check.errors.map((i) => i.path),
        ['repository.trunk'],
      );
      assert.equal(check.checks.find((c) => c.name === 'trunk')?.status, 'skipped');
    } finally {
      repo.cleanup();
    }
  });
  it('reports a trunk that is not a branch, naming the branches there are', async () => {
    const repo = scratchRepo();
    try {
      const check = await checkConfigText(bytes('[repository]\ntrunk = "develop"\n'), {
        displayName: 'draft.toml',
        repository: { root: repo.root, commonDir: `${repo.root}/.git` },
        env: process.env,
      });
      assert.equal(check.slug, 'invalid_config');
      assert.deepEqual(
        check.errors.map((i) => [i.kind, i.path, i.line]),
        [['no_trunk', 'repository.trunk', 2]],
      );
      assert.match(
        check.errors[0]?.message ?? '',
        /"develop" is not a branch of this repository \(its branches: main\)/,
      );
    } finally {
      repo.cleanup();
    }
  });
  it('only warns about the trunk in a repository with no commit yet', async () => {
    const repo = scratchRepo({}, { commit: false });
    try {
      const check = await checkConfigText(bytes('[jobs]\ntest = "git status"\n'), {
        displayName: 'draft.toml',
        repository: { root: repo.root, commonDir: `${repo.root}/.git` },
        env: process.env,
      });
      assert.equal(check.slug, undefined);
      assert.ok(check.config);
      assert.match(
        check.warnings[0]?.message ?? '',
        /"main" \(the default, as \[repository\] trunk is not set\) is not a branch yet/,
      );
    } finally {
      repo.cleanup();
    }
  });
  it('outside a checkout checks the text alone', async () => {
    const check = await checkConfigText(bytes('[jobs]\ntest = "x"\n'), {
      displayName: 'inline TOML',
      env: process.env,
    });
    assert.ok(check.config);
    assert.deepEqual(
      check.checks.filter((c) => c.status === 'skipped').map((c) => c.name),
      ['trunk', 'commands'],
    );
  });
});

describe('keysOf', () => {
  for (const keys of [
    ['scopes', 'docs', 'paths', '1'],
    ['jobs', 'my job'],
    ['a.b', 'c'],
    ['x"y', 'z'],
  ]) {
    it(dotted(keys), () => assert.deepEqual(keysOf(dotted(keys)), keys));
  }
});
