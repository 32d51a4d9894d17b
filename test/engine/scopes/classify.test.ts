// What a change activates: scopes, neutral scopes, whether it is code, and the paths no scope claims.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { classify, compileScopes, type ChangedPath, type CompiledScope } from '../../../src/engine/scopes/index.js';

function compiled(): CompiledScope[] {
  const { scopes, problems } = compileScopes([
    { name: 'docs', paths: ['docs/**', '*.md'], neutral: true },
    { name: 'ci', paths: ['.github/**'], neutral: true },
    { name: 'web', paths: ['web/**'], neutral: false },
    { name: 'tests', paths: ['/fixtures/', 'test/**'], neutral: false },
  ]);
  assert.deepEqual(problems, []);
  return scopes;
}

describe('classify', () => {
  it('is empty and not code for no changes', () => {
    assert.deepEqual(classify([], compiled()), { scopes: [], neutral: [], code: false, unscoped: [], paths: 0 });
  });

  it('is not code when every path lies in a neutral scope', () => {
    const result = classify(
      [{ path: 'docs/a.md' }, { path: '.github/workflows/ci.yml' }, { path: 'README.md' }],
      compiled(),
    );
    assert.deepEqual(result, { scopes: ['docs', 'ci'], neutral: ['docs', 'ci'], code: false, unscoped: [], paths: 3 });
  });

  it('counts one unmatched path as code and lists it', () => {
    const result = classify([{ path: 'docs/a.md' }, { path: 'src/main.ts' }], compiled());
    assert.deepEqual(result, { scopes: ['docs'], neutral: ['docs'], code: true, unscoped: ['src/main.ts'], paths: 2 });
  });

  it('counts a path in a non-neutral scope as code', () => {
    const result = classify([{ path: 'web/app.ts' }], compiled());
    assert.deepEqual(result, { scopes: ['web'], neutral: [], code: true, unscoped: [], paths: 1 });
  });

  it('is not code when a path is in a neutral and a non-neutral scope at once', () => {
    const result = classify([{ path: 'web/README.md' }], compiled());
    assert.deepEqual(result, { scopes: ['docs', 'web'], neutral: ['docs'], code: false, unscoped: [], paths: 1 });
  });

  it('counts both sides of a rename out of a neutral scope into an unmatched path', () => {
    const result = classify([{ path: 'src/guide.txt', from: 'docs/guide.txt' }], compiled());
    assert.deepEqual(result, {
      scopes: ['docs'],
      neutral: ['docs'],
      code: true,
      unscoped: ['src/guide.txt'],
      paths: 2,
    });
  });

  it('activates the scope a rename leaves as well as the one it enters', () => {
    const result = classify([{ path: 'test/fixtures/a.json', from: 'web/a.json' }], compiled());
    assert.deepEqual(result, { scopes: ['web', 'tests'], neutral: [], code: true, unscoped: [], paths: 2 });
  });

  it('deduplicates repeated paths and renames that overlap other changes', () => {
    const changes: ChangedPath[] = [
      { path: 'src/b.ts' },
      { path: 'src/a.ts', from: 'src/b.ts' },
      { path: 'src/a.ts' },
      { path: 'src/c.ts', from: 'src/c.ts' },
      { path: 'src/b.ts' },
    ];
    const result = classify(changes, compiled());
    assert.deepEqual(result, {
      scopes: [],
      neutral: [],
      code: true,
      unscoped: ['src/a.ts', 'src/b.ts', 'src/c.ts'],
      paths: 3,
    });
  });

  it('reports scopes in definition order, whatever order the paths arrive in', () => {
    const forward = classify(
      [{ path: 'docs/a.md' }, { path: 'web/x' }, { path: 'test/y' }, { path: '.github/z' }],
      compiled(),
    );
    const backward = classify(
      [{ path: '.github/z' }, { path: 'test/y' }, { path: 'web/x' }, { path: 'docs/a.md' }],
      compiled(),
    );
    assert.deepEqual(forward.scopes, ['docs', 'ci', 'web', 'tests']);
    assert.deepEqual(forward.neutral, ['docs', 'ci']);
    assert.deepEqual(backward, forward);
  });

  it('sorts unscoped paths by code unit, independent of locale', () => {
    const result = classify(
      [{ path: 'b' }, { path: 'B' }, { path: 'a/z' }, { path: 'a.z' }, { path: '\u00e9' }],
      compiled(),
    );
    assert.deepEqual(result.unscoped, ['B', 'a.z', 'a/z', 'b', '\u00e9']);
  });

  it('is code whenever there are no scopes at all', () => {
    assert.deepEqual(classify([{ path: 'docs/a.md' }], []), {
      scopes: [],
      neutral: [],
      code: true,
      unscoped: ['docs/a.md'],
      paths: 1,
    });
  });

  it('names a scope once even if two compiled scopes share that name', () => {
    const { scopes } = compileScopes([
      { name: 'docs', paths: ['docs/**'], neutral: true },
      { name: 'docs', paths: ['*.md'], neutral: true },
    ]);
    const result = classify([{ path: 'docs/a.md' }], scopes);
    assert.deepEqual(result.scopes, ['docs']);
    assert.deepEqual(result.neutral, ['docs']);
  });
});
