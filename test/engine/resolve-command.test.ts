// Whether a job's command resolves, decided without running it.
import { describe, it, after } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { firstProgram, resolveCommand } from '../../src/engine/jobs/resolve-command.js';
import { tempDir } from '../helpers/scratch-repo.js';

const root = tempDir('discern-cmd-');
after(() => rmSync(root, { recursive: true, force: true }));
mkdirSync(join(root, 'scripts'));
writeFileSync(join(root, 'scripts/check.sh'), '#!/bin/sh\nexit 0\n');
chmodSync(join(root, 'scripts/check.sh'), 0o755);
writeFileSync(join(root, 'scripts/plain.txt'), 'not executable');
mkdirSync(join(root, 'node_modules/.bin'), { recursive: true });
writeFileSync(join(root, 'node_modules/.bin/localtool'), '#!/bin/sh\n');
chmodSync(join(root, 'node_modules/.bin/localtool'), 0o755);
const env = { PATH: process.env['PATH'] ?? '' };

describe('firstProgram', () => {
  const cases: [string, string | undefined][] = [
    ['npm test', 'npm'],
    ['CI=1 FOO=bar npm run lint', 'npm'],
    ['"./scripts/with space.sh" --x', './scripts/with space.sh'],
    ['  git --version  ', 'git'],
    ['A=1', undefined],
    ['exec npm test', 'npm'],
    ['time -p make check', 'make'],
    ['command -v git', 'git'],
  ];
  for (const [command, want] of cases) it(command, () => assert.equal(firstProgram(command), want));
});

describe('resolveCommand', () => {
  const cases: [string, 'ok' | 'warn' | 'fail'][] = [
    ['git --version', 'ok'],
    ['echo hi', 'ok'],
    ['./scripts/check.sh --all', 'ok'],
    ['scripts/check.sh', 'ok'],
    ['./scripts/plain.txt', 'fail'],
    ['./scripts/missing.sh', 'fail'],
    ['no-such-program-for-discern --x', 'fail'],
    ['localtool run', 'warn'],
    ['if true; then echo; fi', 'warn'],
    ['(cd sub && make)', 'warn'],
    ['exec true', 'ok'],
    ['exec no-such-program-for-discern', 'fail'],
    ['local x=1', 'ok'],
    ['~/bin/tool --x', 'warn'],
    ['$HOME/bin/tool', 'warn'],
    ['`which node` -v', 'warn'],
  ];
  for (const [command, status] of cases) {
    it(`${command} → ${status}`, async () => {
      const result = await resolveCommand(command, root, env);
      assert.equal(result.status, status, result.detail);
    });
  }
});
