// The README's main command, `npm run demo`, run as a newcomer runs it (against the built dist/): every step it
// walks through must behave as documented, or it exits non-zero and this fails.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { REPO_ROOT } from '../helpers/cli.js';
import { cleanEnv } from '../helpers/scratch-repo.js';

describe('the demo', () => {
  it('runs end to end: every step behaves as documented', { timeout: 180_000 }, () => {
    const tsx = join(REPO_ROOT, 'node_modules', '.bin', 'tsx');
    const run = spawnSync(tsx, [join(REPO_ROOT, 'demo', 'demo.ts')], {
      cwd: REPO_ROOT,
      env: cleanEnv(),
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
    });
    assert.equal(run.status, 0, `${run.stdout.slice(-4000)}\n${run.stderr.slice(-4000)}`);
    assert.match(run.stdout, /Demo finished: every step behaved as documented\./);
  });
});
