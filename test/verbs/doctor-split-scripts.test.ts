// doctor warns when a package script setup split into jobs no longer reads as it did ([meta] split_scripts): the
// jobs were made from it. A warning, never a failure.
import { after, it } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { call } from '../helpers/drive.js';
import { scratchRepo, type ScratchRepo } from '../helpers/scratch-repo.js';

const repos: ScratchRepo[] = [];
after(() => repos.forEach((r) => r.cleanup()));

const CONFIG = `[meta]
split_scripts = [{ file = "package.json", script = "test", text = "xo && ava" }]

[project]
name = "split"

[jobs.xo]
stage = "check"
run = "true"

[jobs.ava]
stage = "test"
run = "true"
`;

it('a split script as setup read it is ok; changed or gone, it is a warning naming both texts', async () => {
  const repo = scratchRepo({
    'discern.toml': CONFIG,
    'package.json': JSON.stringify({ scripts: { test: 'xo && ava' } }),
  });
  repos.push(repo);
  const check = async (): Promise<{ status: string; detail: string } | undefined> => {
    const r = await call('doctor', {}, repo.root);
    const checks = r.data && 'checks' in r.data ? r.data.checks : [];
    return checks.flatMap((c) => ('name' in c && c.name === 'script:package.json#test' ? [c] : []))[0];
  };
  assert.equal((await check())?.status, 'ok');
  writeFileSync(join(repo.root, 'package.json'), JSON.stringify({ scripts: { test: 'xo && ava && tsd' } }));
  const changed = await check();
  assert.equal(changed?.status, 'warn');
  assert.match(changed?.detail ?? '', /now reads `xo && ava && tsd`; setup split `xo && ava`/);
  writeFileSync(join(repo.root, 'package.json'), JSON.stringify({ scripts: {} }));
  assert.match((await check())?.detail ?? '', /has no `test` script any more/);
});
