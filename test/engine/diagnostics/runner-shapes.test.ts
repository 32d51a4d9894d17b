// Shapes of the runners' reports that the captured fixtures do not hold, each written from a capture with the
// one documented difference applied: Rust before 1.73, Python 3.10's unittest header, Node 20 releases before the
// `failing tests` summary, TAP's SKIP and TODO, jest's console blocks, and outputs that only look like a report.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { diagnoseText } from '../../../src/engine/diagnostics/index.js';

const job = (reproduce_cmd: string) => ({ tool: 'test', reproduce_cmd, output_path: '/logs/test.log', cwd: '/repo' });

function located(text: string, command = 'true') {
  const diagnosis = diagnoseText(text, job(command));
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
});
