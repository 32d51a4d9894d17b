// The reproduce command narrowed to one failure (src/engine/diagnostics/reproduce.ts): the job's options kept, its
// own selections replaced, shell it cannot read left alone. The live runner test runs these commands for real.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Narrowing } from '../../../src/engine/diagnostics/narrowing.js';
import { exactPattern } from '../../../src/engine/diagnostics/narrowing.js';
import { narrowCommand } from '../../../src/engine/diagnostics/reproduce.js';
import { simpleCommandWords } from '../../../src/engine/process/shell-words.js';

const pytest: Narrowing = { runner: 'pytest', args: ['tests/test_x.py::test_y[a b]'] };
const jest: Narrowing = { runner: 'jest', args: ['test/a.test.js', '-t', exactPattern('math adds (1+1)')] };

describe('narrowCommand', () => {
  const cases: [string, Narrowing, string | undefined][] = [
    ['python3 -m pytest -q tests', pytest, "python3 -m pytest -q 'tests/test_x.py::test_y[a b]'"],
    // An option's value is kept with it; the job's own selection, name filter and last-failed mode go.
    [
      'uv run pytest -p no:cacheprovider -k slow --lf --tb short tests/unit tests/int',
      pytest,
      "uv run pytest -p no:cacheprovider --tb short 'tests/test_x.py::test_y[a b]'",
    ],
    ['.venv/bin/pytest --maxfail=1 -x', pytest, ".venv/bin/pytest 'tests/test_x.py::test_y[a b]'"],
    [
      'npx jest --ci --config jest.config.js test/',
      jest,
      "npx jest --ci --config jest.config.js test/a.test.js -t '^math adds \\(1\\+1\\)$'",
    ],
    // Unquoted globs among the kept words stay as written.
    ['npx eslint --ignore-pattern dist/* src', { file: 'src/a.js' }, 'npx eslint --ignore-pattern dist/* src/a.js'],
    ['vitest', { runner: 'vitest', args: ['t.test.ts', '-t', '^x$'] }, "vitest run t.test.ts -t '^x$'"],
    [
      'npx vitest run --reporter dot',
      { runner: 'vitest', args: ['t.test.ts'] },
      'npx vitest run --reporter dot t.test.ts',
    ],
    [
      'node --import tsx --test --test-reporter=spec test/*.test.ts',
      { runner: 'node-test', args: ['--test-name-pattern=^x$', 'test/a.test.ts'] },
      "node --import tsx --test --test-reporter=spec '--test-name-pattern=^x$' test/a.test.ts",
    ],
    [
      'go test -v -count=1 ./...',
      { runner: 'go-test', args: ['-run', '^TestA$', './pkg'] },
      "go test -v -count=1 -run '^TestA$' ./pkg",
    ],
    [
      'cargo test --workspace -- --nocapture',
      { runner: 'cargo-test', args: ['--lib', 'tests::adds'], binaryArgs: ['--exact'] },
      'cargo test --workspace --lib tests::adds -- --nocapture --exact',
    ],
    [
      'cargo +nightly test',
      { runner: 'cargo-test', args: ['--test', 'api', 'z'], binaryArgs: ['--exact'] },
      'cargo +nightly test --test api z -- --exact',
    ],
    [
      'python3 -m unittest discover -s tests -p "test_*.py"',
      { runner: 'unittest', args: ['-k', 'test_calc.T.test_a'] },
      'python3 -m unittest discover -s tests -p "test_*.py" -k test_calc.T.test_a',
    ],
    ['biome lint --max-diagnostics 5 .', { file: 'src/a.js' }, 'biome lint --max-diagnostics 5 src/a.js'],
    ['flake8 --max-line-length 100 app tests', { file: 'app/u.py' }, 'flake8 --max-line-length 100 app/u.py'],
    ['ruff check .', { file: 'app/u.py' }, 'ruff check app/u.py'],
    ['mypy -p app', { file: 'app/u.py' }, 'mypy app/u.py'],
    // What it cannot rewrite with certainty it leaves to the job's own command.
    ['npm run lint && npx jest', jest, undefined],
    ['FOO=$BAR pytest', pytest, undefined],
    ['pytest tests > out.txt', pytest, undefined],
    ['make test', pytest, undefined],
    ['tsc -p .', { file: 'src/a.ts' }, undefined],
    ['gcc -c main.c', { file: 'main.c' }, undefined],
    // An option the table does not know, before a plain word: its value or a selection? Only the tool knows.
    ['pytest --cov src tests', pytest, undefined],
    ['npx jest --someNewOption test/', jest, undefined],
    // An option known to take a value keeps it; unittest discover's start directory and pattern stay.
    [
      'npx mocha --exclude test/slow.js test/',
      { runner: 'mocha', args: ['test/a.js', '--grep', '^x$'] },
      "npx mocha --exclude test/slow.js test/a.js --grep '^x$'",
    ],
    [
      'python3 -m unittest discover tests "test_*.py"',
      { runner: 'unittest', args: ['-k', 'test_calc.T.test_a'] },
      'python3 -m unittest discover tests "test_*.py" -k test_calc.T.test_a',
    ],
    [
      'python3 -m unittest tests.test_calc',
      { runner: 'unittest', args: ['-k', 'test_calc.T.test_a'] },
      'python3 -m unittest -k test_calc.T.test_a',
    ],
  ];
  for (const [command, narrowing, expected] of cases)
    it(`${command} → ${expected ?? '(the job’s command)'}`, () =>
      assert.equal(narrowCommand(command, narrowing), expected));

  it('never lets a word from the output reach the runner as an option', () => {
    assert.equal(narrowCommand('npx jest', { runner: 'jest', args: ['--config=evil.js', '-t', '^x$'] }), undefined);
    assert.equal(narrowCommand('npx eslint src', { file: '--rulesdir=/tmp/evil' }), undefined);
    assert.equal(narrowCommand('npx ava', { runner: 'ava', args: ['t.js', '--match', '--serial'] }), undefined);
    assert.equal(narrowCommand('pytest', { runner: 'pytest', args: ['-p::evil'] }), undefined);
    // A place outside the checkout is not rerun, whatever the output says.
    assert.equal(narrowCommand('npx eslint src', { file: '../../outside/x.js' }), undefined);
    assert.equal(narrowCommand('npx eslint src', { file: '/tmp/evil.js' }), undefined);
    assert.equal(
      narrowCommand('node --test', { runner: 'node-test', args: ['--test-name-pattern=^x$', '/tmp/evil.js'] }),
      undefined,
    );
    assert.equal(narrowCommand('pytest', { runner: 'pytest', args: ['tests/../../x.py::t'] }), undefined);
    // A test name that merely contains a dash is fine.
    assert.equal(
      narrowCommand('npx ava', { runner: 'ava', args: ['t.js', '--match', 'a - b'] }),
      "npx ava t.js --match 'a - b'",
    );
  });

  it('reads a package script that is one runner command through, with the package manager’s exec for a bin', () => {
    const scripts = {
      test: 'jest --ci',
      unit: 'node --test test/',
      both: 'jest && eslint .',
      pretest2: 'x',
      test2: 'jest',
    };
    assert.equal(
      narrowCommand('npm test', jest, { scripts }),
      "npx jest --ci test/a.test.js -t '^math adds \\(1\\+1\\)$'",
    );
    assert.equal(
      narrowCommand('pnpm run test', jest, { scripts }),
      "pnpm exec jest --ci test/a.test.js -t '^math adds \\(1\\+1\\)$'",
    );
    assert.equal(
      narrowCommand(
        'npm run unit',
        { runner: 'node-test', args: ['--test-name-pattern=^x$', 'test/a.test.js'] },
        { scripts },
      ),
      "node --test '--test-name-pattern=^x$' test/a.test.js",
    );
    // The script's environment words stay in front of the package manager's exec, where the shell reads them.
    assert.equal(
      narrowCommand('npm test', jest, { scripts: { test: 'NODE_OPTIONS=--experimental-vm-modules jest --ci' } }),
      "NODE_OPTIONS=--experimental-vm-modules npx jest --ci test/a.test.js -t '^math adds \\(1\\+1\\)$'",
    );
    // A chain, or a script npm wraps with a pre-script, is not one runner command.
    assert.equal(narrowCommand('npm run both', jest, { scripts }), undefined);
    assert.equal(narrowCommand('npm run test2', jest, { scripts }), undefined);
    assert.equal(narrowCommand('npm test', jest), undefined);
  });
});

describe('simpleCommandWords', () => {
  it('splits quoted and escaped words and keeps each as written', () => {
    assert.deepEqual(simpleCommandWords(`  pytest -k 'a and b' "x\\"y" z\\ w src/*.py`), [
      { value: 'pytest', raw: 'pytest' },
      { value: '-k', raw: '-k' },
      { value: 'a and b', raw: "'a and b'" },
      { value: 'x"y', raw: '"x\\"y"' },
      { value: 'z w', raw: 'z\\ w' },
      { value: 'src/*.py', raw: 'src/*.py' },
    ]);
  });
  it('refuses shell syntax whose meaning is the shell’s', () => {
    for (const line of [
      'a && b',
      'a; b',
      'a | b',
      'a > f',
      'a $(b)',
      'a `b`',
      'a "$HOME"',
      "a 'open",
      'a # c',
      'a\nb',
      '',
      '   ',
    ])
      assert.equal(simpleCommandWords(line), undefined, line);
  });
});
