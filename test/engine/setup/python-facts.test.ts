// Python facts read from a project's own runner files: tox's envlist with factors expanded, nox's sessions.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { noxSessionNames, toxEnvironments } from '../../../src/engine/setup/python-facts.js';
import { pythonPlan } from '../../../src/engine/setup/python-plan.js';
import { resolveCommand } from '../../../src/engine/jobs/resolve-command.js';

test("tox's envlist: commas, newlines and {a,b} factors", () => {
  assert.deepEqual(toxEnvironments('[tox]\nenvlist = py{311,312}-{unit,int}, lint\n'), [
    'py311-unit',
    'py311-int',
    'py312-unit',
    'py312-int',
    'lint',
  ]);
  assert.deepEqual(toxEnvironments('[tox]\nenvlist =\n    py\n    flake8\n\n[testenv]\ncommands = pytest\n'), [
    'py',
    'flake8',
  ]);
  assert.deepEqual(toxEnvironments('[testenv]\nenvlist = not-the-tox-section\n'), []);
});

test("nox's sessions, named by the function or by name=", () => {
  assert.deepEqual(
    noxSessionNames(
      'import nox\n\n@nox.session\ndef tests(session):\n    pass\n\n@nox.session(python=["3.11"], name="lint")\ndef run_lint(session):\n    pass\n',
    ),
    ['tests', 'lint'],
  );
});

test('nox sessions and hatch scripts become jobs of their own, each with its stage', () => {
  const nox = pythonPlan({ markers: ['noxfile.py'], tools: ['nox'], tox_envs: [], nox_sessions: ['tests', 'lint'] });
  assert.deepEqual(
    nox.jobs.map((j) => `${j.name}:${j.stage}:${j.run.join('|')}`),
    ['nox-tests:test:nox -s tests', 'nox-lint:check:nox -s lint'],
  );
  const hatch = pythonPlan({
    markers: ['pyproject.toml'],
    tools: ['hatch'],
    tox_envs: [],
    hatch_scripts: [
      { env: 'default', script: 'test' },
      { env: 'lint', script: 'style' },
    ],
  });
  assert.deepEqual(
    hatch.jobs.map((j) => `${j.name}:${j.stage}:${j.run.join('|')}`),
    ['hatch-test:test:hatch run test', 'hatch-lint-style:check:hatch run lint:style'],
  );
});

test('a program an ensure command makes (a virtualenv) is no failure before ensure runs', async () => {
  const env = { PATH: process.env['PATH'] ?? '' };
  const root = '/nonexistent-discern-root';
  assert.equal((await resolveCommand('.venv/bin/python -m pytest', root, env)).status, 'fail');
  const made = await resolveCommand('.venv/bin/python -m pytest', root, env, ['python3 -m venv .venv']);
  assert.equal(made.status, 'ok');
  assert.match(made.detail, /made by the ensure command `python3 -m venv \.venv`/);
  assert.equal(
    (await resolveCommand('.venv/bin/python', root, env, ['python3 -m venv .venvs'])).status,
    'fail',
    'a different directory is not it',
  );
});

test('the runner CI runs wins over the default order, when the project has it', () => {
  const both = { markers: ['tox.ini', 'noxfile.py'], tools: ['nox', 'tox'], tox_envs: ['py'], nox_sessions: ['tests'] };
  assert.deepEqual(
    pythonPlan(both).jobs.map((j) => j.run[0]),
    ['tox -e py'],
  );
  assert.deepEqual(
    pythonPlan(both, [{ run: 'nox -s tests' }]).jobs.map((j) => j.run[0]),
    ['nox -s tests'],
  );
});
