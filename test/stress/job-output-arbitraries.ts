// Generators of what a broken, hostile or merely odd job prints: protocol lines that are nearly right, SARIF logs
// with every field in the wrong shape, JUnit reports with doctypes, entity bombs, enormous attributes and tag
// soup — each optionally truncated, wrapped in console noise, or laced with invalid UTF-8.
import fc from 'fast-check';

/** Any JSON-ish value in a field's place: wrong types, edge numbers, nesting, prototype names. */
function wild(): fc.Arbitrary<unknown> {
  return fc.oneof(
    {
      arbitrary: fc.constantFrom(
        null,
        true,
        false,
        0,
        -1,
        1.5,
        1e308,
        -0,
        2 ** 53 + 1,
        '',
        ' ',
        '12',
        '-3',
        'NaN',
        '__proto__',
        [],
        {},
        [[[]]],
        { __proto__: null },
      ),
      weight: 4,
    },
    { arbitrary: fc.string({ unit: 'binary', maxLength: 30 }), weight: 2 },
    { arbitrary: fc.constantFrom('x'.repeat(100_000), '{0}{1}{99999999999}', '\u001b[31m', 'a\nb\r\nc'), weight: 1 },
    { arbitrary: fc.anything({ maxDepth: 2, maxKeys: 3 }), weight: 2 },
  );
}

/** A field that is usually right and sometimes anything at all. */
function field<T>(right: fc.Arbitrary<T>): fc.Arbitrary<unknown> {
  return fc.oneof({ arbitrary: right, weight: 3 }, { arbitrary: wild(), weight: 1 });
}

function maybeTruncate(text: fc.Arbitrary<string>): fc.Arbitrary<string> {
  return fc
    .tuple(text, fc.oneof({ arbitrary: fc.constant(1), weight: 3 }, fc.double({ min: 0, max: 1, noNaN: true })))
    .map(([t, f]) => t.slice(0, Math.floor(t.length * f)));
}

const DEEP = (n: number, open: string, close: string): string => open.repeat(n) + close.repeat(n);

export function progressLine(): fc.Arbitrary<string> {
  const fact = fc.record(
    {
      units: field(
        fc.record(
          {
            kind: field(fc.string({ maxLength: 70 })),
            completed: field(fc.integer({ min: -2, max: 1e6 })),
            total: field(fc.option(fc.nat())),
          },
          { requiredKeys: [] },
        ),
      ),
      results: field(
        fc.dictionary(fc.string({ maxLength: 70 }), field(fc.integer({ min: -1, max: 1e9 })), { maxKeys: 4 }),
      ),
      active: field(fc.array(field(fc.string({ maxLength: 300 })), { maxLength: 70 })),
      elapsed_ms: field(fc.integer({ min: -1, max: 1e9 })),
      partial: field(fc.boolean()),
      failure: field(
        fc.record(
          {
            name: field(fc.string()),
            message: field(fc.string()),
            file: field(fc.string()),
            line: field(fc.integer({ min: -1, max: 100 })),
            reproduce: field(fc.string()),
          },
          { requiredKeys: [] },
        ),
      ),
      extra: wild(),
    },
    { requiredKeys: [] },
  );
  const body = fc.oneof(
    { arbitrary: maybeTruncate(fact.map((f) => JSON.stringify(f) ?? '')), weight: 6 },
    {
      arbitrary: fc.constantFrom(
        '{"units":{"kind":"t","completed":1e999}}',
        '{"units":{"kind":"t","completed":NaN}}',
        '{"elapsed_ms":Infinity}',
        '{"elapsed_ms":-0}',
        '{"units":{"kind":"t","completed":9007199254740993}}',
        '{"__proto__":{"polluted":1},"results":{"__proto__":5,"constructor":1}}',
        `{"active":${DEEP(20_000, '[', ']')}}`,
        `{"failure":${DEEP(5_000, '{"a":', '}').replace(/}$/, '')}`,
        `{"failure":{"name":"n","message":"${'m'.repeat(20_000)}"}}`,
        'null',
        '[]',
        '"string"',
        '',
        '{',
        '{}}',
      ),
      weight: 2,
    },
    { arbitrary: fc.json({ maxDepth: 3 }), weight: 1 },
  );
  const prefix = fc.oneof(
    { arbitrary: fc.constant('DISCERN_PROGRESS '), weight: 8 },
    fc.constantFrom(
      'DISCERN_PROGRESS',
      'DISCERN_PROGRESS  ',
      ' DISCERN_PROGRESS ',
      'discern_progress ',
      'DISCERN_PROGRESS\t',
    ),
  );
  return fc.tuple(prefix, body).map(([p, b]) => p + b);
}

export function metricLine(): fc.Arbitrary<string> {
  const name = fc.oneof(
    { arbitrary: fc.stringMatching(/^[A-Za-z0-9_.:-]{1,20}$/), weight: 4 },
    fc.constantFrom('', ' ', 'a b', 'naïve', '__proto__', 'x'.repeat(20_000)),
    fc.string({ unit: 'binary', maxLength: 10 }),
  );
  const value = fc.oneof(
    { arbitrary: fc.double().map(String), weight: 3 },
    fc.constantFrom(
      '1e999',
      '-1e999',
      'NaN',
      'Infinity',
      '-0',
      '0x10',
      '1_000',
      '1,5',
      '',
      '  ',
      '.',
      '-.',
      '1e',
      '9'.repeat(400),
      `1${'0'.repeat(308)}`,
      '5 extra',
      '5\t',
      '+.5e-3',
    ),
  );
  const sep = fc.constantFrom(' ', ' ', ' ', '  ', '\t', '');
  return fc
    .tuple(
      fc.constantFrom('DISCERN_METRIC ', 'DISCERN_METRIC ', 'DISCERN_METRIC', 'DISCERN_METRIC  '),
      name,
      sep,
      value,
    )
    .map(([p, n, s, v]) => `${p}${n}${s}${v}`);
}

export function hostileSarif(): fc.Arbitrary<string> {
  const region = field(
    fc.record(
      { startLine: field(fc.integer({ min: -1, max: 1e6 })), startColumn: field(fc.integer({ min: -1, max: 1e3 })) },
      { requiredKeys: [] },
    ),
  );
  const location = field(
    fc.record(
      {
        physicalLocation: field(
          fc.record(
            {
              artifactLocation: field(
                fc.record(
                  {
                    uri: field(
                      fc.constantFrom(
                        'src/a.ts',
                        'file:///work/project/b.ts',
                        '%E0%A4%A',
                        '../../../etc/passwd',
                        'a%00b',
                      ),
                    ),
                    index: field(fc.integer({ min: -1, max: 5 })),
                  },
                  { requiredKeys: [] },
                ),
              ),
              region,
            },
            { requiredKeys: [] },
          ),
        ),
      },
      { requiredKeys: [] },
    ),
  );
  const message = field(
    fc.record(
      {
        text: field(fc.constantFrom('bad {0} and {1}', 'plain', '', '{999999999999999999999}')),
        markdown: field(fc.string()),
        arguments: field(fc.array(wild(), { maxLength: 3 })),
      },
      { requiredKeys: [] },
    ),
  );
  const result = field(
    fc.record(
      {
        ruleId: field(fc.constantFrom('no-unused-vars', 'R'.repeat(1_000_000))),
        rule: field(fc.record({ id: field(fc.string()) })),
        level: field(fc.constantFrom('error', 'warning', 'note', 'none', 'fatal')),
        kind: field(fc.constantFrom('fail', 'pass', 'notApplicable', 'open')),
        message,
        locations: field(fc.array(location, { maxLength: 3 })),
        suppressions: field(
          fc.array(field(fc.record({ status: field(fc.constantFrom('accepted', 'rejected', 'underReview')) })), {
            maxLength: 2,
          }),
        ),
        fixes: field(fc.array(wild(), { maxLength: 2 })),
      },
      { requiredKeys: [] },
    ),
  );
  const notification = field(
    fc.record(
      {
        level: field(fc.constantFrom('error', 'warning')),
        message,
        locations: field(fc.array(location, { maxLength: 2 })),
        descriptor: field(fc.record({ id: field(fc.string()) })),
      },
      { requiredKeys: [] },
    ),
  );
  const run = field(
    fc.record(
      {
        results: field(fc.array(result, { maxLength: 60 })),
        artifacts: field(
          fc.array(field(fc.record({ location: field(fc.record({ uri: field(fc.string()) })) })), { maxLength: 3 }),
        ),
        invocations: field(
          fc.array(
            field(
              fc.record(
                {
                  toolExecutionNotifications: field(fc.array(notification, { maxLength: 3 })),
                  toolConfigurationNotifications: field(fc.array(notification, { maxLength: 2 })),
                },
                { requiredKeys: [] },
              ),
            ),
            { maxLength: 2 },
          ),
        ),
      },
      { requiredKeys: [] },
    ),
  );
  // The envelope is mostly right, so that most logs reach the results and their wrong shapes.
  const mostly = <T>(right: fc.Arbitrary<T>): fc.Arbitrary<unknown> =>
    fc.oneof({ arbitrary: right, weight: 9 }, { arbitrary: wild(), weight: 1 });
  const log = fc.record(
    {
      version: mostly(fc.constantFrom('2.1.0', '2.1.0', '2', '1.0.0')),
      $schema: field(fc.constantFrom('https://json.schemastore.org/sarif-2.1.0.json', 'x')),
      runs: mostly(fc.array(run, { minLength: 1, maxLength: 3 })),
    },
    { requiredKeys: ['version', 'runs'] },
  );
  return fc.oneof(
    { arbitrary: maybeTruncate(log.map((l) => JSON.stringify(l) ?? '')), weight: 8 },
    {
      arbitrary: fc.constantFrom(
        `{"version":"2.1.0","runs":${DEEP(50_000, '[', ']')}}`,
        `{"version":"2.1.0","runs":[{"results":[{"message":${DEEP(10_000, '{"text":', '}')}}]}]}`,
        `{"runs": "{${'{'.repeat(100_000)}"`,
        `noise {braces} "runs" ${'{'.repeat(10_000)}}`,
        '{"version":"2.1.0","runs":[{"results":[{"message":{"text":"t"},"locations":[{"physicalLocation":{"artifactLocation":{"index":1e308}}}]}]}]}',
        '{"version":"2.1.0","runs":[{"artifacts":[null,1,"x"],"results":[{"locations":[{"physicalLocation":{"artifactLocation":{"index":0}}}]}]}]}',
      ),
      weight: 1,
    },
  );
}

function attribute(): fc.Arbitrary<string> {
  return fc.oneof(
    {
      arbitrary: fc.constantFrom(
        'src/a.test.ts',
        'test_x.py',
        'com.example.Test',
        'pytest',
        '',
        ' ',
        '0',
        '-1',
        '1e9',
        '99999999999999999999',
      ),
      weight: 4,
    },
    {
      arbitrary: fc.constantFrom(
        '&lol9;',
        '&#x110000;',
        '&#0;',
        '&#xD800;',
        '&amp;&lt;&gt;&quot;&apos;',
        '&constructor;',
        'a<b',
        "it's",
        'x'.repeat(1_000_000),
        '/'.repeat(50_000),
      ),
      weight: 2,
    },
    { arbitrary: fc.string({ unit: 'binary', maxLength: 40 }), weight: 1 },
  );
}

const BOMB = `<!DOCTYPE lolz [
<!ENTITY lol "lol">
${Array.from({ length: 9 }, (_, i) => `<!ENTITY lol${i + 1} "${`&lol${i === 0 ? '' : i};`.repeat(10)}">`).join('\n')}
]>`;

export function hostileJunit(): fc.Arbitrary<string> {
  const q = (v: string): string => `"${v.replace(/"/g, '&quot;')}"`;
  const problem = fc
    .tuple(
      fc.constantFrom('failure', 'error', 'skipped'),
      attribute(),
      attribute(),
      fc.oneof(
        attribute(),
        fc.constantFrom('<![CDATA[stack <at> x]]>', '<![CDATA[unclosed', '&lol9;&lol9;', `${'&amp;'.repeat(10_000)}`),
      ),
      fc.boolean(),
    )
    .map(([tag, message, type, body, selfClosing]) =>
      selfClosing
        ? `<${tag} message=${q(message)} type=${q(type)}/>`
        : `<${tag} message=${q(message)} type=${q(type)}>${body}</${tag}>`,
    );
  const testcase = fc
    .tuple(attribute(), attribute(), attribute(), attribute(), fc.array(problem, { maxLength: 2 }))
    .map(
      ([name, classname, file, line, problems]) =>
        `<testcase name=${q(name)} classname=${q(classname)} file=${q(file)} line=${q(line)}>${problems.join('')}</testcase>`,
    );
  const suite = fc
    .tuple(attribute(), fc.array(testcase, { maxLength: 6 }))
    .map(([name, cases]) => `<testsuite name=${q(name)} tests="${cases.length}">${cases.join('\n')}</testsuite>`);
  const report = fc
    .tuple(
      fc.constantFrom(
        '',
        '<?xml version="1.0" encoding="UTF-8"?>\n',
        BOMB,
        '<!DOCTYPE x SYSTEM "file:///etc/passwd">',
        '<!-- unclosed comment',
      ),
      attribute(),
      fc.array(suite, { maxLength: 3 }),
    )
    .map(([head, name, suites]) => `${head}<testsuites name=${q(name)}>${suites.join('\n')}</testsuites>`);
  return fc.oneof(
    { arbitrary: maybeTruncate(report), weight: 8 },
    {
      arbitrary: fc.constantFrom(
        `${BOMB}<testsuites><testsuite name="s"><testcase name="&lol9;"><failure message="&lol9;">&lol9;</failure></testcase></testsuite></testsuites>`,
        `<testsuite name="deep">${DEEP(5_000, '<testsuite name="d/x.ts">', '</testsuite>')}<testcase name="c"><failure/></testcase></testsuite>`,
        `<testsuite ${'a'.repeat(200_000)}><testcase name="t"><failure message="m"/></testcase></testsuite>`,
        `<testsuite name="s"><testcase name="t" ${'b=1 '.repeat(50_000)}><failure/></testcase></testsuite>`,
        `<testsuite>${'<'.repeat(200_000)}</testsuite>`,
        `<testsuite><testcase name="t"><failure message="${'"'.repeat(3)}${'x'.repeat(100_000)}`,
        `<testsuite>${'<testcase name="t"><error/></testcase>'.repeat(20_000)}</testsuite>`,
      ),
      weight: 1,
    },
  );
}

/** Console noise around a report, invalid UTF-8 bytes or a NUL now and then. */
export function withNoise(report: fc.Arbitrary<string>): fc.Arbitrary<Buffer> {
  const bytes = fc.constantFrom(
    Buffer.from([0xff, 0xfe]),
    Buffer.from([0xc3, 0x28]),
    Buffer.from([0xe2, 0x82]),
    Buffer.from([0]),
    Buffer.alloc(0),
    Buffer.alloc(0),
  );
  const text = fc.constantFrom(
    '',
    '> npm test\n',
    'npm WARN deprecated {x}\n',
    '\u001b[31mFAIL\u001b[0m src/a.test.ts\n',
    'done\n',
  );
  return fc
    .tuple(text, bytes, report, bytes, text)
    .map(([a, b, r, c, d]) => Buffer.concat([Buffer.from(a), b, Buffer.from(r), c, Buffer.from(d)]));
}
