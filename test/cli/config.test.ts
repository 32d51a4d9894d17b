// `discern config` over the real built CLI on scratch repositories: bare reads and their exit statuses, edits
// that leave every byte outside the edited key as it was, refusals that leave the file byte-identical, and the
// file created when there is none. Every --json result is checked against the published schema.
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { onlyJson, runCli, type CliRun } from '../helpers/cli.js';
import { assertPublishedResult } from '../helpers/published-schema.js';
import { cleanEnv, scratchRepo, tempDir, type ScratchRepo } from '../helpers/scratch-repo.js';

const COMMENTED = `# discern.toml — the example project
# (comments everywhere, odd spacing, a CRLF-free file)

[project]
name = "Example"   # shown in status
agents = ["claude_code", "codex"]

# How the gate runs.
[gate]
timeout    =   600  # ten minutes
fail_fast = true

[jobs]
# The linter.
lint = "eslint ."
test = { run = "npm test", timeout = 90 }  # slow

[jobs.e2e]
stage = "test"
run = ["npm run e2e"]

[scopes.docs]
paths = [
  "docs/**",   # the manual
  "*.md",
]
neutral = true
`;

const repos: ScratchRepo[] = [];
after(() => repos.forEach((r) => r.cleanup()));

/** A scratch repository with `config` as its discern.toml; null for none. */
function repo(config: string | null = COMMENTED): ScratchRepo {
  const r = scratchRepo(config === null ? {} : { 'discern.toml': config });
  repos.push(r);
  return r;
}

const discern = (r: ScratchRepo, args: string[], env: Record<string, string> = {}): Promise<CliRun> =>
  runCli(args, { cwd: r.root, env: cleanEnv(env) });

async function json(
  r: ScratchRepo,
  args: string[],
  env: Record<string, string> = {},
): Promise<{ run: CliRun; result: Record<string, unknown> }> {
  // Before `--`, after which everything is an argument.
  const end = args.indexOf('--');
  const run = await discern(
    r,
    end < 0 ? [...args, '--json'] : [...args.slice(0, end), '--json', ...args.slice(end)],
    env,
  );
  const result = onlyJson(run);
  assertPublishedResult(result);
  return { run, result };
}

const configOf = (r: ScratchRepo): string => readFileSync(join(r.root, 'discern.toml'), 'utf8');

describe('config reads: bare output and exit status', () => {
  const r = repo();
  const bare: { args: string[]; stdout: string }[] = [
    { args: ['config', 'get', 'project.name'], stdout: 'Example\n' },
    { args: ['config', 'get', 'gate.timeout'], stdout: '600\n' },
    { args: ['config', 'get', 'gate.fail_fast'], stdout: 'true\n' },
    { args: ['config', 'get', 'project.agents'], stdout: 'claude_code\ncodex\n' },
    { args: ['config', 'get', 'jobs.test'], stdout: '{"run":"npm test","timeout":90}\n' },
    { args: ['config', 'array', 'scopes.docs.paths'], stdout: 'docs/**\n*.md\n' },
    { args: ['config', 'array', 'jobs.lint'], stdout: 'eslint .\n' },
    {
      args: ['config', 'keys', 'jobs'],
      stdout: 'jobs.lint\njobs.test.run\njobs.test.timeout\njobs.e2e.stage\njobs.e2e.run\n',
    },
    { args: ['config', 'subsections', 'jobs'], stdout: 'test\ne2e\n' },
    { args: ['config', 'subsections', 'scopes'], stdout: 'docs\n' },
    { args: ['config', 'keys', 'standards'], stdout: '' },
  ];
  for (const c of bare) {
    it(c.args.slice(1).join(' '), async () => {
      const run = await discern(r, c.args);
      assert.equal(run.code, 0, run.stderr);
      assert.equal(run.stdout, c.stdout);
      assert.equal(run.stderr, '');
    });
  }
  it('keys without a section lists every key, in file order', async () => {
    const run = await discern(r, ['config', 'keys']);
    assert.equal(run.stdout.split('\n')[0], 'project.name');
    assert.ok(run.stdout.includes('scopes.docs.neutral\n'));
  });
  it('has is silent: exit 0 when set, 1 when not', async () => {
    const yes = await discern(r, ['config', 'has', 'jobs.lint']);
    assert.deepEqual([yes.code, yes.stdout, yes.stderr], [0, '', '']);
    const no = await discern(r, ['config', 'has', 'jobs.smoke']);
    assert.deepEqual([no.code, no.stdout, no.stderr], [1, '', '']);
    const table = await discern(r, ['config', 'has', 'scopes.docs']);
    assert.equal(table.code, 0);
  });
  it('has with --json prints the result and exits 0', async () => {
    const { run, result } = await json(r, ['config', 'has', 'jobs.smoke']);
    assert.equal(run.code, 0);
    assert.equal((result['data'] as { present: boolean }).present, false);
  });
  it('get of a key that is not set refuses unknown_key, names the key and close keys', async () => {
    const run = await discern(r, ['config', 'get', 'jobs.lnt']);
    assert.equal(run.code, 1);
    assert.equal(run.stdout, '');
    assert.match(run.stderr, /does not set `jobs\.lnt`.*`jobs\.lint`/);
    const { result } = await json(r, ['config', 'get', 'gate.timout']);
    assert.equal(result['error'], 'unknown_key');
    assert.match(String(result['message']), /gate\.timout/);
    assert.deepEqual((result['data'] as { suggestions: string[] }).suggestions[0], 'gate.timeout');
  });
  it('get --json and --markdown answer with the result', async () => {
    const { result } = await json(r, ['config', 'get', 'scopes.docs']);
    assert.deepEqual(result['data'], {
      key: 'scopes.docs',
      present: true,
      value: { paths: ['docs/**', '*.md'], neutral: true },
      file: join(r.root, 'discern.toml'),
    });
    const md = await discern(r, ['config', 'get', 'gate.timeout', '--markdown']);
    assert.equal(md.code, 0);
    assert.match(md.stdout, /^# discern config get\n\n- `gate.timeout` = `600`/);
  });
  it('array of a table is refused as invalid_value (exit 2)', async () => {
    const run = await discern(r, ['config', 'array', 'jobs']);
    assert.equal(run.code, 2);
    assert.match(run.stderr, /is a table, not a list/);
  });
  it('a key that cannot be read is invalid_value', async () => {
    const { run, result } = await json(r, ['config', 'get', 'jobs..lint']);
    assert.equal(run.code, 2);
    assert.equal(result['error'], 'invalid_value');
  });
  it('quoted key parts', async () => {
    const q = repo('[scopes."my docs"]\npaths = ["d/**"]\n');
    const run = await discern(q, ['config', 'get', 'scopes."my docs".paths']);
    assert.equal(run.stdout, 'd/**\n');
  });
});

describe('config explain', () => {
  it('reads the schema for a key the file does not set', async () => {
    const r = repo();
    const run = await discern(r, ['config', 'explain', 'gate.concurrent_test_runs']);
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /^gate\.concurrent_test_runs: integer, default 0\nAt most this many test runs/);
    assert.match(run.stdout, /Not set in discern\.toml\.\n$/);
    const { result } = await json(r, ['config', 'explain', 'gate.timeout']);
    assert.deepEqual(
      { ...(result['data'] as object), description: undefined, explanation: undefined },
      {
        key: 'gate.timeout',
        type: 'integer',
        default: 600,
        present: true,
        value: 600,
        file: join(r.root, 'discern.toml'),
        description: undefined,
        explanation: undefined,
      },
    );
  });
  it('names enums, table keys and keys of a name of your choosing', async () => {
    const r = repo();
    const stage = await json(r, ['config', 'explain', 'jobs.e2e.stage']);
    assert.deepEqual((stage.result['data'] as { enum: string[] }).enum, ['fix', 'build', 'check', 'test']);
    const gate = await json(r, ['config', 'explain', 'gate']);
    assert.deepEqual((gate.result['data'] as { keys: string[]; type: string }).keys, [
      'timeout',
      'fail_fast',
      'stream',
      'concurrency',
      'concurrent_test_runs',
      'trusted_filters',
    ]);
    const job = await json(r, ['config', 'explain', 'jobs.lint']);
    assert.match((job.result['data'] as { type: string }).type, /string/);
  });
  it('works outside a project', async () => {
    const dir = tempDir();
    const run = await runCli(['config', 'explain', 'repository.trunk'], { cwd: dir, env: cleanEnv() });
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /^repository\.trunk: string/);
    assert.doesNotMatch(run.stdout, /Not set/);
  });
  it('refuses a key the schema does not have, with close keys', async () => {
    const r = repo();
    const { run, result } = await json(r, ['config', 'explain', 'gate.timout']);
    assert.equal(run.code, 1);
    assert.equal(result['error'], 'unknown_key');
    assert.match(String(result['message']), /`gate\.timeout`/);
  });
});

describe('config set: the edit changes only the key', () => {
  it('replaces a value, every other byte identical (comments, spacing, order)', async () => {
    const r = repo();
    const { run, result } = await json(r, ['config', 'set', 'gate.timeout', '900']);
    assert.equal(run.code, 0, run.stderr);
    assert.equal(
      configOf(r),
      COMMENTED.replace('timeout    =   600  # ten minutes', 'timeout    =   900  # ten minutes'),
    );
    const data = result['data'] as Record<string, unknown>;
    assert.deepEqual([data['key'], data['value'], data['previous'], data['changed']], ['gate.timeout', 900, 600, true]);
    const steps = result['steps'] as { kind: string; outcome: string }[];
    assert.deepEqual(
      steps.map((s) => [s.kind, s.outcome]),
      [['env', 'ok']],
    );
  });
  it('inserts a new key at the end of its table, nothing else moved', async () => {
    const r = repo();
    const run = await discern(r, ['config', 'set', 'project.slug', 'example']);
    assert.equal(run.code, 0, run.stderr);
    assert.equal(
      configOf(r),
      COMMENTED.replace('agents = ["claude_code", "codex"]\n', 'agents = ["claude_code", "codex"]\nslug = "example"\n'),
    );
  });
  it('creates a missing table at the end of the file', async () => {
    const r = repo();
    await discern(r, ['config', 'set', 'repository.trunk', 'main']);
    assert.equal(configOf(r), `${COMMENTED}\n[repository]\ntrunk = "main"\n`);
  });
  it('parses TOML values, and keeps text for keys that take strings', async () => {
    const r = repo();
    await discern(r, ['config', 'set', 'scopes.docs.paths', '["docs/**", "README.md"]']);
    await discern(r, ['config', 'set', 'scopes.docs.neutral', 'false']);
    await discern(r, ['config', 'set', 'repository.trunk', '2024']);
    await discern(r, ['config', 'set', 'project.name', 'two words']);
    const text = configOf(r);
    assert.match(text, /^paths = \["docs\/\*\*", "README\.md"\]$/m);
    assert.match(text, /^neutral = false$/m);
    assert.match(text, /^trunk = "2024"$/m);
    assert.match(text, /^name = "two words" {3}# shown in status$/m);
  });
  it('keeps CRLF line endings', async () => {
    const crlf = COMMENTED.replace(/\n/g, '\r\n');
    const r = repo(crlf);
    await discern(r, ['config', 'set', 'jobs.smoke', 'npm run smoke']);
    assert.equal(
      configOf(r),
      crlf.replace('timeout = 90 }  # slow\r\n', 'timeout = 90 }  # slow\r\nsmoke = "npm run smoke"\r\n'),
    );
  });
  it('setting the same value again writes nothing', async () => {
    const r = repo();
    const before = statSync(join(r.root, 'discern.toml')).mtimeMs;
    const { result } = await json(r, ['config', 'set', 'gate.timeout', '600']);
    assert.equal(result['ok'], true);
    assert.equal((result['data'] as { changed: boolean }).changed, false);
    assert.equal(result['steps'], undefined);
    assert.equal(statSync(join(r.root, 'discern.toml')).mtimeMs, before);
  });
  it('keeps the file mode', async () => {
    const r = repo();
    chmodSync(join(r.root, 'discern.toml'), 0o640);
    await discern(r, ['config', 'set', 'gate.timeout', '1']);
    assert.equal(statSync(join(r.root, 'discern.toml')).mode & 0o777, 0o640);
  });
  it('the edited project still passes doctor', async () => {
    const r = repo();
    await discern(r, ['config', 'set-job', 'typecheck', 'tsc --noEmit']);
    const doctor = await json(r, ['doctor']);
    const config = (doctor.result['data'] as { checks: { name: string; status: string }[] }).checks.find(
      (c) => c.name === 'config',
    );
    assert.equal(config?.status, 'ok');
  });
});

describe('config set: refusals leave the file byte-identical', () => {
  const refusals: {
    name: string;
    config?: string;
    args: string[];
    error: string;
    code: number;
    message: RegExp;
    env?: Record<string, string>;
  }[] = [
    {
      name: 'a value the schema refuses',
      args: ['config', 'set', 'gate.timeout', '--', '-5'],
      error: 'invalid_value',
      code: 2,
      message: /`gate\.timeout` cannot be set to -5: `gate\.timeout` must be >= 0/,
    },
    {
      name: 'a value of the wrong type',
      args: ['config', 'set', 'gate.fail_fast', 'sometimes'],
      error: 'invalid_value',
      code: 2,
      message: /`gate\.fail_fast` must be boolean/,
    },
    {
      name: 'a key nothing honours',
      args: ['config', 'set', 'gate.timout', '5'],
      error: 'unknown_key',
      code: 1,
      message: /`gate\.timout` is not a key.*`gate\.timeout`/,
    },
    {
      name: 'another key of the file is invalid',
      config: `${COMMENTED}\n[map]\ndir = "/abs"\n`,
      args: ['config', 'set', 'project.name', 'X'],
      error: 'invalid_config',
      code: 1,
      message: /`map\.dir`/,
    },
    {
      name: 'a key under a value that is not a table',
      args: ['config', 'set', 'jobs.lint.run', 'x'],
      error: 'edit_failed',
      code: 1,
      message: /`jobs\.lint` is a string, not a table/,
    },
    {
      name: 'a file that is not TOML',
      config: '[project\nname = "x"\n',
      args: ['config', 'set', 'project.name', 'y'],
      error: 'invalid_toml',
      code: 1,
      message: /line 1/,
    },
    {
      name: 'a write that fails',
      args: ['config', 'set', 'gate.timeout', '5'],
      error: 'write_denied',
      code: 1,
      message: /could not be written \(EACCES\)/,
      env: { DISCERN_FAULT: 'config:write' },
    },
    {
      name: 'a known job with another stage',
      args: ['config', 'set-job', 'lint', 'x', '--stage', 'test'],
      error: 'invalid_value',
      code: 2,
      message: /its stage is always check/,
    },
    {
      name: 'a custom job without a stage',
      args: ['config', 'set-job', 'deploy', 'x'],
      error: 'invalid_value',
      code: 2,
      message: /needs --stage/,
    },
    {
      name: 'a scope pattern that cannot be used',
      args: ['config', 'set-scope', 'docs', '--paths', 'docs/'],
      error: 'invalid_value',
      code: 2,
      message: /trailing `\/`/,
    },
  ];
  for (const c of refusals) {
    it(c.name, async () => {
      const text = c.config ?? COMMENTED;
      const r = repo(text);
      const { run, result } = await json(r, c.args, c.env);
      assert.equal(result['error'], c.error, String(result['message']));
      assert.equal(run.code, c.code);
      assert.match(String(result['message']), c.message);
      assert.equal(configOf(r), text);
      const bare = await discern(r, c.args, c.env);
      assert.equal(bare.code, c.code);
      assert.equal(configOf(r), text);
    });
  }
  it(
    'a read-only file is write_denied, naming it',
    { skip: process.getuid?.() === 0 ? 'root may write anything' : false },
    async () => {
      const r = repo();
      chmodSync(join(r.root, 'discern.toml'), 0o444);
      const { result } = await json(r, ['config', 'set', 'gate.timeout', '5']);
      assert.equal(result['error'], 'write_denied');
      assert.match(String(result['message']), new RegExp(join(r.root, 'discern.toml')));
      assert.equal(configOf(r), COMMENTED);
    },
  );
});

describe('config without a discern.toml', () => {
  it('reads refuse no_project', async () => {
    const r = repo(null);
    for (const args of [
      ['config', 'get', 'project.name'],
      ['config', 'keys'],
      ['config', 'has', 'jobs.lint'],
    ]) {
      const { run, result } = await json(r, args);
      assert.equal(result['error'], 'no_project', args.join(' '));
      assert.equal(run.code, 1);
    }
    const has = await discern(r, ['config', 'has', 'jobs.lint']);
    assert.equal(has.code, 1);
    assert.match(has.stderr, /has no discern\.toml/);
  });
  it('set creates it', async () => {
    const r = repo(null);
    const { result } = await json(r, ['config', 'set', 'project.name', 'Fresh']);
    assert.equal(result['ok'], true, String(result['message']));
    assert.equal((result['data'] as { created: boolean }).created, true);
    assert.equal(configOf(r), '[project]\nname = "Fresh"\n');
    await discern(r, ['config', 'set-job', 'test', 'npm test']);
    await discern(r, ['config', 'set-scope', 'docs', '--paths', 'docs/**', '--neutral']);
    assert.equal(
      configOf(r),
      '[project]\nname = "Fresh"\n\n[jobs]\ntest = "npm test"\n\n[scopes.docs]\npaths = ["docs/**"]\nneutral = true\n',
    );
  });
  it('a refused set creates nothing', async () => {
    const r = repo(null);
    await discern(r, ['config', 'set', 'gate.timeout', '--', '-1']);
    assert.equal(existsSync(join(r.root, 'discern.toml')), false);
  });
  it(
    'an unwritable checkout is write_denied before anything is made',
    { skip: process.getuid?.() === 0 ? 'root may write anything' : false },
    async () => {
      const r = repo(null);
      chmodSync(r.root, 0o555);
      try {
        const { result } = await json(r, ['config', 'set', 'project.name', 'x']);
        assert.equal(result['error'], 'write_denied');
        assert.match(String(result['message']), new RegExp(r.root));
      } finally {
        chmodSync(r.root, 0o755);
      }
    },
  );
});

describe('config set-job, set-scope, set-standard', () => {
  it('set-job writes a known job as a string, and a timeout as a table', async () => {
    const r = repo();
    await discern(r, ['config', 'set-job', 'lint', 'eslint --max-warnings 0 .']);
    assert.equal(configOf(r), COMMENTED.replace('lint = "eslint ."', 'lint = "eslint --max-warnings 0 ."'));
    await discern(r, ['config', 'set-job', 'lint', 'eslint .', '--timeout', '30']);
    assert.equal(configOf(r), COMMENTED.replace('lint = "eslint ."', 'lint = { run = "eslint .", timeout = 30 }'));
  });
  it('set-job keeps a stage and timeout it is not given', async () => {
    const r = repo();
    const { result } = await json(r, ['config', 'set-job', 'e2e', 'npm run e2e:ci', '--timeout', '900']);
    assert.deepEqual((result['data'] as { value: unknown }).value, {
      stage: 'test',
      run: 'npm run e2e:ci',
      timeout: 900,
    });
    assert.equal(
      configOf(r),
      COMMENTED.replace(
        'stage = "test"\nrun = ["npm run e2e"]\n',
        'stage = "test"\nrun = "npm run e2e:ci"\ntimeout = 900\n',
      ),
    );
    await discern(r, ['config', 'set-job', 'e2e', 'npm run e2e']);
    assert.match(configOf(r), /run = "npm run e2e"\ntimeout = 900\n/);
  });
  it('set-job adds a custom job as a table after its section', async () => {
    const r = repo();
    await discern(r, ['config', 'set-job', 'audit', 'npm audit', '--stage', 'check']);
    assert.equal(
      configOf(r),
      COMMENTED.replace(
        'run = ["npm run e2e"]\n',
        'run = ["npm run e2e"]\n\n[jobs.audit]\nstage = "check"\nrun = "npm audit"\n',
      ),
    );
  });
  it('set-scope replaces the paths and keeps the comments of other keys', async () => {
    const r = repo();
    const { result } = await json(r, ['config', 'set-scope', 'docs', '--paths', 'docs/**', '--paths', 'README.md']);
    assert.equal(result['ok'], true, String(result['message']));
    assert.equal(
      configOf(r),
      COMMENTED.replace('paths = [\n  "docs/**",   # the manual\n  "*.md",\n]\n', 'paths = ["docs/**", "README.md"]\n'),
    );
  });
  it('set-standard writes a new table and changes one in place', async () => {
    const r = repo();
    await discern(r, [
      'config',
      'set-standard',
      'coverage',
      '--direction',
      'up',
      '--limit',
      '80',
      '--run',
      'npm run cov',
    ]);
    assert.equal(
      configOf(r),
      `${COMMENTED}\n[standards.coverage]\ndirection = "up"\nlimit = 80\nrun = "npm run cov"\n`,
    );
    const { result } = await json(r, [
      'config',
      'set-standard',
      'coverage',
      '--direction',
      'up',
      '--limit',
      '82.5',
      '--run',
      'npm run cov',
      '--margin',
      '1',
    ]);
    assert.equal(result['ok'], true);
    assert.equal(
      configOf(r),
      `${COMMENTED}\n[standards.coverage]\ndirection = "up"\nlimit = 82.5\nrun = "npm run cov"\nmargin = 1\n`,
    );
  });
});

describe('config over an existing file with a BOM and Unicode', () => {
  it('keeps the byte-order mark', async () => {
    const r = repo();
    writeFileSync(join(r.root, 'discern.toml'), `\uFEFF[project]\nname = "Ärger 🚀"\n`);
    const get = await discern(r, ['config', 'get', 'project.name']);
    assert.equal(get.stdout, 'Ärger 🚀\n');
    await discern(r, ['config', 'set', 'project.slug', 'aerger']);
    assert.equal(
      readFileSync(join(r.root, 'discern.toml'), 'utf8'),
      '\uFEFF[project]\nname = "Ärger 🚀"\nslug = "aerger"\n',
    );
  });
});
