// types/discern-json.d.ts compiles for a downstream consumer under `tsc --strict`, standalone (no imports),
// and its narrowing rules hold: the consumer fixture's @ts-expect-error lines must each be needed.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { REPO_ROOT } from '../helpers/cli.js';

const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');

describe('published types', () => {
  it('are standalone: no import or require of anything', () => {
    const text = readFileSync(`${REPO_ROOT}types/discern-json.d.ts`, 'utf8');
    assert.doesNotMatch(text, /^\s*import\s/m);
    assert.doesNotMatch(text, /require\(/);
  });
  it('compile for a consumer under tsc --strict, with every @ts-expect-error needed', () => {
    const run = spawnSync(
      process.execPath,
      [tsc, '--ignoreConfig', '--strict', '--noEmit', '--target', 'ES2022', '--module', 'NodeNext', '--moduleResolution', 'NodeNext', 'consumer.ts'],
      // From the fixture's own folder, so the repository's tsconfig.json is not involved.
      { cwd: `${REPO_ROOT}test/fixtures/consumer`, encoding: 'utf8' },
    );
    assert.equal(run.status, 0, `${run.stdout}${run.stderr}`);
  });
});
