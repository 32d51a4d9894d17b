// Setup on repositories shaped like real ones, with the real CLI and the real toolchains: each drafts a
// discern.toml that works on a fresh clone — setup begin, then setup done green on the draft as written (proved in
// a fresh worktree, as start will use it), setup accept, and then start works. A Node library with an ignored
// lockfile the owner's own install left; a Node library whose test script chains three tools; a Rust crate; a Go
// module. A missing toolchain skips its case loudly, and fails under CI=true (.ci/run installs them).
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cleanEnv, scratchRepo, type ScratchRepo } from '../helpers/scratch-repo.js';
import { onlyJson, runCli } from '../helpers/cli.js';

const repos: ScratchRepo[] = [];
after(() => repos.forEach((r) => r.cleanup()));

/** Whether `program` runs here; under CI a missing one is a failure, elsewhere a loud skip. */
function available(program: string, args: string[] = ['--version']): boolean {
  const found = spawnSync(program, args, { stdio: 'ignore' }).status === 0;
  if (!found && process.env['CI'] === 'true') assert.fail(`${program} is not installed: .ci/run installs it`);
  return found;
}

function repo(files: Record<string, string>): ScratchRepo {
  const r = scratchRepo(files);
  repos.push(r);
  return r;
}

/** The environment of a call: `extra` adds to it (an offline pip's settings). */
let extra: Record<string, string> = {};

async function cli(cwd: string, ...args: string[]): Promise<Record<string, unknown>> {
  return onlyJson(await runCli([...args, '--json'], { cwd, env: cleanEnv({ GIT_CONFIG_NOSYSTEM: '1', ...extra }) }));
}

/**
 * pip with no package index (none is reachable here) and no build isolation: a package with no dependencies
 * installs from its own setup.py (`setup.py develop`), with the virtualenv's setuptools. The draft's command is
 * the ordinary `pip install -e .`; only the machine's pip settings say offline.
 */
const OFFLINE_PIP = { PIP_CONFIG_FILE: '/dev/null', PIP_NO_INDEX: '1', PIP_USE_PEP517: '0' };

/** begin → done (green on the draft as written) → accept → start; returns the draft. */
async function setUpAndStart(r: ScratchRepo, env: Record<string, string> = {}): Promise<string> {
  extra = env;
  const begun = await cli(r.root, 'setup', 'begin');
  assert.equal(begun['ok'], true, JSON.stringify(begun, null, 2));
  const draft = (begun['data'] as { draft: string }).draft;
  const done = await cli(r.root, 'setup', 'done');
  assert.equal(done['ok'], true, `setup done on the draft as written:\n${draft}\n${JSON.stringify(done, null, 2)}`);
  const steps = (done['steps'] as { label: string }[]).map((s) => s.label);
  assert.ok(
    steps.some((l) => l.includes('in a fresh worktree')),
    'proved in a fresh worktree',
  );
  const accepted = await cli(r.root, 'setup', 'accept');
  assert.equal(accepted['ok'], true, JSON.stringify(accepted, null, 2));
  const started = await cli(r.root, 'start', 'first-task');
  assert.equal(started['ok'], true, `start on the landed draft:\n${JSON.stringify(started, null, 2)}`);
  return draft;
}

/** A local package with a bin that succeeds: a stand-in for a real tool, installable with no registry. */
function fakeTool(name: string): Record<string, string> {
  return {
    [`vendor/${name}/package.json`]: JSON.stringify({ name, version: '1.0.0', bin: { [name]: 'cli.js' } }),
    [`vendor/${name}/cli.js`]: `#!/usr/bin/env node\nconsole.log('${name}: ok');\n`,
  };
}

describe('setup drafts what works on a fresh clone', () => {
  it('a Node library whose lockfile is ignored: the draft installs without one, and setup done is green', async (t) => {
    if (!available('npm')) return t.skip('npm is not installed');
    const r = repo({
      'package.json': JSON.stringify(
        { name: 'ignored-lock', version: '1.0.0', scripts: { test: 'node --test' } },
        null,
        2,
      ),
      '.gitignore': 'node_modules/\npackage-lock.json\n',
      'test/sum.test.js':
        "const test = require('node:test');\ntest('adds', () => { if (1 + 1 !== 2) throw new Error('no'); });\n",
    });
    // The owner's own install left a lockfile the repository ignores.
    execFileSync('npm', ['install', '--no-audit', '--no-fund'], { cwd: r.root, stdio: 'ignore' });
    assert.ok(existsSync(join(r.root, 'package-lock.json')));
    const draft = await setUpAndStart(r);
    assert.match(draft, /^ensure = \["npm install --no-package-lock"\]$/m, draft);
  });

  it("a draft that works only in the owner's checkout is not green: npm ci over an ignored lockfile fails in the fresh worktree", async (t) => {
    if (!available('npm')) return t.skip('npm is not installed');
    const r = repo({
      'package.json': JSON.stringify(
        { name: 'only-here', version: '1.0.0', scripts: { test: 'node --test' } },
        null,
        2,
      ),
      '.gitignore': 'node_modules/\npackage-lock.json\n',
      'test/one.test.js': "require('node:test')('one', () => {});\n",
    });
    execFileSync('npm', ['install', '--no-audit', '--no-fund'], { cwd: r.root, stdio: 'ignore' });
    const begun = await cli(r.root, 'setup', 'begin');
    assert.equal(begun['ok'], true, JSON.stringify(begun));
    // The owner changes the install to the one their checkout happens to allow: its lockfile is not committed.
    const file = join(r.root, 'discern.toml');
    writeFileSync(file, readFileSync(file, 'utf8').replace('"npm install --no-package-lock"', '"npm ci"'));
    r.git('commit', '-q', '-am', 'npm ci');
    const done = await cli(r.root, 'setup', 'done');
    assert.equal(done['error'], 'gate_failed', JSON.stringify(done, null, 2));
    assert.match(String(done['message']), /fresh worktree of the setup commit.*npm ci/s);
  });

  it('a Node library whose test script chains xo, ava and tsd: three jobs, proved green', async (t) => {
    if (!available('npm')) return t.skip('npm is not installed');
    const r = repo({
      'package.json': JSON.stringify(
        {
          name: 'chained',
          version: '1.0.0',
          scripts: { test: 'xo && ava && tsd' },
          devDependencies: { xo: 'file:vendor/xo', ava: 'file:vendor/ava', tsd: 'file:vendor/tsd' },
        },
        null,
        2,
      ),
      '.gitignore': 'node_modules/\n',
      ...fakeTool('xo'),
      ...fakeTool('ava'),
      ...fakeTool('tsd'),
    });
    // A bin is committed executable, as a published package's is (npm would make it so in every install).
    for (const tool of ['xo', 'ava', 'tsd']) chmodSync(join(r.root, 'vendor', tool, 'cli.js'), 0o755);
    r.git('add', '-A');
    r.git('commit', '-q', '-m', 'executable bins');
    const draft = await setUpAndStart(r);
    for (const [name, stage] of [
      ['xo', 'check'],
      ['ava', 'test'],
      ['tsd', 'check'],
    ])
      assert.match(draft, new RegExp(`^\\[jobs\\.${name}\\]\\nstage = "${stage}"\\nrun = "npx ${name}"$`, 'm'), draft);
    assert.match(
      draft,
      /^split_scripts = \[\{ file = "package.json", script = "test", text = "xo && ava && tsd" \}\]$/m,
    );
  });

  it('a Rust crate: cargo fmt --check, clippy and cargo test, proved green', async (t) => {
    if (
      !available('cargo') ||
      !available('cargo', ['clippy', '--version']) ||
      !available('cargo', ['fmt', '--version'])
    )
      return t.skip('cargo, clippy or rustfmt is not installed');
    const r = repo({
      'Cargo.toml': '[package]\nname = "ferris"\nversion = "0.1.0"\nedition = "2021"\n\n[dependencies]\n',
      'src/lib.rs':
        'pub fn add(a: u32, b: u32) -> u32 {\n    a + b\n}\n\n#[cfg(test)]\nmod tests {\n    use super::*;\n\n    #[test]\n    fn adds() {\n        assert_eq!(add(1, 2), 3);\n    }\n}\n',
      '.gitignore': '/target\n',
    });
    // A lockfile committed, as cargo new and a first build leave one.
    execFileSync('cargo', ['generate-lockfile', '--offline'], { cwd: r.root, stdio: 'ignore' });
    r.git('add', '-A');
    r.git('commit', '-q', '-m', 'lockfile');
    const draft = await setUpAndStart(r);
    assert.match(draft, /^format = "cargo fmt --all --check"$/m, draft);
    assert.match(draft, /^test = "cargo test"$/m);
  });

  const SRC_LAYOUT = {
    'setup.cfg':
      '[metadata]\nname = calc\nversion = 0.1.0\n\n[options]\npackage_dir =\n    = src\npackages = find:\n\n[options.packages.find]\nwhere = src\n',
    'setup.py': 'from setuptools import setup\n\nsetup()\n',
    'src/calc/__init__.py': 'def add(a, b):\n    return a + b\n',
    'tests/test_calc.py':
      'import unittest\n\nfrom calc import add\n\n\nclass AddTest(unittest.TestCase):\n    def test_add(self):\n        self.assertEqual(add(1, 2), 3)\n',
  };

  it('a Python src layout with no runner: a virtualenv in the worktree, the package installed, proved green', async (t) => {
    if (!available('python3')) return t.skip('python3 is not installed');
    const r = repo({ ...SRC_LAYOUT, '.gitignore': '*.egg-info/\n__pycache__/\n' });
    const draft = await setUpAndStart(r, OFFLINE_PIP);
    assert.ok(
      draft.includes(
        `ensure = ["python3 -m venv .venv", "printf '*\\\\n' > .venv/.gitignore", ".venv/bin/python -m pip install -e ."]`,
      ),
      draft,
    );
    assert.ok(draft.includes('test = ".venv/bin/python -m unittest discover -s tests"'), draft);
  });

  it('a Python src layout with tox: each environment a job, docs read by a doctest not neutral, proved green', async (t) => {
    if (!available('python3') || !available('tox')) return t.skip('python3 or tox is not installed');
    const r = repo({
      ...SRC_LAYOUT,
      'tox.ini':
        '[tox]\nenvlist = py, lint, doctest\nskipsdist = true\n\n[testenv]\nskip_install = true\nsetenv =\n    PYTHONPATH = {toxinidir}/src\ncommands = python -m unittest discover -s tests\n\n[testenv:lint]\ncommands = python -m compileall -q src\n\n[testenv:doctest]\ncommands = python -m doctest docs/usage.rst\n',
      'docs/usage.rst': 'Usage\n=====\n\n>>> from calc import add\n>>> add(2, 2)\n4\n',
      '.gitignore': '.tox/\n*.egg-info/\n__pycache__/\n',
    });
    const draft = await setUpAndStart(r, OFFLINE_PIP);
    for (const [env, stage] of [
      ['py', 'test'],
      ['lint', 'check'],
      ['doctest', 'test'],
    ])
      assert.ok(draft.includes(`[jobs.tox-${env}]\nstage = "${stage}"\nrun = "tox -e ${env}"`), draft);
    assert.ok(!draft.includes('[scopes.docs]'), 'tox runs a doctest over docs/: not neutral');
    assert.ok(!/^ensure = /m.test(draft), 'tox makes its own environments');
  });

  it('a Go module: gofmt, go vet and go test, proved green', async (t) => {
    if (!available('go', ['version'])) return t.skip('go is not installed');
    const r = repo({
      'go.mod': 'module example.com/gopher\n\ngo 1.19\n',
      'add.go': 'package gopher\n\n// Add adds.\nfunc Add(a, b int) int {\n\treturn a + b\n}\n',
      'add_test.go':
        'package gopher\n\nimport "testing"\n\nfunc TestAdd(t *testing.T) {\n\tif Add(1, 2) != 3 {\n\t\tt.Fatal("no")\n\t}\n}\n',
    });
    const draft = await setUpAndStart(r);
    assert.match(draft, /^format = "test -z \\"\$\(gofmt -l \.\)\\""$/m, draft);
    assert.match(draft, /^test = "go test \.\/\.\.\."$/m);
  });
});
