// Shapes of the runners' reports that the captured fixtures do not hold, each written from a capture with the
// one documented difference applied: Rust before 1.73, Python 3.10's unittest header, Node 20 releases before the
// `failing tests` summary, TAP's SKIP and TODO, jest's console blocks, and outputs that only look like a report.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { diagnoseText } from '../../../src/engine/diagnostics/index.js';

const job = (reproduce_cmd: string) => ({ tool: 'test', reproduce_cmd, output_path: '/logs/test.log', cwd: '/repo' });

function located(text: string, command = 'true', goModule?: string) {
  const diagnosis = diagnoseText(text, job(command), goModule === undefined ? {} : { project: { goModule } });
  return {
    format: diagnosis.format,
    found: diagnosis.diagnostics.map((d) => [d.file, d.line, d.rule, d.message.split('\n')[0], d.reproduce_cmd]),
  };
}

describe('runner report shapes beyond the captures', () => {
  it('cargo test before Rust 1.73: the message is quoted on the panic line', () => {
    const text = [
      '     Running unittests src/lib.rs (target/debug/deps/calc-1)',
      '---- tests::adds stdout ----',
      "thread 'tests::adds' panicked at 'assertion failed: `(left == right)`', src/lib.rs:20:9",
      '',
      'failures:',
    ].join('\n');
    assert.deepEqual(located(text, 'cargo test').found, [
      [
        'src/lib.rs',
        20,
        'tests::adds',
        'assertion failed: `(left == right)`',
        'cargo test --lib tests::adds -- --exact',
      ],
    ]);
  });

  it("unittest on Python 3.10: the header names the class, not the method's full id", () => {
    const text = [
      '======================================================================',
      'FAIL: test_half (test_calc.RatioTest)',
      '----------------------------------------------------------------------',
      'Traceback (most recent call last):',
      '  File "/repo/tests/test_calc.py", line 20, in test_half',
      '    self.assertEqual(ratio(1, 2), 0.25)',
      'AssertionError: 0.5 != 0.25',
      '',
      '----------------------------------------------------------------------',
    ].join('\n');
    assert.deepEqual(located(text, 'python3 -m unittest').found, [
      [
        'tests/test_calc.py',
        20,
        'test_calc.RatioTest.test_half',
        'AssertionError: 0.5 != 0.25',
        'python3 -m unittest -k test_calc.RatioTest.test_half',
      ],
    ]);
  });

  it('node:test spec without the failing-tests summary: the error under the test in the tree', () => {
    const text = [
      '▶ math',
      '  ✔ sum adds (0.5ms)',
      '  ✖ mean averages (0.9ms)',
      '    AssertionError [ERR_ASSERTION]: Expected values to be strictly equal:',
      '',
      '    2 !== 3',
      '',
      '        at TestContext.<anonymous> (file:///repo/test/math.test.js:8:12)',
      '        at Test.runInAsyncScope (node:async_hooks:206:9)',
      '',
      '▶ math (2ms)',
      'ℹ tests 2',
      'ℹ fail 1',
    ].join('\n');
    assert.deepEqual(located(text, 'node --test').found, [
      [
        'test/math.test.js',
        8,
        'math › mean averages',
        'AssertionError [ERR_ASSERTION]: Expected values to be strictly equal:',
        "node --test '--test-name-pattern=^mean averages$' test/math.test.js",
      ],
    ]);
  });

  it('TAP: a SKIP or TODO result does not fail the run, and a parent is reported through its failing child', () => {
    const text = [
      'TAP version 13',
      '# Subtest: suite',
      '    # Subtest: pending',
      '    not ok 1 - pending # TODO later',
      '    # Subtest: broken',
      '    not ok 2 - broken',
      '      ---',
      "      location: '/repo/test/a.test.js:4:3'",
      "      error: 'boom'",
      "      name: 'Error'",
      '      ...',
      'not ok 1 - suite',
      '  ---',
      "  failureType: 'subtestsFailed'",
      '  ...',
      'not ok 2 - skipped one # SKIP no network',
    ].join('\n');
    assert.deepEqual(located(text).found, [['test/a.test.js', 4, 'suite › broken', 'Error: boom', 'true']]);
  });

  it("jest: a test's console output is not a failure", () => {
    const text = [
      'FAIL test/a.test.js',
      '  ● Console',
      '',
      '    console.log',
      '      hello',
      '',
      '      at Object.log (test/a.test.js:2:11)',
      '',
      '  ● adds',
      '',
      '    expect(received).toBe(expected)',
      '',
      '      at Object.toBe (test/a.test.js:4:17)',
      '',
      'Tests:       1 failed, 1 total',
    ].join('\n');
    assert.deepEqual(located(text, 'npx jest').found, [
      ['test/a.test.js', 4, 'adds', 'expect(received).toBe(expected)', "npx jest test/a.test.js -t '^adds$'"],
    ]);
  });

  it('a ✖ summary line of another tool, a FAIL word or a numbered list is not a test report', () => {
    for (const text of [
      '✖ 6 problems (4 errors, 2 warnings)\n  1 error potentially fixable with the `--fix` option.',
      'FAIL: the deploy step\n  1) check the logs',
      '  1 failing\n  nothing numbered here',
    ])
      assert.equal(located(text).format, 'output', text);
  });

  it("go test -v with parallel tests: log lines after `=== NAME` are that test's (Go 1.20 and later)", () => {
    const text = [
      '=== RUN   TestA',
      '=== PAUSE TestA',
      '=== RUN   TestB',
      '=== PAUSE TestB',
      '=== CONT  TestA',
      '=== CONT  TestB',
      '=== NAME  TestA',
      '    a_test.go:10: bad A',
      '=== NAME  TestB',
      '    a_test.go:20: bad B',
      '--- FAIL: TestA (0.00s)',
      '--- FAIL: TestB (0.00s)',
      'FAIL',
      'FAIL\texample.com/calc\t0.002s',
    ].join('\n');
    assert.deepEqual(
      located(text, 'go test -v ./...', 'example.com/calc').found.map((f) => f.slice(0, 4)),
      [
        ['a_test.go', 10, 'TestA', 'bad A'],
        ['a_test.go', 20, 'TestB', 'bad B'],
      ],
    );
  });

  it('pytest: two files with a test of one name are told apart by their own frames', () => {
    const section = (file: string, value: number) => [
      '___________________________________ test_ok ____________________________________',
      '',
      '    def test_ok():',
      `>       assert ${value} == 0`,
      `E       assert ${value} == 0`,
      '',
      `${file}:2: AssertionError`,
    ];
    const text = [
      '=================================== FAILURES ===================================',
      ...section('tests/test_api.py', 1),
      ...section('tests/test_db.py', 2),
      '=========================== short test summary info ============================',
      // The summary in the other order: the frames decide, not the order.
      'FAILED tests/test_db.py::test_ok - assert 2 == 0',
      'FAILED tests/test_api.py::test_ok - assert 1 == 0',
      '============================== 2 failed in 0.01s ===============================',
    ].join('\n');
    assert.deepEqual(located(text, 'pytest -q').found, [
      ['tests/test_api.py', 2, 'tests/test_api.py::test_ok', 'assert 1 == 0', 'pytest -q tests/test_api.py::test_ok'],
      ['tests/test_db.py', 2, 'tests/test_db.py::test_ok', 'assert 2 == 0', 'pytest -q tests/test_db.py::test_ok'],
    ]);
  });

  it('mocha: an error thrown outside the test (no Context frame) is placed, but not rerun by its source file', () => {
    const text = [
      '  0 passing (5ms)',
      '  1 failing',
      '',
      '  1) parser',
      '       rejects bad input:',
      '     Error: boom',
      '      at parse (src/parse.js:3:9)',
      '      at process.processTicksAndRejections (node:internal/process/task_queues:95:5)',
      '',
    ].join('\n');
    assert.deepEqual(located(text, 'npx mocha').found, [
      ['src/parse.js', 3, 'parser › rejects bad input', 'Error: boom', 'npx mocha'],
    ]);
  });
});

// Output the change under test controls can be shaped to make a parser's regular expressions backtrack: every
// parser must stay linear on it. This guards against a hang (the test's own timeout), not a speed.
describe('outputs shaped against the parsers', () => {
  it(
    'long runs of spaces, parentheses and deep subtest names come back, and fast enough to finish',
    { timeout: 120_000 },
    () => {
      const long = (prefix: string) => `${prefix}x${' '.repeat(16_000)}y`;
      const text = [
        'Exception during run: x',
        `[{"filePath":"a.js"${' '.repeat(1_000_000)}x`,
        ...['FAIL ', 'not ok 1 ', '    at ', '  ✖  1:1  ', '--- FAIL: T', 'E   ', ''].flatMap((p) =>
          Array.from({ length: 40 }, () => long(p)),
        ),
        ...Array.from({ length: 40 }, () => `    at x${' ('.repeat(5_000)}y`),
        ...Array.from(
          { length: 10 },
          (_, i) => `--- FAIL: T${i}/${Array.from({ length: 4000 }, () => 'a').join('/')} (0.00s)`,
        ),
        'FAIL\texample.com/calc\t0.002s',
      ].join('\n');
      const diagnosis = diagnoseText(text, job('true'), { project: { goModule: 'example.com/calc' } });
      assert.ok(diagnosis.diagnostics.length > 0);
    },
  );
});
