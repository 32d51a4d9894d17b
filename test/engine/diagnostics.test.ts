// Diagnostics from failed jobs' output, checked against output captured from the real tools (see
// test/fixtures/diagnostics/README.md for how each fixture was produced) plus the robustness cases: noise,
// colour, truncation, huge and unreadable outputs. Fixture paths were captured in scratch directories and
// rewritten to /workspace/project, which the tests pass as the job's cwd.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { appendFileSync, closeSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { DiscernDiagnostic } from '../../generated/types.js';
import { diagnoseOutput, diagnoseText, type Diagnosis, type FailedJob } from '../../src/engine/diagnostics/index.js';
import { readBounded } from '../../src/engine/diagnostics/read-bounded.js';
import { resultValidator } from '../helpers/published-schema.js';
import { tempDir } from '../helpers/scratch-repo.js';

const FIXTURES = fileURLToPath(new URL('../fixtures/diagnostics/', import.meta.url));
const CHECKOUT = '/workspace/project';

function fixture(name: string): string {
  return readFileSync(join(FIXTURES, name), 'utf8');
}

function job(overrides: Partial<FailedJob> = {}): FailedJob {
  return {
    tool: 'gate-step',
    reproduce_cmd: 'npm run check',
    output_path: '/logs/step.log',
    cwd: CHECKOUT,
    ...overrides,
  };
}

const validDiagnostic = resultValidator('DiscernDiagnostic');

/**
 * Every diagnostic: schema-valid, no key set to undefined, the tool from the job, and the job's command as the
 * reproduce command unless it was narrowed to the diagnostic's own file (test/engine/diagnostics/ covers that).
 */
function checked(diagnosis: Diagnosis, from: FailedJob = job()): Diagnosis {
  for (const diagnostic of diagnosis.diagnostics) {
    assert.ok(validDiagnostic(diagnostic), JSON.stringify(validDiagnostic.errors));
    for (const [key, value] of Object.entries(diagnostic))
      assert.notEqual(value, undefined, `${key} is set to undefined`);
    assert.equal(diagnostic.tool, from.tool);
    if (diagnostic.reproduce_cmd !== from.reproduce_cmd)
      assert.ok(
        diagnostic.file !== undefined && diagnostic.reproduce_cmd.endsWith(diagnostic.file),
        diagnostic.reproduce_cmd,
      );
  }
  return diagnosis;
}

type Location = Pick<DiscernDiagnostic, 'severity' | 'message' | 'file' | 'line' | 'col' | 'rule'>;

function located(diagnostics: readonly DiscernDiagnostic[]): Location[] {
  return diagnostics.map(({ severity, message, file, line, col, rule }) => {
    const picked: Location = { severity, message };
    if (file !== undefined) picked.file = file;
    if (line !== undefined) picked.line = line;
    if (col !== undefined) picked.col = col;
    if (rule !== undefined) picked.rule = rule;
    return picked;
  });
}

describe('tsc (TypeScript 6.0.3)', () => {
  const expected: Location[] = [
    {
      severity: 'error',
      message: "Type 'string' is not assignable to type 'number'.",
      file: 'src/a.ts',
      line: 1,
      col: 7,
      rule: 'TS2322',
    },
    {
      severity: 'error',
      message: "'n' is declared but its value is never read.",
      file: 'src/a.ts',
      line: 1,
      col: 7,
      rule: 'TS6133',
    },
    {
      severity: 'error',
      message: "Property 'lenght' does not exist on type 'string'. Did you mean 'length'?",
      file: 'src/a.ts',
      line: 3,
      col: 12,
      rule: 'TS2551',
    },
    {
      severity: 'error',
      message: "Cannot find module './nope.js' or its corresponding type declarations.",
      file: 'src/b.ts',
      line: 1,
      col: 25,
      rule: 'TS2307',
    },
    {
      severity: 'error',
      message: "Cannot find name 'undefinedName'. Did you mean 'undefined'?",
      file: 'src/b.ts',
      line: 2,
      col: 28,
      rule: 'TS2552',
    },
    {
      severity: 'error',
      message:
        "Type '(x: string) => string' is not assignable to type '(x: number) => string'.\n  Types of parameters 'x' and 'x' are incompatible.\n    Type 'number' is not assignable to type 'string'.",
      file: 'src/c.ts',
      line: 1,
      col: 14,
      rule: 'TS2322',
    },
  ];
  for (const name of ['tsc-piped.txt', 'tsc-pretty-false.txt', 'tsc-pretty-true.txt']) {
    it(name, () => {
      const diagnosis = checked(diagnoseText(fixture(name), job()));
      assert.equal(diagnosis.format, 'tsc');
      assert.equal(diagnosis.total, 6);
      assert.deepEqual(located(diagnosis.diagnostics), expected);
    });
  }

  it('reports a location-less global error (bad tsconfig)', () => {
    const diagnosis = checked(diagnoseText("error TS5058: The specified path does not exist: 'nope.json'.\n", job()));
    assert.deepEqual(located(diagnosis.diagnostics), [
      { severity: 'error', message: "The specified path does not exist: 'nope.json'.", rule: 'TS5058' },
    ]);
  });
});

describe('eslint 9.39.5 stylish', () => {
  // Errors first, each severity in output order.
  const expected: Location[] = [
    {
      severity: 'error',
      message: "'unused' is assigned a value but never used",
      file: 'src/app.js',
      line: 4,
      col: 7,
      rule: 'no-unused-vars',
    },
    { severity: 'error', message: "'missing' is not defined", file: 'src/app.js', line: 6, col: 25, rule: 'no-undef' },
    { severity: 'error', message: 'Missing semicolon', file: 'src/app.js', line: 6, col: 32, rule: 'semi' },
    { severity: 'error', message: 'Parsing error: Unexpected token', file: 'src/util.js', line: 6, col: 1 },
    {
      severity: 'warning',
      message: "'count' is never reassigned. Use 'const' instead",
      file: 'src/app.js',
      line: 3,
      col: 5,
      rule: 'prefer-const',
    },
    {
      severity: 'warning',
      message: "Expected '===' and instead saw '=='",
      file: 'src/app.js',
      line: 6,
      col: 9,
      rule: 'eqeqeq',
    },
  ];
  for (const name of ['eslint-stylish.txt', 'eslint-stylish-color.txt']) {
    it(name, () => {
      const diagnosis = checked(diagnoseText(fixture(name), job()));
      assert.equal(diagnosis.format, 'eslint');
      assert.equal(diagnosis.total, 6);
      assert.deepEqual(located(diagnosis.diagnostics), expected);
    });
  }

  it('keeps the header path as printed when there is no cwd or it lies outside cwd', () => {
    const withoutCwd: FailedJob = { tool: 'eslint', reproduce_cmd: 'npx eslint src', output_path: '/logs/x' };
    assert.equal(
      checked(diagnoseText(fixture('eslint-stylish.txt'), withoutCwd), withoutCwd).diagnostics[0]?.file,
      '/workspace/project/src/app.js',
    );
    assert.equal(
      diagnoseText(fixture('eslint-stylish.txt'), job({ cwd: '/workspace/other' })).diagnostics[0]?.file,
      '/workspace/project/src/app.js',
    );
    assert.equal(
      diagnoseText(fixture('eslint-stylish.txt'), job({ cwd: '/workspace/project/src' })).diagnostics[0]?.file,
      'app.js',
    );
  });

  it('reads scoped plugin rules and relative headers', () => {
    const text =
      '\nlib/x.ts\n  2:10  error  Unexpected any. Specify a different type  @typescript-eslint/no-explicit-any\n';
    assert.deepEqual(located(diagnoseText(text, job()).diagnostics), [
      {
        severity: 'error',
        message: 'Unexpected any. Specify a different type',
        file: 'lib/x.ts',
        line: 2,
        col: 10,
        rule: '@typescript-eslint/no-explicit-any',
      },
    ]);
  });
});

describe('SARIF (eslint 9.39.5 + @microsoft/eslint-formatter-sarif 3.1.0)', () => {
  const expected: Location[] = [
    {
      severity: 'warning',
      message: "'count' is never reassigned. Use 'const' instead.",
      file: 'src/app.js',
      line: 3,
      col: 5,
      rule: 'prefer-const',
    },
    {
      severity: 'error',
      message: "'unused' is assigned a value but never used.",
      file: 'src/app.js',
      line: 4,
      col: 7,
      rule: 'no-unused-vars',
    },
    {
      severity: 'warning',
      message: "Expected '===' and instead saw '=='.",
      file: 'src/app.js',
      line: 6,
      col: 9,
      rule: 'eqeqeq',
    },
    { severity: 'error', message: "'missing' is not defined.", file: 'src/app.js', line: 6, col: 25, rule: 'no-undef' },
    { severity: 'error', message: 'Missing semicolon.', file: 'src/app.js', line: 6, col: 32, rule: 'semi' },
    // The parsing error is an invocation notification in this formatter's output, not a result.
    {
      severity: 'error',
      message: 'Parsing error: Unexpected token',
      file: 'src/util.js',
      line: 6,
      col: 1,
      rule: 'ESL0999',
    },
  ];

  it('eslint.sarif', () => {
    const diagnosis = checked(diagnoseText(fixture('eslint.sarif'), job()));
    assert.equal(diagnosis.format, 'sarif');
    assert.deepEqual(located(diagnosis.diagnostics), expected);
  });

  it('finds the log between leading and trailing noise', () => {
    const noisy = `npm warn exec The following package was not found and will be installed: x\n> lint {fast}\n${fixture('eslint.sarif')}\nDone in 2.1s.\n`;
    const diagnosis = checked(diagnoseText(noisy, job()));
    assert.equal(diagnosis.format, 'sarif');
    assert.deepEqual(located(diagnosis.diagnostics), expected);
  });

  it('keeps file:// URIs outside the checkout absolute, and relative URIs decoded', () => {
    const diagnosis = diagnoseText(fixture('eslint.sarif'), job({ cwd: '/elsewhere' }));
    assert.equal(diagnosis.diagnostics[0]?.file, '/workspace/project/src/app.js');
    const log = sarif([
      { message: { text: 'm' }, locations: [{ physicalLocation: { artifactLocation: { uri: 'src/my%20file.ts' } } }] },
    ]);
    assert.equal(diagnoseText(log, job()).diagnostics[0]?.file, 'src/my file.ts');
  });

  it('maps levels: warning and note are warnings; error, none and absent are errors', () => {
    const log = sarif(
      ['warning', 'note', 'error', 'none', undefined].map((level, i) => ({
        ...(level === undefined ? {} : { level }),
        message: { text: `r${i}` },
        ruleId: 'R1',
      })),
    );
    assert.deepEqual(
      checked(diagnoseText(log, job())).diagnostics.map((d) => d.severity),
      ['warning', 'warning', 'error', 'error', 'error'],
    );
  });

  it('accepts a $schema naming sarif without a version, fills {0} arguments, resolves artifact indexes', () => {
    const log = JSON.stringify({
      $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
      runs: [
        {
          artifacts: [{ location: { uri: 'file:///workspace/project/lib/a.py' } }],
          results: [
            {
              ruleId: 'B101',
              message: { text: 'Use of {0} detected', arguments: ['assert'] },
              locations: [{ physicalLocation: { artifactLocation: { index: 0 }, region: { startLine: 9 } } }],
            },
            { ruleId: 'B102', kind: 'pass', message: { text: 'passed' } },
            { ruleId: 'B103', message: { text: 'suppressed' }, suppressions: [{ kind: 'inSource' }] },
          ],
        },
      ],
    });
    const diagnosis = checked(diagnoseText(log, job()));
    assert.deepEqual(located(diagnosis.diagnostics), [
      { severity: 'error', message: 'Use of assert detected', file: 'lib/a.py', line: 9, rule: 'B101' },
    ]);
  });

  it('does not take JSON with runs but no SARIF marker for SARIF', () => {
    const diagnosis = diagnoseText(JSON.stringify({ runs: [{ results: [{ message: { text: 'x' } }] }] }), job());
    assert.equal(diagnosis.format, 'output');
  });
});

function sarif(results: unknown[]): string {
  return JSON.stringify({ version: '2.1.0', runs: [{ tool: { driver: { name: 'Scanner' } }, results }] });
}

describe('JUnit XML', () => {
  it('node --test --test-reporter=junit (node 20.20.2)', () => {
    const diagnosis = checked(diagnoseText(fixture('node-junit.xml'), job()));
    assert.equal(diagnosis.format, 'junit');
    // node's reporter writes no file attribute and classname "test", so there is no file to point at. It also
    // escapes quotes twice in the message attribute; the decoded text is what node wrote.
    assert.deepEqual(located(diagnosis.diagnostics), [
      { severity: 'error', message: 'product is <wrong> & &quot;odd&quot;6 !== 7', rule: 'multiplies' },
      { severity: 'error', message: 'cannot read <x>', rule: 'throws' },
      {
        severity: 'error',
        message: 'Expected values to be strictly deep-equal:+ actual - expected  {+   a: 1-   a: 2  }',
        rule: 'top-level deep equal',
      },
    ]);
  });

  const pytestMessages = [
    'AssertionError: nine over three <should> be & four\nassert 3.0 == 4\n +  where 3.0 = divide(9, 3)',
    'ZeroDivisionError: division by zero',
    'failed on setup with "RuntimeError: fixture exploded"',
  ];

  it('pytest 9.0.3 --junitxml (xunit2: no file attribute, dotted classname)', () => {
    const diagnosis = checked(diagnoseText(fixture('pytest-junit.xml'), job()));
    assert.equal(diagnosis.format, 'junit');
    assert.deepEqual(located(diagnosis.diagnostics), [
      { severity: 'error', message: pytestMessages[0], rule: 'test_wrong_result' },
      { severity: 'error', message: pytestMessages[1], rule: 'test_raises' },
      { severity: 'error', message: pytestMessages[2], rule: 'test_with_broken_fixture' },
    ]);
  });

  it('pytest 9.0.3 -o junit_family=xunit1 (file and 0-based line attributes)', () => {
    const diagnosis = checked(diagnoseText(fixture('pytest-junit-xunit1.xml'), job()));
    // The def lines of the three failing tests in the captured test file.
    assert.deepEqual(located(diagnosis.diagnostics), [
      {
        severity: 'error',
        message: pytestMessages[0],
        file: 'tests/test_calc.py',
        line: 12,
        rule: 'test_wrong_result',
      },
      { severity: 'error', message: pytestMessages[1], file: 'tests/test_calc.py', line: 16, rule: 'test_raises' },
      {
        severity: 'error',
        message: pytestMessages[2],
        file: 'tests/test_calc.py',
        line: 25,
        rule: 'test_with_broken_fixture',
      },
    ]);
  });

  it('decodes CDATA bodies, takes path-like classnames and suite names, ignores chatter around the report', () => {
    const xml = [
      'PASS other things <not a tag',
      '<?xml version="1.0"?>',
      '<testsuites><testsuite name="src/math.test.ts">',
      '  <testcase name="adds" classname="src/math.test.ts" line="14" col="3"><failure><![CDATA[expected 3',
      'to equal <4> & more]]></failure></testcase>',
      '  <testcase name="subtracts"><error type="TypeError">  x is &#x27;undefined&#39; &amp;&#10;gone </error></testcase>',
      '  <testcase name="passes"/>',
      '  <testcase name="skipped"><skipped/></testcase>',
      '  <testcase name="no body" classname="pkg.Cls"><failure type="AssertionError"/></testcase>',
      '</testsuite></testsuites>',
      'Done <3',
    ].join('\n');
    const diagnosis = checked(diagnoseText(xml, job()));
    assert.equal(diagnosis.format, 'junit');
    assert.deepEqual(located(diagnosis.diagnostics), [
      {
        severity: 'error',
        message: 'expected 3\nto equal <4> & more',
        file: 'src/math.test.ts',
        line: 14,
        col: 3,
        rule: 'adds',
      },
      { severity: 'error', message: "x is 'undefined' &\ngone", file: 'src/math.test.ts', rule: 'subtracts' },
      { severity: 'error', message: 'AssertionError', file: 'src/math.test.ts', rule: 'no body' },
    ]);
  });

  it('leaves unknown and invalid references as written', () => {
    const xml =
      '<testsuite><testcase name="t"><failure>&constructor; &#xD800; &#99999999; &bogus</failure></testcase></testsuite>';
    assert.equal(
      checked(diagnoseText(xml, job())).diagnostics[0]?.message,
      '&constructor; &#xD800; &#99999999; &bogus',
    );
  });

  it('keeps the first ~20 lines of a long body', () => {
    const body = Array.from({ length: 50 }, (_, i) => `line ${i}`).join('\n');
    const xml = `<testsuite name="s"><testcase name="t"><failure>${body}</failure></testcase></testsuite>`;
    const message = diagnoseText(xml, job()).diagnostics[0]?.message ?? '';
    assert.equal(message.split('\n').length, 20);
    assert.ok(message.startsWith('line 0\n'));
  });

  it('keeps the start of a failure body cut off mid-report', () => {
    const xml = '<testsuite name="s"><testcase name="t"><failure>boom &amp; more\nat x.js:1';
    assert.deepEqual(located(checked(diagnoseText(xml, job())).diagnostics), [
      { severity: 'error', message: 'boom & more\nat x.js:1', rule: 't' },
    ]);
  });

  it('falls through to line shapes when the report has no failures', () => {
    const text = '<testsuite name="s"><testcase name="t"/></testsuite>\nmain.c:3:1: error: expected ‘;’\n';
    assert.equal(diagnoseText(text, job()).format, 'compiler');
  });
});

describe('gcc 12.2.0', () => {
  // Errors first, each severity in output order.
  const expected: Location[] = [
    // The note that follows this error in the output is not a diagnostic of its own.
    {
      severity: 'error',
      message: '‘missing_var’ undeclared (first use in this function)',
      file: 'main.c',
      line: 12,
      col: 10,
    },
    { severity: 'error', message: 'nope.h: No such file or directory', file: 'fatal.c', line: 1, col: 10 },
    {
      severity: 'warning',
      message: 'unused variable ‘unused’',
      file: 'main.c',
      line: 4,
      col: 7,
      rule: '-Wunused-variable',
    },
    {
      severity: 'warning',
      message: 'initialization of ‘int’ from ‘char *’ makes integer from pointer without a cast',
      file: 'main.c',
      line: 9,
      col: 15,
      rule: '-Wint-conversion',
    },
    {
      severity: 'warning',
      message: 'implicit declaration of function ‘undeclared_fn’',
      file: 'main.c',
      line: 11,
      col: 3,
      rule: '-Wimplicit-function-declaration',
    },
  ];
  for (const name of ['gcc.txt', 'gcc-color.txt']) {
    it(name, () => {
      const diagnosis = checked(diagnoseText(fixture(name), job()));
      assert.equal(diagnosis.format, 'compiler');
      assert.deepEqual(located(diagnosis.diagnostics), expected);
    });
  }

  it('reads promoted warnings, line-only locations and absolute paths', () => {
    const text = [
      '/workspace/project/src/x.c:3:9: error: unused variable ‘y’ [-Werror=unused-variable]',
      "src/y.c:4:5: error: unused variable 'z' [-Werror,-Wunused-variable]",
      "Makefile:12: warning: overriding recipe for target 'all'",
      'src/y.c:9:1: note: declared here',
      '12:30:45: error: a log line with a timestamp, not a file',
    ].join('\n');
    assert.deepEqual(located(checked(diagnoseText(text, job())).diagnostics), [
      {
        severity: 'error',
        message: 'unused variable ‘y’',
        file: 'src/x.c',
        line: 3,
        col: 9,
        rule: '-Wunused-variable',
      },
      {
        severity: 'error',
        message: "unused variable 'z'",
        file: 'src/y.c',
        line: 4,
        col: 5,
        rule: '-Wunused-variable',
      },
      { severity: 'warning', message: "overriding recipe for target 'all'", file: 'Makefile', line: 12 },
    ]);
  });
  it('takes a trailing [rule-id] of tools that copy the shape as the rule', () => {
    const text =
      'src/sum.js:2:1: error: tab character; indent with spaces [no-tabs]\nlib/a.py:7:80: warning: line too long [E501]\nsrc/b.c:1:1: error: see [the manual] for details';
    assert.deepEqual(located(checked(diagnoseText(text, job())).diagnostics), [
      {
        severity: 'error',
        message: 'tab character; indent with spaces',
        file: 'src/sum.js',
        line: 2,
        col: 1,
        rule: 'no-tabs',
      },
      { severity: 'error', message: 'see [the manual] for details', file: 'src/b.c', line: 1, col: 1 },
      { severity: 'warning', message: 'line too long', file: 'lib/a.py', line: 7, col: 80, rule: 'E501' },
    ]);
  });
});

describe('Python 3.11.7 tracebacks', () => {
  it('python-traceback.txt: one diagnostic at the innermost frame', () => {
    const diagnosis = checked(diagnoseText(fixture('python-traceback.txt'), job()));
    assert.equal(diagnosis.format, 'python');
    assert.deepEqual(located(diagnosis.diagnostics), [
      { severity: 'error', message: "KeyError: 'port'", file: 'app/loader.py', line: 5, rule: 'KeyError' },
    ]);
  });

  it('python-chained.txt: one diagnostic per traceback', () => {
    assert.deepEqual(located(checked(diagnoseText(fixture('python-chained.txt'), job())).diagnostics), [
      { severity: 'error', message: 'ValueError: bad value: 42', file: 'chained.py', line: 2, rule: 'ValueError' },
      {
        severity: 'error',
        message: 'RuntimeError: could not load config',
        file: 'chained.py',
        line: 8,
        rule: 'RuntimeError',
      },
    ]);
  });

  it('python-syntax.txt: a SyntaxError printed without a Traceback header', () => {
    assert.deepEqual(located(checked(diagnoseText(fixture('python-syntax.txt'), job())).diagnostics), [
      { severity: 'error', message: "SyntaxError: '(' was never closed", file: 'bad.py', line: 1, rule: 'SyntaxError' },
    ]);
  });

  it('skips synthetic frames and keeps absolute paths outside the checkout', () => {
    const text = [
      'Traceback (most recent call last):',
      '  File "/usr/lib/python3.11/runpy.py", line 198, in _run_module_as_main',
      '  File "<frozen importlib._bootstrap>", line 1204, in _gcd_import',
      "ModuleNotFoundError: No module named 'yaml'",
    ].join('\n');
    assert.deepEqual(located(diagnoseText(text, job()).diagnostics), [
      {
        severity: 'error',
        message: "ModuleNotFoundError: No module named 'yaml'",
        file: '/usr/lib/python3.11/runpy.py',
        line: 198,
        rule: 'ModuleNotFoundError',
      },
    ]);
  });
});

describe('pytest 9.0.3 console output (test/engine/diagnostics/ has every --tb)', () => {
  it("a fixture error and two failures, each at the test file's frame, each rerun alone", () => {
    const command = 'python3 -m pytest -q -p no:cacheprovider --junitxml=pytest-junit.xml tests';
    const diagnosis = diagnoseText(fixture('pytest-console.txt'), job({ reproduce_cmd: command }));
    assert.equal(diagnosis.format, 'pytest');
    assert.deepEqual(
      diagnosis.diagnostics.map((d) => [d.file, d.line, d.rule, d.message.split('\n')[0], d.reproduce_cmd]),
      [
        ['tests/test_calc.py', 22, 'tests/test_calc.py::test_with_broken_fixture', 'RuntimeError: fixture exploded'],
        [
          'tests/test_calc.py',
          13,
          'tests/test_calc.py::test_wrong_result',
          'AssertionError: nine over three <should> be & four',
        ],
        // divide() raised one call deeper, in the same file: the test's own line is the one to read.
        ['tests/test_calc.py', 17, 'tests/test_calc.py::test_raises', 'ZeroDivisionError: division by zero'],
      ].map((row) => [...row, command.replace(/ tests$/, ` ${String(row[2])}`)]),
    );
  });
});

describe('Tier 0: the output itself', () => {
  it('output no parser reads: its last error-like line becomes the message', () => {
    const text = 'collecting...\nFAILED something/odd - RuntimeError: boom\n1 failed in 0.1s\n';
    const diagnosis = checked(diagnoseText(text, job()));
    assert.equal(diagnosis.format, 'output');
    assert.equal(diagnosis.total, 1);
    const [only] = diagnosis.diagnostics;
    assert.equal(only?.message, 'FAILED something/odd - RuntimeError: boom');
    assert.equal(only?.output_path, '/logs/step.log');
    assert.equal(only?.truncated, undefined);
    assert.ok(only?.output?.endsWith('1 failed in 0.1s'));
  });

  it('says the tool failed when no line looks like an error, and that it printed nothing when empty', () => {
    assert.equal(
      diagnoseText('building...\ndone?\n', job()).diagnostics[0]?.message,
      'gate-step failed; its output is below',
    );
    const empty = checked(diagnoseText('\n\n', job())).diagnostics[0];
    assert.equal(empty?.message, 'gate-step failed without printing any output');
    assert.equal(empty?.output, undefined);
  });

  it('keeps the last 60 lines and marks the cut', () => {
    const text = Array.from({ length: 200 }, (_, i) => `step ${i}`).join('\n');
    const [only] = checked(diagnoseText(text, job())).diagnostics;
    const lines = only?.output?.split('\n') ?? [];
    assert.equal(lines.length, 60);
    assert.equal(lines[0], 'step 140');
    assert.equal(lines[59], 'step 199');
    assert.equal(only?.truncated, true);
  });

  it('keeps at most ~4 KB, starting on a whole line', () => {
    const text = Array.from({ length: 40 }, (_, i) => `${i} ${'x'.repeat(300)}`).join('\n');
    const output = diagnoseText(text, job()).diagnostics[0]?.output ?? '';
    assert.ok(output.length <= 4096, String(output.length));
    assert.match(output, /^\d+ x+\n/);
    assert.ok(output.endsWith(`39 ${'x'.repeat(300)}`));
  });

  it('normalises: ANSI stripped, CRLF and progress redraws folded, trailing space trimmed, blank runs collapsed', () => {
    const text =
      '\u001b[1m\u001b[31mFAIL\u001b[39m\u001b[22m  build   \r\n\r\n\r\n\r\n10%\r50%\r100%\r\n\u001b]8;;https://x\u0007link\u001b]8;;\u0007 text\u0000\n\n';
    const [only] = checked(diagnoseText(text, job())).diagnostics;
    assert.equal(only?.output, 'FAIL  build\n\n100%\nlink text');
    assert.equal(only?.message, 'FAIL  build');
  });

  it('survives binary garbage and giant lines', () => {
    const bytes = Buffer.alloc(64 * 1024);
    for (let i = 0; i < bytes.length; i++) bytes[i] = (i * 7919 + 13) % 256;
    const giant = `src/a.ts(1,1): error TS1000: ${'y'.repeat(20 * 1024)}`;
    const inputs = [
      bytes.toString('latin1'),
      bytes.toString('utf8'),
      giant,
      '<testsuite<testcase<failure'.repeat(1000),
      '{"runs":'.repeat(1000),
      `${'<a x="'.repeat(5000)}>`,
    ];
    for (const input of inputs) {
      const diagnosis = checked(diagnoseText(input, job()));
      assert.equal(diagnosis.format, 'output');
      assert.ok((diagnosis.diagnostics[0]?.output ?? '').length <= 4096);
      assert.doesNotMatch(diagnosis.diagnostics[0]?.output ?? '', /[\u0000-\u0008\u001b]/);
    }
  });
});

describe('counting', () => {
  it('deduplicates identical (file, line, col, message) and caps the list while counting all', () => {
    const lines = Array.from({ length: 120 }, (_, i) => `src/m.c:${i + 1}:1: error: bad thing`);
    const text = [...lines, ...lines.slice(0, 10)].join('\n');
    const capped = checked(diagnoseText(text, job()));
    assert.equal(capped.total, 120);
    assert.equal(capped.diagnostics.length, 50);
    assert.equal(capped.diagnostics[0]?.line, 1);
    const five = diagnoseText(text, job(), { maxDiagnostics: 5 });
    assert.equal(five.total, 120);
    assert.equal(five.diagnostics.length, 5);
  });

  it('reports a job running several tools under the format that found the most', () => {
    const text = `${fixture('tsc-piped.txt')}\n${fixture('gcc.txt')}`;
    const diagnosis = checked(diagnoseText(text, job()));
    assert.equal(diagnosis.total, 11);
    assert.equal(diagnosis.format, 'tsc');
    assert.equal(diagnosis.diagnostics[6]?.file, 'main.c');
  });
});

describe('diagnoseOutput reads the output file', () => {
  let dir = '';
  before(() => {
    dir = tempDir('discern-diagnostics-');
  });
  after(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  it('diagnoses a small file whole', async () => {
    const path = join(dir, 'tsc.log');
    appendFileSync(path, fixture('tsc-piped.txt'));
    const diagnosis = checked(await diagnoseOutput(job({ output_path: path })));
    assert.equal(diagnosis.format, 'tsc');
    assert.equal(diagnosis.total, 6);
  });

  it('a 30 MB output: bounded read, Tier 0 truncated; a traceback at its very end is still found', async () => {
    const path = join(dir, 'huge.log');
    const fd = openSync(path, 'w');
    const chunk = Buffer.from(
      Array.from({ length: 1000 }, (_, i) => `progress ${String(i).padStart(4, '0')} ${'.'.repeat(80)}`).join('\n') +
        '\n',
    );
    let written = 0;
    while (written < 30 * 1024 * 1024) written += writeSync(fd, chunk);
    closeSync(fd);

    const read = await readBounded(path);
    assert.equal(read.bytes, written);
    assert.ok(read.skipped > 21 * 1024 * 1024);
    assert.ok(read.text.length <= 8 * 1024 * 1024 + 100, String(read.text.length));
    assert.match(read.text, /\[discern: \d+ bytes of output omitted here\]\n/);

    const diagnosis = checked(await diagnoseOutput(job({ output_path: path })));
    assert.equal(diagnosis.format, 'output');
    const [only] = diagnosis.diagnostics;
    assert.equal(only?.truncated, true);
    assert.equal(only?.output_path, path);
    assert.ok((only?.output ?? '').length <= 4096);
    assert.ok(only?.output?.endsWith(`progress 0999 ${'.'.repeat(80)}`));

    appendFileSync(
      path,
      'Traceback (most recent call last):\n  File "/workspace/project/run.py", line 3, in <module>\nOSError: disk full\n',
    );
    const tail = checked(await diagnoseOutput(job({ output_path: path })));
    assert.equal(tail.format, 'python');
    assert.deepEqual(located(tail.diagnostics), [
      { severity: 'error', message: 'OSError: disk full', file: 'run.py', line: 3, rule: 'OSError' },
    ]);
  });

  it('an unreadable path gives the Tier-0 "could not be read" diagnostic', async () => {
    for (const path of [join(dir, 'missing.log'), dir]) {
      const diagnosis = checked(await diagnoseOutput(job({ output_path: path })));
      assert.equal(diagnosis.format, 'output');
      assert.equal(diagnosis.total, 1);
      const [only] = diagnosis.diagnostics;
      assert.match(only?.message ?? '', /^gate-step failed; its output could not be read \((ENOENT|EISDIR)\)$/);
      assert.equal(only?.output_path, path);
      assert.equal(only?.output, undefined);
    }
  });
});
