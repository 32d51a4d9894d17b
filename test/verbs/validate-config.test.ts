// validate config in-process (every result checked against its published schema and its Markdown) and through
// the built CLI: inline text and files, exactly one of them, where it works that other verbs refuse (no
// discern.toml, a broken one, no checkout at all), the stages a valid text would run, and exit statuses.
import { describe, it, after } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { DiscernValidateConfigData } from '../../generated/types.js';
import { runCli, onlyJson } from '../helpers/cli.js';
import { assertDriven, call } from '../helpers/drive.js';
import { MINIMAL_CONFIG, scratchRepo, tempDir, type ScratchRepo } from '../helpers/scratch-repo.js';

const repos: ScratchRepo[] = [];
after(() => repos.forEach((r) => r.cleanup()));
function repo(files: Record<string, string> = {}): ScratchRepo {
  const r = scratchRepo(files);
  repos.push(r);
  return r;
}

const FULL = `[project]
name = "Shop"

[jobs]
format = "git --version"
test = "git --version"
lint = ["git --version", "git status"]

[jobs.e2e]
stage = "test"
run = "git --version"

[generated.types]
paths = ["types/**"]
run = "git --version"

[scopes.docs]
paths = ["docs/**"]
neutral = true
gate = "git --version"

[acceptance]
pre_authorized = ["docs"]
`;

describe('validate config', () => {
  it('a valid text: the resolved configuration and the stages done would run, in a repository with no discern.toml', async () => {
    const r = repo();
    const result = await call('validateConfig', { toml: FULL }, r.root);
    assert.equal(result.ok, true, JSON.stringify(result));
    const data = result.data as DiscernValidateConfigData;
    assert.equal(data.valid, true);
    assert.equal(data.root, r.root);
    assert.deepEqual(data.source, { kind: 'inline', name: 'inline TOML', bytes: Buffer.byteLength(FULL) });
    assert.equal(data.config?.project.name, 'Shop');
    assert.equal(data.config?.repository.trunk, 'main');
    assert.deepEqual(
      data.stages?.map((s) => [s.stage, s.parallel, s.jobs.map((j) => j.name)]),
      [
        ['fix', false, ['format']],
        ['build', true, ['generated:types']],
        ['check, test and standards', true, ['lint', 'test', 'e2e']],
      ],
    );
    assert.deepEqual(data.scope_gates, [{ scope: 'docs', commands: ['git --version'] }]);
    assert.ok(
      data.checks.every((c) => c.status === 'ok'),
      JSON.stringify(data.checks),
    );
  });
  it('a file, relative to the project root, in a project whose own discern.toml is broken', async () => {
    const r = repo({ 'discern.toml': '[jobs\n', 'proposed/discern.toml': MINIMAL_CONFIG });
    const result = await call('validateConfig', { file: 'proposed/discern.toml' }, join(r.root, 'proposed'));
    assert.equal(result.ok, true, JSON.stringify(result));
    assert.equal((result.data as DiscernValidateConfigData).source.path, join(r.root, 'proposed/discern.toml'));
    const broken = await call('validateConfig', { file: 'discern.toml' }, r.root);
    assert.equal(broken.error, 'invalid_toml');
    assert.equal(broken.diagnostics?.[0]?.line, 1);
  });
  it('every error at once, as diagnostics with file, line and column, and warnings that do not invalidate', async () => {
    const r = repo();
    const text = '[repository]\nbogus = 1\n[gate]\ntimeout = "x"\n[jobs]\ntest = "no-such-program-xyz"\n';
    const result = await call('validateConfig', { toml: text }, r.root);
    assert.equal(result.error, 'unknown_key');
    assert.deepEqual(
      result.diagnostics?.map((d) => [d.severity, d.file, d.line, d.col, d.rule, d.message]),
      [
        ['error', 'inline TOML', 2, 1, 'unknown_key', '`repository.bogus` is not a key discern honours'],
        ['error', 'inline TOML', 4, 1, 'invalid_config', '`gate.timeout` must be an integer'],
        [
          'warning',
          'inline TOML',
          6,
          1,
          'command_not_found',
          '`jobs.test` `no-such-program-xyz`: no-such-program-xyz is not on PATH. Install no-such-program-xyz, or correct the command in discern.toml.',
        ],
      ],
    );
    assert.match(
      result.message ?? '',
      /inline TOML has 2 errors: `repository\.bogus` \(line 2\) is not a key discern honours; `gate\.timeout` \(line 4\) must be an integer\./,
    );
    assert.equal(result.hints.at(-1), 'Fix the draft at lines 2 and 4 as the message says, then run `discern doctor`.');
    const warned = await call('validateConfig', { toml: '[jobs]\ntest = "no-such-program-xyz"\n' }, r.root);
    assert.equal(warned.ok, true);
    assert.equal((warned.data as DiscernValidateConfigData).warnings.length, 1);
    assert.equal(warned.diagnostics?.[0]?.severity, 'warning');
  });
  it('exactly one of toml and file', async () => {
    const r = repo();
    for (const input of [{}, { toml: '', file: 'discern.toml' }]) {
      const result = await call('validateConfig', input, r.root);
      assert.equal(result.error, 'invalid_value');
      assert.match(result.message ?? '', /exactly one text/);
    }
  });
  it('a file that is missing, a directory, or too large is refused', async () => {
    const r = repo({ 'docs/a.md': 'a' });
    writeFileSync(join(r.root, 'huge.toml'), `# ${'x'.repeat(300 * 1024)}\n`);
    for (const [file, message] of [
      ['nope.toml', /nope\.toml .* does not exist/],
      ['docs', /is not a file/],
      ['huge.toml', /reads at most 256 KiB/],
    ] as const) {
      const result = await call('validateConfig', { file }, r.root);
      assert.equal(result.error, 'invalid_value', file);
      assert.match(result.message ?? '', message);
    }
  });
  it('outside any checkout, the text alone', async () => {
    const outside = tempDir('discern-validate-outside-');
    const result = await call('validateConfig', { toml: MINIMAL_CONFIG }, outside);
    assert.equal(result.ok, true, JSON.stringify(result));
    const data = result.data as DiscernValidateConfigData;
    assert.equal(data.root, undefined);
    assert.deepEqual(
      data.checks.filter((c) => c.status === 'skipped').map((c) => c.name),
      ['trunk', 'commands'],
    );
    assert.match(result.hints?.[0] ?? '', /Outside a git checkout only the text itself was checked/);
  });
  it('was driven through success and failure', () => assertDriven(['validateConfig']));
});

describe('discern validate-config (CLI)', () => {
  it('checks a file and exits 0; a bad text exits 1; a bad call exits 2', async () => {
    const r = repo({ 'discern.toml': MINIMAL_CONFIG });
    const good = await runCli(['validate-config', 'discern.toml', '--json'], { cwd: r.root });
    assert.equal(good.code, 0, good.stdout + good.stderr);
    assert.equal(onlyJson(good)['verb'], 'validate config');
    const bad = await runCli(['validate-config', '--toml', '[gate]\ntimeout = "x"\n', '--markdown'], { cwd: r.root });
    assert.equal(bad.code, 1);
    assert.match(bad.stdout, /\| 2 \| 1 \| `gate\.timeout` \| error \| must be an integer \|/);
    const neither = await runCli(['validate-config', '--json'], { cwd: r.root });
    assert.equal(neither.code, 2);
    assert.equal(onlyJson(neither)['error'], 'invalid_value');
  });
});
