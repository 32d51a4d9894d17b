// Splitting a package script into one job per part, only where each part's effect is known: table-driven.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { splitChain } from '../../../src/engine/setup/chains.js';

const ctx = (scripts: Record<string, string>) => ({
  exec: 'npx',
  scripts,
  runScript: (name: string) => (name === 'test' ? 'npm test' : `npm run ${name}`),
});

const CASES: [string, Record<string, string>, string[] | undefined][] = [
  ['three tools', { test: 'xo && ava && tsd' }, ['xo:check:npx xo', 'ava:test:npx ava', 'tsd:check:npx tsd']],
  [
    'a check-only formatter',
    { test: 'eslint . && prettier --check .' },
    ['eslint:check:npx eslint .', 'prettier:check:npx prettier --check .'],
  ],
  ['a build the tests read runs first', { test: 'tsc && ava' }, ['tsc:build:npx tsc', 'ava:test:npx ava']],
  [
    'tsc --noEmit is a check',
    { test: 'tsc --noEmit && vitest run' },
    ['tsc:check:npx tsc --noEmit', 'vitest:test:npx vitest run'],
  ],
  ['coverage around a runner', { test: 'xo && c8 ava' }, ['xo:check:npx xo', 'ava:test:npx c8 ava']],
  ["node's own runner", { test: 'node --test && xo' }, ['node-test:test:node --test', 'xo:check:npx xo']],
  [
    'other scripts',
    { test: 'npm run lint && npm run unit', lint: 'eslint .', unit: 'mocha' },
    ['lint:check:npm run lint', 'unit:test:npm run unit'],
  ],
  [
    'a tool twice',
    { test: 'eslint src && eslint test' },
    ['eslint:check:npx eslint src', 'eslint-2:check:npx eslint test'],
  ],
  ['one part is no chain', { test: 'ava' }, undefined],
  ['a part that fixes files', { test: 'eslint --fix . && ava' }, undefined],
  ['prettier that writes', { test: 'prettier --write . && ava' }, undefined],
  ['an unknown tool', { test: 'xo && ./scripts/check.sh' }, undefined],
  ['an or', { test: 'xo || ava' }, undefined],
  ['a pipe', { test: 'xo && ava | tee out' }, undefined],
  ['a variable', { test: 'FOO=1 ava && xo' }, undefined],
  ['a pretest script would be lost', { test: 'xo && ava', pretest: 'node build.js' }, undefined],
  ['vitest in watch mode', { test: 'xo && vitest' }, undefined],
  ['a referenced script that chains', { test: 'npm run a && xo', a: 'xo && ava' }, undefined],
  ['a script referring to itself', { test: 'npm test && xo' }, undefined],
];

for (const [name, scripts, expected] of CASES)
  test(name, () => {
    const parts = splitChain('test', ctx(scripts));
    assert.deepEqual(
      parts?.map((p) => `${p.name}:${p.stage}:${p.run}`),
      expected,
    );
  });
