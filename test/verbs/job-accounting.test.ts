// How the known jobs are accounted for, on real scratch repositories through the built CLI: a custom job that
// `provides` test is the project's test wherever known jobs are reported (status, doctor, the improvement audit)
// and `discern test` runs it; `[assurance] not_applicable` keeps discern from asking for a job that does not
// apply; each conflict (a name configured twice over, a provider of another stage, a name both configured and
// declared not to apply) is invalid_config at its dotted key, on load, in validate-config, from the config
// writers and from a setup recipe.
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { onlyJson, runCli } from '../helpers/cli.js';
import { cleanEnv, scratchRepo, tempDir, type ScratchRepo } from '../helpers/scratch-repo.js';

const repos: ScratchRepo[] = [];
after(() => repos.forEach((r) => r.cleanup()));

const HEAD = '[project]\nname = "accounting"\n\n[repository]\ntrunk = "main"\n\n';

function repo(toml: string, files: Record<string, string> = {}): ScratchRepo {
  const r = scratchRepo({ 'discern.toml': HEAD + toml, ...files });
  repos.push(r);
  return r;
}

type Json = Record<string, unknown>;

async function json(args: string[], cwd: string): Promise<Json> {
  return onlyJson(await runCli([...args, '--json'], { cwd, env: cleanEnv() }));
}

const data = (result: Json): Json => result['data'] as Json;
const show = (result: Json): string => JSON.stringify(result, null, 2);

function gateStages(result: Json): { status: string; detail: string; fix?: string } {
  const rules = (
    data(result)['categories'] as { rules: { id: string; status: string; evidence: Json; fix?: string }[] }[]
  ).flatMap((c) => c.rules);
  const rule = rules.find((r) => r.id === 'gate.stages');
  assert.ok(rule, show(result));
  return {
    status: rule.status,
    detail: String(rule.evidence['detail']),
    ...(rule.fix !== undefined ? { fix: rule.fix } : {}),
  };
}

describe('a custom job that provides a known job', () => {
  const provider = [
    '[jobs]',
    'format = ":"',
    'lint = "true"',
    'typecheck = "true"',
    '',
    '[jobs.pytest]',
    'stage = "test"',
    // The job leaves a mark outside the tree, so the test sees it ran.
    'run = "echo ran >> \\"$MARK\\""',
    'provides = ["test"]',
    '',
  ].join('\n');

  it('is the project test in the audit, doctor and status, and discern test runs it', async () => {
    const mark = join(tempDir('discern-mark-'), 'ran');
    const r = repo(provider.replace('$MARK', mark));

    const audit = gateStages(await json(['improvement', '--category', 'gate'], r.root));
    assert.equal(audit.status, 'pass', audit.detail);
    assert.match(audit.detail, /provided by custom jobs: test \(by pytest\)/);

    const doctor = await json(['doctor'], r.root);
    const check = (data(doctor)['checks'] as { name: string; detail: string }[]).find((c) => c.name === 'job:pytest');
    assert.match(check?.detail ?? '', /^test stage, provides test: /, show(doctor));

    const status = await json(['status'], r.root);
    assert.ok(status['ok'], show(status));
    const jobs = (data(status)['gate'] as { jobs: Json[] }).jobs;
    assert.deepEqual(
      jobs.find((j) => j['name'] === 'pytest'),
      { name: 'pytest', stage: 'test', commands: [`echo ran >> "${mark}"`], provides: ['test'] },
    );

    const test = await json(['test'], r.root);
    assert.equal(test['ok'], true, show(test));
    assert.deepEqual(readFileSync(mark, 'utf8').trim().split('\n'), ['ran']);
  });

  it('a custom job of the same stage without provides is not taken for test: the audit asks it to say so', async () => {
    const r = repo(provider.replace('provides = ["test"]\n', '').replace('$MARK', '/dev/null'));
    const audit = gateStages(await json(['improvement', '--category', 'gate'], r.root));
    assert.equal(audit.status, 'partial', audit.detail);
    assert.match(audit.detail, /missing: test/);
    assert.match(audit.fix ?? '', /`provides = \["test"\]` under \[jobs\.pytest\]/);
  });

  it('config set-job keeps what the job provides, and refuses the known name it provides', async () => {
    const r = repo(provider.replace('$MARK', '/dev/null'));
    const kept = await json(['config', 'set-job', 'pytest', 'true'], r.root);
    assert.equal(kept['ok'], true, show(kept));
    assert.match(readFileSync(join(r.root, 'discern.toml'), 'utf8'), /\[jobs\.pytest\][^[]*provides = \["test"\]/);

    const before = readFileSync(join(r.root, 'discern.toml'), 'utf8');
    const twice = await json(['config', 'set-job', 'test', 'true'], r.root);
    assert.equal(twice['error'], 'invalid_config', show(twice));
    assert.match(
      String(twice['message']),
      /`jobs\.pytest\.provides\.0` names test, which `jobs\.test` also configures/,
    );
    const restaged = await json(['config', 'set-job', 'pytest', 'true', '--stage', 'check'], r.root);
    assert.equal(restaged['error'], 'invalid_value', show(restaged));
    assert.match(String(restaged['message']), /names test, a test-stage job, but `jobs\.pytest\.stage` is check/);
    const declined = await json(['config', 'set', 'assurance.not_applicable', '["test"]'], r.root);
    assert.equal(declined['error'], 'invalid_value', show(declined));
    assert.match(String(declined['message']), /names test, which `jobs\.pytest\.provides` provides/);
    assert.equal(readFileSync(join(r.root, 'discern.toml'), 'utf8'), before);
  });
});

describe('[assurance] not_applicable', () => {
  it('a project declaring smoke (and format) not applicable is not told to add them', async () => {
    const r = repo(
      [
        '[jobs]',
        'lint = "true"',
        'typecheck = "true"',
        '',
        '[assurance]',
        'not_applicable = ["format", "smoke"]',
        '',
      ].join('\n'),
    );
    const audit = gateStages(await json(['improvement', '--category', 'gate'], r.root));
    assert.match(audit.detail, /declared not to apply: format/);
    assert.match(audit.detail, /missing: test\)/);
    assert.doesNotMatch(audit.fix ?? '', /format|smoke/);

    const test = await json(['test'], r.root);
    assert.equal(test['ok'], true, show(test));
    const hint = (test['hints'] as string[]).find((h) => h.startsWith('No test jobs'));
    assert.match(hint ?? '', /add test under \[jobs\]/, show(test));
    assert.doesNotMatch(hint ?? '', /smoke/);
  });

  it('test and smoke both declared not to apply: discern test says so instead of asking for a job', async () => {
    const r = repo('[jobs]\nlint = "true"\n\n[assurance]\nnot_applicable = ["test", "smoke"]\n');
    const test = await json(['test'], r.root);
    assert.equal(test['ok'], true, show(test));
    assert.ok(
      (test['hints'] as string[]).some((h) => /not_applicable declares that test and smoke do not apply/.test(h)),
      show(test),
    );
  });

  it('an unknown job name is refused by the schema', async () => {
    const r = repo('[assurance]\nnot_applicable = ["deploy"]\n');
    const result = await json(['status'], r.root);
    assert.equal(result['error'], 'invalid_config', show(result));
    assert.match(String(result['message']), /`assurance\.not_applicable\.0` must be one of "format", "build"/);
  });
});

describe('conflicts are invalid_config at the dotted key', () => {
  const cases: [string, string, string, RegExp][] = [
    [
      'a known job also provided',
      '[jobs]\ntest = "true"\n\n[jobs.pytest]\nstage = "test"\nrun = "true"\nprovides = ["test"]\n',
      'jobs.pytest.provides.0',
      /names test, which `jobs\.test` also configures/,
    ],
    [
      'two providers of one name',
      '[jobs.unit]\nstage = "test"\nrun = "true"\nprovides = ["test"]\n\n[jobs.e2e]\nstage = "test"\nrun = "true"\nprovides = ["smoke", "test"]\n',
      'jobs.e2e.provides.1',
      /names test, which `jobs\.unit\.provides` names too/,
    ],
    [
      'a provider of another stage',
      '[jobs.clippy]\nstage = "test"\nrun = "true"\nprovides = ["lint"]\n',
      'jobs.clippy.provides.0',
      /names lint, a check-stage job, but `jobs\.clippy\.stage` is test/,
    ],
    [
      'not_applicable naming a configured job',
      '[jobs]\nsmoke = "true"\n\n[assurance]\nnot_applicable = ["build", "smoke"]\n',
      'assurance.not_applicable.1',
      /names smoke, which `jobs\.smoke` configures/,
    ],
    [
      'not_applicable naming a provided job',
      '[jobs.pytest]\nstage = "test"\nrun = "true"\nprovides = ["test"]\n\n[assurance]\nnot_applicable = ["test"]\n',
      'assurance.not_applicable.0',
      /names test, which `jobs\.pytest\.provides` provides/,
    ],
  ];
  for (const [what, toml, key, message] of cases)
    it(`${what}: on load and in validate-config`, async () => {
      const r = repo(toml);
      const loaded = await json(['status'], r.root);
      assert.equal(loaded['error'], 'invalid_config', show(loaded));
      assert.equal((data(loaded)['issues'] as Json[])[0]?.['path'], key, show(loaded));
      assert.match(String(loaded['message']), message);
      const checked = await json(['validate-config', 'discern.toml'], r.root);
      assert.equal(checked['error'], 'invalid_config', show(checked));
      const diagnostics = (checked['diagnostics'] as { message: string }[]) ?? [];
      assert.ok(
        diagnostics.some((d) => d.message.includes(`\`${key}\``) && message.test(d.message)),
        show(checked),
      );
    });
});

describe('setup', () => {
  it("a recipe's provides reaches the draft, and status mid-setup reports the test as wired by it", async () => {
    const r = scratchRepo({ 'README.md': '# x\n' });
    repos.push(r);
    const recipe = join(tempDir('discern-recipe-'), 'recipe.toml');
    writeFileSync(
      recipe,
      '[jobs]\nlint = "true"\n\n[jobs.pytest]\nstage = "test"\nrun = "true"\nprovides = ["test"]\n',
    );
    const begun = await json(['setup', 'begin', '--config', recipe], r.root);
    assert.equal(begun['ok'], true, show(begun));
    assert.match(
      String(data(begun)['draft']),
      /^\[jobs\.pytest\]\nstage = "test"\nrun = "true"\nprovides = \["test"\]$/m,
    );
    const status = await json(['status'], r.root);
    const unfinished = data(status)['setup_unfinished'] as { known_jobs: Json[] };
    assert.deepEqual(unfinished.known_jobs, [
      { name: 'format', wired: false },
      { name: 'build', wired: false },
      { name: 'lint', wired: true },
      { name: 'typecheck', wired: false },
      { name: 'test', wired: true, provided_by: 'pytest' },
      { name: 'smoke', wired: false },
    ]);
  });

  it('a recipe whose jobs conflict is refused before anything is written', async () => {
    const r = scratchRepo({ 'README.md': '# x\n' });
    repos.push(r);
    const recipe = join(tempDir('discern-recipe-'), 'recipe.toml');
    writeFileSync(
      recipe,
      '[jobs]\ntest = "true"\n\n[jobs.pytest]\nstage = "test"\nrun = "true"\nprovides = ["test"]\n',
    );
    const result = await json(['setup', 'begin', '--config', recipe], r.root);
    assert.equal(result['error'], 'invalid_config_file', show(result));
    assert.match(
      String(result['message']),
      /`jobs\.pytest\.provides\.0` names test, which `jobs\.test` also configures/,
    );
    assert.equal(existsSync(join(r.root, 'discern.toml')), false);
  });
});
