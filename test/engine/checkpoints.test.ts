// The pure parts of checkpoints, table-tested: git's raw, numstat, copy and zero-context patch output (quoted names,
// names with spaces, deletions, binary files), compiling definitions (every refusal), the evaluation's filters,
// thresholds and veto, and the identity digests.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  parseCopies,
  parseNumstat,
  parseRaw,
  parseZeroContextDiff,
  unquoteC,
  type ChangedFile,
} from '../../src/engine/checkpoints/change-facts.js';
import { compileCheckpoints } from '../../src/engine/checkpoints/definitions.js';
import { evaluateCheckpoint } from '../../src/engine/checkpoints/evaluate.js';
import { definitionHash, subjectOf } from '../../src/engine/checkpoints/identity.js';
import { matchLines } from '../../src/engine/checkpoints/when-command.js';
import type { DiscernConfig } from '../../generated/types.js';

const A = 'a'.repeat(40);
const B = 'b'.repeat(40);
const Z = '0'.repeat(40);

describe('git output', () => {
  it('raw: kinds and blob ids; a deletion has no blob', () => {
    const raw = [
      `:000000 100644 ${Z} ${A} A`,
      'new file.txt',
      `:100644 100644 ${A} ${B} M`,
      'src/x.ts',
      `:100644 000000 ${B} ${Z} D`,
      'old.ts',
      `:100644 120000 ${A} ${B} T`,
      'link',
      '',
    ].join('\0');
    assert.deepEqual(parseRaw(raw), [
      { path: 'new file.txt', kind: 'added', blob: A },
      { path: 'src/x.ts', kind: 'modified', blob: B },
      { path: 'old.ts', kind: 'deleted', blob: null },
      { path: 'link', kind: 'modified', blob: B },
    ]);
  });

  it('numstat: counts, and binary files as such', () => {
    const map = parseNumstat(['3\t1\tsrc/x.ts', '-\t-\tlogo.png', '0\t5\ttab\there.txt', ''].join('\0'));
    assert.deepEqual(Object.fromEntries(map), {
      'src/x.ts': { added: 3, removed: 1, binary: false },
      'logo.png': { added: 0, removed: 0, binary: true },
      'tab\there.txt': { added: 0, removed: 5, binary: false },
    });
  });

  it('zero-context patches: lines per file, quoted and spaced names, deletions, content that looks like a header', () => {
    const patch = [
      'diff --git a/src/x.ts b/src/x.ts',
      'index 1..2 100644',
      '--- a/src/x.ts',
      '+++ b/src/x.ts',
      '@@ -1 +1,2 @@',
      '-old line',
      '+new TODO line',
      '+++ looks like a header',
      'diff --git "a/qu\\"ote.txt" "b/qu\\"ote.txt"',
      '--- "a/qu\\"ote.txt"',
      '+++ "b/qu\\"ote.txt"',
      '@@ -0,0 +1 @@',
      '+quoted',
      'diff --git a/sp ace.txt b/sp ace.txt',
      '--- a/sp ace.txt\t',
      '+++ b/sp ace.txt\t',
      '@@ -1 +0,0 @@',
      '-spaced',
      'diff --git a/gone.ts b/gone.ts',
      'deleted file mode 100644',
      '--- a/gone.ts',
      '+++ /dev/null',
      '@@ -1 +0,0 @@',
      '-legacy()',
      'diff --git a/logo.png b/logo.png',
      'Binary files a/logo.png and b/logo.png differ',
      '',
    ].join('\n');
    assert.deepEqual(Object.fromEntries(parseZeroContextDiff(patch)), {
      'src/x.ts': { added: ['new TODO line', '++ looks like a header'], removed: ['old line'] },
      'qu"ote.txt': { added: ['quoted'], removed: [] },
      'sp ace.txt': { added: [], removed: ['spaced'] },
      'gone.ts': { added: [], removed: ['legacy()'] },
    });
  });

  it('copies: only C records name a similar new file; renames and plain records are stepped over', () => {
    const raw = [
      `:100644 100644 ${A} ${B} M`,
      'src/kept.ts',
      `:100644 100644 ${A} ${A} R100`,
      'src/old.ts',
      'src/moved.ts',
      `:100644 100644 ${A} ${B} C087`,
      'src/api/table.ts',
      'src/billing/table.ts',
      `:000000 100644 ${Z} ${B} A`,
      'src/new.ts',
      '',
    ].join('\0');
    assert.deepEqual(Object.fromEntries(parseCopies(raw)), { 'src/billing/table.ts': 'src/api/table.ts' });
  });

  it('when output: DISCERN_MATCH lines name paths (spaces kept, CR dropped, repeats once)', () => {
    assert.deepEqual(
      matchLines('noise\nDISCERN_MATCH a b.ts\r\nDISCERN_MATCH x.ts\nDISCERN_MATCH x.ts\n DISCERN_MATCH y\n'),
      ['a b.ts', 'x.ts'],
    );
  });

  it('C-quoted names: escapes and octal UTF-8 bytes', () => {
    assert.equal(unquoteC('"a\\tb\\\\c\\"d"'), 'a\tb\\c"d');
    assert.equal(unquoteC('"caf\\303\\251"'), 'café');
  });
});

function config(checkpoints: Record<string, unknown>): DiscernConfig {
  return {
    scopes: { api: { paths: ['src/api/**'] }, docs: { paths: ['docs/**'] } },
    generated: { client: { paths: ['gen/**'], run: 'true' } },
    checkpoints,
  } as DiscernConfig;
}

describe('definitions', () => {
  it('refuses what cannot be used, by dotted key', () => {
    const { definitions, issues } = compileCheckpoints(
      config({
        none: { question: '?' },
        two: { scope: 'api', paths: ['x'], question: '?' },
        unknown: { scope: 'nope', question: '?' },
        badglob: { paths: ['docs/'], question: '?' },
        noq: { scope: 'api' },
        twoq: { scope: 'api', question: '?', question_file: 'q.md' },
        fine: { scope: 'api', question: '?' },
      }),
    );
    assert.deepEqual(
      definitions.map((d) => d.id),
      ['fine'],
    );
    assert.deepEqual(
      issues.map((i) => i.path),
      [
        'checkpoints.none',
        'checkpoints.two',
        'checkpoints.unknown.scope',
        'checkpoints.badglob.paths.0',
        'checkpoints.noq',
        'checkpoints.twoq',
      ],
    );
  });
});

function file(path: string, kind: ChangedFile['kind'], added = 1, removed = 0, binary = false): ChangedFile {
  return { path, kind, blob: kind === 'deleted' ? null : A, added, removed, binary };
}

function evaluate(
  table: Record<string, unknown>,
  files: ChangedFile[],
  extra: { commits?: number; lines?: Map<string, { added: string[]; removed: string[] }>; dirs?: Set<string> } = {},
): ReturnType<typeof evaluateCheckpoint> {
  const compiled = compileCheckpoints(config({ c: { question: '?', ...table } }));
  assert.deepEqual(compiled.issues, []);
  const def = compiled.definitions[0];
  assert.ok(def);
  return evaluateCheckpoint(def, {
    files,
    commits: extra.commits ?? 1,
    generated: compiled.generated,
    ...(extra.lines ? { lines: extra.lines } : {}),
    ...(extra.dirs ? { baseDirectories: extra.dirs } : {}),
  });
}

describe('evaluation', () => {
  const cases: [
    string,
    Record<string, unknown>,
    ChangedFile[],
    string[] | false,
    { commits?: number; lines?: Map<string, { added: string[]; removed: string[] }>; dirs?: Set<string> }?,
  ][] = [
    [
      'scope selector',
      { scope: 'api' },
      [file('src/api/a.ts', 'modified'), file('src/b.ts', 'modified')],
      ['src/api/a.ts'],
    ],
    ['paths selector, nothing matched', { paths: ['lib/**'] }, [file('src/a.ts', 'modified')], false],
    ['generated output is left out', { paths: ['gen/**'] }, [file('gen/x.ts', 'modified')], false],
    [
      'include_generated keeps it',
      { paths: ['gen/**'], include_generated: true },
      [file('gen/x.ts', 'modified')],
      ['gen/x.ts'],
    ],
    [
      'exclude_paths',
      { scope: 'api', exclude_paths: ['src/api/skip.ts'] },
      [file('src/api/skip.ts', 'modified'), file('src/api/a.ts', 'added')],
      ['src/api/a.ts'],
    ],
    [
      'kinds',
      { scope: 'api', kinds: ['deleted'] },
      [file('src/api/a.ts', 'modified'), file('src/api/b.ts', 'deleted')],
      ['src/api/b.ts'],
    ],
    [
      'adds_matching',
      { scope: 'api', adds_matching: ['TODO'] },
      [file('src/api/a.ts', 'modified'), file('src/api/b.ts', 'modified')],
      ['src/api/b.ts'],
      {
        lines: new Map([
          ['src/api/a.ts', { added: ['x'], removed: ['TODO'] }],
          ['src/api/b.ts', { added: ['// TODO'], removed: [] }],
        ]),
      },
    ],
    [
      'removes_matching',
      { scope: 'api', removes_matching: ['TODO'] },
      [file('src/api/a.ts', 'modified'), file('src/api/b.ts', 'modified')],
      ['src/api/a.ts'],
      {
        lines: new Map([
          ['src/api/a.ts', { added: ['x'], removed: ['TODO'] }],
          ['src/api/b.ts', { added: ['// TODO'], removed: [] }],
        ]),
      },
    ],
    [
      'new_directory',
      { paths: ['src/**'], new_directory: true },
      [file('src/api/a.ts', 'added'), file('src/new/b.ts', 'added'), file('src/new2/c.ts', 'modified')],
      ['src/new/b.ts'],
      { dirs: new Set(['src', 'src/api']) },
    ],
    [
      'binary',
      { paths: ['**'], binary: true },
      [file('a.png', 'added', 0, 0, true), file('b.txt', 'added')],
      ['a.png'],
    ],
    ['min_changed_files unmet', { scope: 'api', min_changed_files: 2 }, [file('src/api/a.ts', 'modified')], false],
    [
      'min_changed_lines met',
      { scope: 'api', min_changed_lines: 5 },
      [file('src/api/a.ts', 'modified', 3, 2)],
      ['src/api/a.ts'],
    ],
    [
      'deletion_dominant unmet',
      { scope: 'api', deletion_dominant: true },
      [file('src/api/a.ts', 'modified', 3, 3)],
      false,
    ],
    [
      'min_commits',
      { scope: 'api', min_commits: 2 },
      [file('src/api/a.ts', 'modified')],
      ['src/api/a.ts'],
      { commits: 2 },
    ],
    [
      'unless_changed vetoes by scope name',
      { scope: 'api', unless_changed: ['docs'] },
      [file('src/api/a.ts', 'modified'), file('docs/x.md', 'modified')],
      false,
    ],
    [
      'unless_changed vetoes by pattern',
      { scope: 'api', unless_changed: ['CHANGELOG.md'] },
      [file('src/api/a.ts', 'modified'), file('CHANGELOG.md', 'modified')],
      false,
    ],
  ];
  for (const [name, table, files, expected, extra] of cases) {
    it(name, () => {
      const outcome = evaluate(table, files, extra);
      assert.equal(outcome?.holds, expected !== false, outcome?.why);
      if (expected !== false)
        assert.deepEqual(
          outcome?.matched.map((f) => f.path),
          expected,
        );
      assert.match(outcome?.why ?? '', /\.$/);
    });
  }
  it('the veto names the entries that matched', () => {
    assert.deepEqual(
      evaluate({ scope: 'api', unless_changed: ['docs', 'CHANGELOG.md'] }, [
        file('src/api/a.ts', 'modified'),
        file('docs/x.md', 'added'),
      ]).vetoedBy,
      ['docs'],
    );
  });
});

describe('identity', () => {
  it('the definition hash follows the trigger and question, not teach or reference; the subject follows contents', () => {
    const hash = (table: Record<string, unknown>, question = '?'): string => {
      const def = compileCheckpoints(config({ c: { question, ...table } })).definitions[0];
      assert.ok(def);
      return definitionHash(def, question);
    };
    assert.equal(hash({ scope: 'api' }), hash({ scope: 'api', teach: 'read the docs', reference: 'docs/x.md' }));
    assert.equal(hash({ paths: ['a/**', 'b/**'] }), hash({ paths: ['b/**', 'a/**'] }));
    assert.notEqual(hash({ scope: 'api' }), hash({ scope: 'api', kinds: ['added'] }));
    assert.notEqual(hash({ scope: 'api' }), hash({ scope: 'api' }, 'another question?'));
    const one = subjectOf([file('a.ts', 'modified')]);
    assert.equal(one, subjectOf([file('a.ts', 'modified')]));
    assert.notEqual(one, subjectOf([{ ...file('a.ts', 'modified'), blob: B }]));
    assert.notEqual(one, subjectOf([file('a.ts', 'deleted')]));
    assert.equal(
      subjectOf([file('a.ts', 'modified'), file('b.ts', 'added')]),
      subjectOf([file('b.ts', 'added'), file('a.ts', 'modified')]),
    );
  });
});
