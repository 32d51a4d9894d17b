// Shared driver for the pattern tables: every row is [pattern, path, expected], and a row whose pattern
// fails to compile fails loudly rather than counting as "does not match".
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { compilePattern } from '../../../src/engine/scopes/index.js';

export type MatchRow = readonly [pattern: string, path: string, expected: boolean];

export function matchTable(rows: readonly MatchRow[]): void {
  for (const [pattern, path, expected] of rows) {
    it(`${pattern} ${expected ? 'matches' : 'does not match'} ${shown(path)}`, () => {
      const compiled = compilePattern(pattern);
      if (!compiled.ok) assert.fail(`${pattern} did not compile: ${compiled.reason}`);
      assert.equal(compiled.test(path), expected);
    });
  }
}

// Line terminators and other control characters are shown escaped, so each row's title stays on one line.
function shown(path: string): string {
  return /[\u0000-\u001f\u007f\u2028\u2029]/.test(path)
    ? JSON.stringify(path).replace(/[\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16)}`)
    : path;
}
