// Table tests for the two build-time helpers behind releases and licenses: semantic-version precedence (the
// release list must run newest first) and which package a bundled module belongs to.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { compareVersions } from '../../codegen/spec/release-checks.js';
import { packageDir } from '../../build/licenses.js';

describe('compareVersions', () => {
  const ordered = [
    '0.1.0-alpha',
    '0.1.0-alpha.1',
    '0.1.0-alpha.beta',
    '0.1.0-beta',
    '0.1.0-beta.2',
    '0.1.0-beta.11',
    '0.1.0-rc.1',
    '0.1.0',
    '0.2.0',
    '0.10.0',
    '1.0.0',
  ];
  it('orders by semantic-version precedence', () => {
    for (let i = 0; i + 1 < ordered.length; i++) {
      const a = ordered[i] ?? '';
      const b = ordered[i + 1] ?? '';
      assert.ok(compareVersions(a, b) < 0, `${a} < ${b}`);
      assert.ok(compareVersions(b, a) > 0, `${b} > ${a}`);
    }
    assert.equal(compareVersions('1.2.3', '1.2.3'), 0);
  });
});

describe('packageDir', () => {
  const cases: [string, string | undefined][] = [
    ['/r/node_modules/ajv/dist/runtime/equal.js', '/r/node_modules/ajv'],
    ['/r/node_modules/@modelcontextprotocol/server/dist/index.js', '/r/node_modules/@modelcontextprotocol/server'],
    ['/r/node_modules/a/node_modules/b/lib/i.js', '/r/node_modules/a/node_modules/b'],
    ['\0/r/node_modules/sade/lib/index.js?commonjs-exports', '/r/node_modules/sade'],
    ['/r/src/verbs/docs.ts', undefined],
    ['\0commonjsHelpers.js', undefined],
  ];
  for (const [id, dir] of cases) it(JSON.stringify(id), () => assert.equal(packageDir(id), dir));
});
