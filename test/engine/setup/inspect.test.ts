// Setup's inspection and draft on synthetic repositories of four ecosystems (plus a Makefile and CI): the facts
// found, the jobs proposed with their evidence, and a draft that discern's own config validation accepts.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseConfig } from '../../../src/engine/config/validate.js';
import { draftConfig } from '../../../src/engine/setup/draft-toml.js';
import { slugFrom } from '../../../src/engine/setup/proposal.js';
import { inspectRepository } from '../../../src/engine/setup/inspect.js';
import { runCommands } from '../../../src/engine/setup/ci-steps.js';
import { cleanEnv, scratchRepo } from '../../helpers/scratch-repo.js';

const env = cleanEnv();

function jobs(facts: Awaited<ReturnType<typeof inspectRepository>>): Record<string, string[]> {
  return Object.fromEntries(facts.jobs.map((j) => [j.name, j.run]));
}

function assertValidDraft(text: string): void {
  const load = parseConfig(new TextEncoder().encode(text));
  assert.equal(load.ok, true, load.ok ? '' : JSON.stringify(load));
}

test('a Node project: pnpm from its lockfile, scripts before tools, npm placeholder test ignored', async () => {
  const repo = scratchRepo();
  repo.write(
    'package.json',
    JSON.stringify({
      name: '@acme/web-app',
      scripts: { lint: 'eslint src', build: 'tsc -p .', test: 'vitest run' },
      devDependencies: { prettier: '3', typescript: '5', vitest: '2' },
    }),
  );
  repo.write('pnpm-lock.yaml', 'lockfileVersion: 9\n');
  repo.write('tsconfig.json', '{}');
  repo.write(
    '.github/workflows/ci.yml',
    'jobs:\n  t:\n    steps:\n      - run: pnpm install --frozen-lockfile\n      - run: |\n          pnpm run lint\n          pnpm test\n',
  );
  repo.write('docs/guide.md', '# Guide\n');
  repo.commit('node');
  const facts = await inspectRepository(repo.root, { env });
  assert.deepEqual(facts.ecosystems, ['node']);
  assert.equal(facts.node?.package_manager, 'pnpm');
  assert.equal(facts.name, '@acme/web-app');
  assert.deepEqual(jobs(facts), {
    format: ['pnpm exec prettier --write .'],
    build: ['pnpm run build'],
    lint: ['pnpm run lint'],
    typecheck: ['pnpm exec tsc --noEmit'],
    test: ['pnpm run test'],
  });
  assert.match(facts.jobs.find((j) => j.name === 'lint')?.why ?? '', /`lint` script .*CI runs `pnpm run lint` too/);
  assert.deepEqual(
    facts.ensure.map((e) => e.run),
    ['pnpm install --frozen-lockfile'],
  );
  assert.deepEqual(facts.docs_dirs, ['docs']);
  assert.equal(facts.branch, 'main');
  const draft = draftConfig(facts);
  assert.match(draft, /^slug = "web-app"$/m);
  assert.match(draft, /^\[scopes\.docs\]\npaths = \["docs\/\*\*"\]\nneutral = true$/m);
  assertValidDraft(draft);

  const plain = scratchRepo();
  plain.write(
    'package.json',
    JSON.stringify({ name: 'x', scripts: { test: 'echo "Error: no test specified" && exit 1' } }),
  );
  plain.commit('npm init');
  const bare = await inspectRepository(plain.root, { env });
  assert.deepEqual(jobs(bare), {}, 'the placeholder test script is not a test suite');
  assert.deepEqual(
    bare.ensure.map((e) => e.run),
    ['npm install --no-package-lock'],
  );
  assertValidDraft(draftConfig(bare));
});

test('a Python project with uv: ruff, mypy and pytest from pyproject.toml, run through uv', async () => {
  const repo = scratchRepo();
  repo.write(
    'pyproject.toml',
    '[project]\nname = "Data Tools"\ndependencies = []\n[dependency-groups]\ndev = ["pytest>=8", "mypy"]\n[tool.ruff]\nline-length = 100\n',
  );
  repo.write('uv.lock', 'version = 1\n');
  repo.commit('python');
  const facts = await inspectRepository(repo.root, { env });
  assert.deepEqual(facts.ecosystems, ['python']);
  assert.equal(facts.python?.installer, 'uv');
  assert.deepEqual(jobs(facts), {
    format: ['uv run ruff format --check .'],
    lint: ['uv run ruff check .'],
    typecheck: ['uv run mypy .'],
    test: ['uv run pytest'],
  });
  assert.deepEqual(
    facts.ensure.map((e) => e.run),
    ['uv sync'],
  );
  const draft = draftConfig(facts);
  assert.match(draft, /^slug = "data-tools"$/m);
  assertValidDraft(draft);
});

test("a Python project with tox: each environment a job, tox's own; docs read by a doctest are not neutral", async () => {
  const repo = scratchRepo();
  repo.write('pyproject.toml', '[project]\nname = "calc"\n[tool.pytest.ini_options]\ntestpaths = ["tests"]\n');
  repo.write('uv.lock', 'version = 1\n');
  repo.write(
    'tox.ini',
    '[tox]\nenvlist = py{311,312}, flake8,\n    doctest\n\n[testenv]\ndeps = pytest\ncommands = pytest\n\n[testenv:doctest]\ncommands = pytest --doctest-glob="*.rst" docs/\n',
  );
  repo.write('docs/index.rst', 'Calc\n====\n');
  repo.commit('python');
  const facts = await inspectRepository(repo.root, { env });
  assert.deepEqual(facts.python?.tox_envs, ['py311', 'py312', 'flake8', 'doctest']);
  assert.deepEqual(
    facts.jobs.map((j) => `${j.name}:${j.stage ?? 'known'}:${j.run.join('|')}`),
    [
      'tox-py311:test:tox -e py311',
      'tox-py312:test:tox -e py312',
      'tox-flake8:check:tox -e flake8',
      'tox-doctest:test:tox -e doctest',
    ],
  );
  assert.deepEqual(facts.ensure, [], 'tox makes its own environments');
  const draft = draftConfig(facts);
  assertValidDraft(draft);
  assert.doesNotMatch(draft, /\[scopes\.docs\]/, 'tox runs doctests from docs/: it is not neutral');
});

test('a Python src layout with no runner: a virtualenv in the worktree, the package installed, unittest', async () => {
  const repo = scratchRepo();
  repo.write(
    'setup.cfg',
    '[metadata]\nname = calc\n\n[options]\npackage_dir =\n    = src\npackages = find:\n\n[options.packages.find]\nwhere = src\n',
  );
  repo.write('setup.py', 'from setuptools import setup\n\nsetup()\n');
  repo.write('src/calc/__init__.py', 'def add(a, b):\n    return a + b\n');
  repo.write('tests/test_calc.py', 'import unittest\n');
  repo.commit('python');
  const facts = await inspectRepository(repo.root, { env });
  assert.deepEqual(jobs(facts), { test: ['.venv/bin/python -m unittest discover -s tests'] });
  assert.deepEqual(
    facts.ensure.map((e) => e.run),
    ['python3 -m venv .venv', "printf '*\\n' > .venv/.gitignore", '.venv/bin/python -m pip install -e .'],
  );
  assertValidDraft(draftConfig(facts));
});

test('a Rust workspace and a Go module get their toolchains’ conventional commands', async () => {
  const rust = scratchRepo();
  rust.write('Cargo.toml', '[workspace]\nmembers = ["crates/*"]\n');
  rust.commit('rust');
  const r = await inspectRepository(rust.root, { env });
  assert.deepEqual(r.ecosystems, ['rust']);
  assert.equal(r.rust?.workspace, true);
  assert.deepEqual(jobs(r), {
    format: ['cargo fmt --all --check'],
    lint: ['cargo clippy --all-targets -- -D warnings'],
    test: ['cargo test'],
  });
  assert.deepEqual(
    r.ensure.map((e) => e.run),
    [],
    'no Cargo.lock is committed: cargo fetch would write one and every worktree would start dirty',
  );
  assertValidDraft(draftConfig(r));

  const go = scratchRepo();
  go.write('go.mod', 'module example.com/svc\n\ngo 1.22\n');
  go.write(
    'Makefile',
    '.PHONY: test lint\ntest:\n\tgo test -race ./...\nlint: vet\nvet:\n\tgo vet ./...\n%.o: %.c\n\tcc $<\n',
  );
  go.commit('go');
  const g = await inspectRepository(go.root, { env });
  assert.deepEqual(g.go, { module: 'example.com/svc' });
  assert.deepEqual(g.make_targets, ['test', 'lint', 'vet']);
  assert.deepEqual(jobs(g), {
    format: ['test -z "$(gofmt -l .)"'],
    lint: ['make lint', 'go vet ./...'],
    test: ['make test', 'go test ./...'],
  });
  assertValidDraft(draftConfig(g));
});

test('an empty repository gets a draft that says what to add, and still validates', async () => {
  const repo = scratchRepo();
  repo.write('README.md', '# nothing yet\n');
  repo.commit('empty');
  const facts = await inspectRepository(repo.root, { env });
  assert.deepEqual(facts.ecosystems, []);
  assert.deepEqual(facts.jobs, []);
  const draft = draftConfig(facts);
  assert.match(draft, /No test, lint or build command was found/);
  assertValidDraft(draft);
});

test('CI run steps: plain, quoted and block scalars; comments dropped', () => {
  const yaml = [
    'steps:',
    '  - run: npm ci',
    "  - run: 'make test' # quoted",
    '  - name: x',
    '    run: >-',
    '      echo a',
    '      # not a command',
    '  - uses: actions/checkout@v4',
  ].join('\n');
  assert.deepEqual(runCommands(yaml), ['npm ci', 'make test', 'echo a']);
});

test('slugs from names', () => {
  assert.equal(slugFrom('Acme API'), 'acme-api');
  assert.equal(slugFrom('@scope/Pkg.Name'), 'pkg-name');
  assert.equal(slugFrom('!!!'), undefined);
  assert.equal(slugFrom('x'.repeat(80))?.length, 63);
});

test('only what git tracks, or would track, is read: an ignored lockfile is not; an untracked file is, and said', async () => {
  const repo = scratchRepo();
  repo.write('package.json', JSON.stringify({ name: 'ignored-lock', scripts: { test: 'node --test' } }));
  repo.write('.gitignore', 'package-lock.json\nnode_modules/\n');
  repo.commit('node');
  // The user's own `npm install` left a lockfile the repository ignores, and a Makefile not yet committed.
  repo.write('package-lock.json', '{"lockfileVersion": 3}\n');
  repo.write('Makefile', 'lint:\n\techo lint\n');
  const facts = await inspectRepository(repo.root, { env });
  assert.equal(facts.node?.lockfile, undefined, 'the ignored lockfile was not read');
  assert.deepEqual(
    facts.ensure.map((e) => e.run),
    ['npm install --no-package-lock'],
    'a fresh clone has no lockfile: npm ci would fail there',
  );
  assert.deepEqual(facts.make_targets, ['lint'], 'the untracked Makefile is read');
  assert.deepEqual(facts.untracked, ['Makefile'], 'and named, to be committed before setup done');
});

test('a chained script splits into one job per part where each part is a known tool, citing the script', async () => {
  const repo = scratchRepo();
  repo.write(
    'package.json',
    JSON.stringify({
      name: 'chained',
      scripts: { test: 'xo && ava && tsd', lint: 'eslint --fix . && prettier --check .' },
      devDependencies: { xo: '1', ava: '1', tsd: '1' },
    }),
  );
  repo.commit('chained');
  const facts = await inspectRepository(repo.root, { env });
  const byName = Object.fromEntries(facts.jobs.map((j) => [j.name, j]));
  assert.deepEqual(
    facts.jobs.map((j) => `${j.name}:${j.stage ?? 'known'}:${j.run.join('|')}`),
    ['lint:known:npm run lint', 'xo:check:npx xo', 'ava:test:npx ava', 'tsd:check:npx tsd'],
    'the lint script fixes files (--fix): it stays one job; the test chain splits',
  );
  assert.deepEqual(byName['ava']?.source, { file: 'package.json', script: 'test', text: 'xo && ava && tsd' });
  const draft = draftConfig(facts);
  assertValidDraft(draft);
  assert.match(draft, /^split_scripts = \[\{ file = "package.json", script = "test", text = "xo && ava && tsd" \}\]$/m);
  assert.match(draft, /^\[jobs\.ava\]\nstage = "test"\nrun = "npx ava"$/m);
});
