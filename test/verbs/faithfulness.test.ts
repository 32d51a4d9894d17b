// Faithfulness: every implemented verb, driven through its modes (success, failure, refusal, variants), returns
// an envelope that validates against its published definition in schema/discern-results.schema.json, and its
// Markdown presentation ends with the same next action the envelope carries.
import { describe, it, after } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { VERBS } from '../../generated/registry.js';
import { assertDriven, call } from '../helpers/drive.js';
import { MINIMAL_CONFIG, scratchRepo, tempDir, type ScratchRepo } from '../helpers/scratch-repo.js';

const repos: ScratchRepo[] = [];
const dirs: string[] = [];
after(() => {
  repos.forEach((r) => r.cleanup());
  dirs.forEach((d) => rmSync(d, { recursive: true, force: true }));
});
function repo(files: Record<string, string>, options: { commit?: boolean } = {}): string {
  const r = scratchRepo(files, options);
  repos.push(r);
  return r.root;
}

const nowhere = tempDir('discern-nowhere-');
dirs.push(nowhere);

describe('help', () => {
  it('lists the whole grammar', async () => {
    const r = await call('help', {}, nowhere);
    assert.ok(r.ok && r.data && 'commands' in r.data && r.data.commands.length >= 4);
  });
  it('describes one command', async () => {
    const r = await call('help', { command: ['docs'] }, nowhere);
    assert.ok(r.ok && r.data && 'command' in r.data && r.data.command.path[0] === 'docs');
  });
  it('refuses an unknown command with the closest ones', async () => {
    const r = await call('help', { command: ['doctr'] }, nowhere);
    assert.equal(r.error, 'unknown_command');
    assert.ok(r.data && 'suggestions' in r.data && r.data.suggestions.includes('doctor'));
  });
  it('refuses malformed input', async () => {
    assert.equal((await call('help', { command: 'docs' }, nowhere)).error, 'invalid_arguments');
  });
});

describe('docs', () => {
  it('index', async () => {
    const r = await call('docs', {}, nowhere);
    assert.ok(r.ok && r.data && 'docs' in r.data && r.data.count === r.data.docs.length && r.data.count > 10);
  });
  it('one page by slug, section/slug and path, verbatim', async () => {
    for (const target of ['getting-started', 'start/getting-started', '00-start/getting-started.md']) {
      const r = await call('docs', { target }, nowhere);
      assert.ok(r.ok && r.data && 'doc' in r.data, target);
      const raw = readFileSync(new URL('../../docs/00-start/getting-started.md', import.meta.url), 'utf8');
      assert.ok(raw.endsWith(r.data.doc.content), 'the page content is the file after its front matter, byte for byte');
    }
  });
  it('a section index', async () => {
    const r = await call('docs', { target: 'reference' }, nowhere);
    assert.ok(
      r.ok &&
        r.data &&
        'docs' in r.data &&
        r.data.scope === 'reference' &&
        r.data.docs.every((d) => d.section === 'reference'),
    );
  });
  it('a search, a scoped search, a zero-match search and a misspelt title', async () => {
    const search = await call('docs', { search: 'exit codes' }, nowhere);
    assert.ok(
      search.ok && search.data && 'results' in search.data && search.data.results[0]?.target === 'reference/exit-codes',
    );
    const scoped = await call('docs', { target: 'verbs', search: 'json' }, nowhere);
    assert.ok(
      scoped.ok &&
        scoped.data &&
        'results' in scoped.data &&
        scoped.data.scope === 'verbs' &&
        scoped.data.results.every((x) => x.section === 'verbs'),
    );
    const none = await call('docs', { search: 'qqqzzzxxyy' }, nowhere);
    assert.ok(
      none.ok && none.data && 'results' in none.data && none.data.count === 0 && none.data.results.length === 0,
    );
    const misspelt = await call('docs', { search: 'confgiuration' }, nowhere);
    assert.ok(
      misspelt.ok && misspelt.data && 'results' in misspelt.data && misspelt.data.results[0]?.match === 'metadata',
    );
  });
  it('an unknown target, with suggestions', async () => {
    const r = await call('docs', { target: 'getting-startd' }, nowhere);
    assert.equal(r.error, 'unknown_target');
    assert.ok(r.data && 'suggestions' in r.data && r.data.suggestions?.includes('start/getting-started'));
  });
  it('targets that try to leave the manual', async () => {
    for (const target of ['../package.json', '/etc/passwd', 'start/../../x', 'start%2F..%2Fx', 'start\\x', 'C:/x']) {
      const r = await call('docs', { target }, nowhere);
      assert.equal(r.error, 'invalid_arguments', target);
    }
  });
  it('undeclared keys and wrong types', async () => {
    assert.equal((await call('docs', { search: 'x', path: '/tmp' }, nowhere)).error, 'invalid_arguments');
    assert.equal((await call('docs', { search: 3 }, nowhere)).error, 'invalid_arguments');
  });
});

describe('doctor', () => {
  it('a healthy project, plain and verbose', async () => {
    const root = repo({ 'discern.toml': MINIMAL_CONFIG });
    const r = await call('doctor', {}, root);
    assert.ok(r.ok, JSON.stringify(r));
    assert.ok(
      r.data &&
        'checks' in r.data &&
        r.data.checks.some((c) => 'name' in c && c.name === 'job:test' && c.status === 'ok'),
    );
    assert.ok(!('execution_model' in (r.data ?? {})));
    assert.ok(r.hints?.some((h) => h.includes('discern doctor --verbose --json')));
    const verbose = await call('doctor', { verbose: true, path: root }, nowhere);
    assert.ok(
      verbose.ok &&
        verbose.data &&
        'execution_model' in verbose.data &&
        (verbose.data.execution_model?.length ?? 0) === Object.keys(VERBS).length,
    );
    assert.deepEqual(verbose.data.config, {
      project: { name: 'Scratch' },
      repository: { trunk: 'main', trunk_source: 'config', branch_prefix: 'agent/' },
      jobs: [{ name: 'test', stage: 'test', commands: ['git --version'] }],
      scopes: [],
      map: { dir: 'discern/map/' },
    });
  });
  it('a warning stays successful as a doctor-warning advisory', async () => {
    const root = repo({ 'discern.toml': '[jobs]\nlint = "localtool ."\n' });
    mkdirSync(join(root, 'node_modules/.bin'), { recursive: true });
    writeFileSync(join(root, 'node_modules/.bin/localtool'), '#!/bin/sh\n');
    chmodSync(join(root, 'node_modules/.bin/localtool'), 0o755);
    const r = await call('doctor', {}, root);
    assert.equal(r.ok, true);
    assert.equal(r.advisories?.[0]?.kind, 'doctor-warning');
  });
  it('a job command that does not resolve fails as precondition_failed', async () => {
    const r = await call('doctor', {}, repo({ 'discern.toml': '[jobs]\ntest = "no-such-tool-for-discern run"\n' }));
    assert.equal(r.error, 'precondition_failed');
    assert.match(r.message ?? '', /job:test/);
  });
  const refusals: [string, Record<string, string>, string, { commit?: boolean }?][] = [
    ['no discern.toml', {}, 'no_project'],
    ['a TOML syntax error', { 'discern.toml': '[jobs\n' }, 'invalid_toml'],
    ['an unknown key', { 'discern.toml': '[jobz]\n' }, 'unknown_key'],
    ['a wrong type', { 'discern.toml': '[project]\nname = 5\n' }, 'invalid_config'],
    ['a missing trunk', { 'discern.toml': '[repository]\ntrunk = "trunk"\n' }, 'no_trunk'],
  ];
  for (const [name, files, error] of refusals) {
    it(`${name} → ${error}, with the checks that ran`, async () => {
      const r = await call('doctor', {}, repo(files));
      assert.equal(r.error, error);
      assert.ok(r.data && 'checks' in r.data && r.data.checks.some((c) => 'status' in c && c.status === 'fail'));
    });
  }
  it('config problems are listed with their keys and lines, in file order', async () => {
    const r = await call(
      'doctor',
      {},
      repo({
        'discern.toml': '[project]\nname = "x"\nbogus = 1\n[zzz]\n[jobs.e2e]\nstage = "test"\nrun = "x"\nretries = 5\n',
      }),
    );
    assert.equal(r.error, 'unknown_key');
    const issues = r.data && 'issues' in r.data ? r.data.issues : undefined;
    assert.deepEqual(
      issues?.map((i) => [i.path, i.line]),
      [
        ['project.bogus', 3],
        ['zzz', 4],
        ['jobs.e2e.retries', 8],
      ],
    );
  });
  it('git that cannot be started → precondition_failed, not a misleading no_repository', async () => {
    const root = repo({ 'discern.toml': MINIMAL_CONFIG });
    const r = await call('doctor', {}, root, { PATH: '/nonexistent-discern-path' });
    assert.equal(r.error, 'precondition_failed');
    assert.match(r.message ?? '', /git (could not be started|was not found on PATH)/);
    assert.ok(
      r.data && 'checks' in r.data && r.data.checks.some((c) => 'name' in c && c.name === 'git' && c.status === 'fail'),
    );
  });
  it('outside a repository → no_repository', async () => {
    const r = await call('doctor', {}, nowhere);
    assert.equal(r.error, 'no_repository');
  });
  it('a relative path → invalid_arguments', async () => {
    const r = await call('doctor', { path: 'some/where' }, nowhere);
    assert.equal(r.error, 'invalid_arguments');
    assert.match(r.message ?? '', /`path` must be an absolute path/);
  });
  it('an unexpected exception → internal_error with a crash record', async () => {
    const root = repo({ 'discern.toml': MINIMAL_CONFIG });
    const r = await call('doctor', {}, root, { DISCERN_FAULT: 'verb:doctor' });
    assert.equal(r.error, 'internal_error');
    const record = /crash record is at (\S+?);/.exec(r.hints?.at(-1) ?? '')?.[1] ?? '';
    assert.ok(record.startsWith(join(root, '.git', 'discern', 'crash')), record);
    assert.match(readFileSync(record, 'utf8'), /fault injected at verb:doctor/);
  });
});

describe('coverage of the faithfulness drive', () => {
  it('drove help, docs and doctor through success and failure', () => assertDriven(['help', 'docs', 'doctor']));
});
