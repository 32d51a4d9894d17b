// Malformed patterns come back as classified problems; user input must never make the classifier throw.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { compilePattern, compileScopes } from '../../../src/engine/scopes/index.js';

describe('invalid patterns', () => {
  const rows: readonly [pattern: string, reasonContains: string][] = [
    ['', 'empty'],
    ['./', 'no path'],
    ['/', 'no path'],
    ['..', '..'],
    ['../x', '..'],
    ['a/../b', '..'],
    ['a/..', '..'],
    ['/../x/', '..'],
    ['{a,..}/x', '..'],
    ['a/./b', '.'],
    ['a//b', 'empty path segment'],
    ['//', 'empty path segment'],
    ['docs/', 'trailing'],
    ['src/{a,b', 'closing `}`'],
    ['src/[ab', 'closing `]`'],
    ['src/[a/b]', 'closing `]`'],
    ['src/[z-a]', 'out of order'],
    ['{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}', 'more than'],
  ];
  for (const [pattern, reasonContains] of rows) {
    it(`rejects ${JSON.stringify(pattern)}`, () => {
      let compiled: ReturnType<typeof compilePattern> | undefined;
      assert.doesNotThrow(() => {
        compiled = compilePattern(pattern);
      });
      if (compiled === undefined || compiled.ok) return assert.fail(`${pattern} compiled`);
      assert.ok(compiled.reason.includes(reasonContains), compiled.reason);
    });
  }

  it('still accepts names that merely contain dots', () => {
    for (const pattern of ['...', 'a/..b', 'a/b..', '.github/**', '.env']) {
      assert.equal(compilePattern(pattern).ok, true, pattern);
    }
  });
});

describe('compileScopes', () => {
  it('reports bad patterns against their scope and keeps the good ones', () => {
    const { scopes, problems } = compileScopes([
      { name: 'docs', paths: ['docs/**', '', '../x'], neutral: true },
      { name: 'code', paths: ['a/../b', 'src/**'], neutral: false },
    ]);
    assert.deepEqual(
      problems.map(({ scope, index, pattern }) => ({ scope, index, pattern })),
      [
        { scope: 'docs', index: 1, pattern: '' },
        { scope: 'docs', index: 2, pattern: '../x' },
        { scope: 'code', index: 0, pattern: 'a/../b' },
      ],
    );
    for (const problem of problems) assert.ok(problem.reason.length > 0);
    assert.deepEqual(
      scopes.map(({ name, neutral }) => ({ name, neutral })),
      [
        { name: 'docs', neutral: true },
        { name: 'code', neutral: false },
      ],
    );
    assert.equal(scopes[0]?.matches('docs/a.md'), true);
    assert.equal(scopes[1]?.matches('src/a.ts'), true);
    assert.equal(scopes[1]?.matches('b'), false);
  });

  it("matches a path when any of the scope's patterns does", () => {
    const { scopes, problems } = compileScopes([
      { name: 'web', paths: ['web/**', '*.css', 'package.json'], neutral: false },
    ]);
    assert.deepEqual(problems, []);
    const web = scopes[0];
    assert.ok(web);
    assert.deepEqual(
      ['web/a.ts', 'lib/x.css', 'package.json', 'lib/package.json'].map((path) => web.matches(path)),
      [true, true, true, false],
    );
  });

  it('leaves a scope whose every pattern is invalid matching nothing', () => {
    const { scopes, problems } = compileScopes([{ name: 'broken', paths: [''], neutral: true }]);
    assert.equal(problems.length, 1);
    assert.equal(scopes[0]?.matches(''), false);
    assert.equal(scopes[0]?.matches('a'), false);
  });
});
