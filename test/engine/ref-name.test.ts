// Branch-name rules for the trunk, table-tested against git's own check-ref-format on refs/heads/<name>
// (`--branch` would expand "@" and "@{-1}" instead of judging them), plus git branch's refusal of a
// leading "-", and discern's own of HEAD and @ (valid ref names that every git command reads as the current
// commit instead).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { branchNameProblem } from '../../src/engine/git/ref-name.js';

const names = [
  'main',
  'release/1.2',
  'feature-x',
  'a.b',
  'ok.lock.x',
  'main~0',
  'main^',
  'main@{0}',
  'a..b',
  '.x',
  'a/.b',
  'x.lock',
  'a/x.lock/b',
  'x/',
  '/x',
  'x//y',
  'x.',
  '-x',
  '@',
  'HEAD',
  'a b',
  'a:b',
  'a?b',
  'a*b',
  'a[b',
  'a\\b',
  'tab\tx',
  '',
];

describe('branchNameProblem agrees with git check-ref-format', () => {
  for (const name of names) {
    it(JSON.stringify(name), () => {
      const git = spawnSync('git', ['check-ref-format', `refs/heads/${name}`], { encoding: 'utf8' });
      const gitAccepts =
        git.status === 0 && !name.startsWith('-') && name.length > 0 && name !== '@' && name !== 'HEAD';
      assert.equal(branchNameProblem(name) === undefined, gitAccepts, branchNameProblem(name) ?? 'accepted');
    });
  }
});
