// upgrade on the shipped version-0 fixture: the plan names each rename and its line, the migration keeps every
// comment and value, the result loads, a second run writes nothing, and refusals leave the file as it was.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import type { DiscernUpgradeData } from '../../generated/types.js';
import { call } from '../helpers/drive.js';
import { scratchRepo } from '../helpers/scratch-repo.js';

const V0 = readFileSync(new URL('../fixtures/config/v0-discern.toml', import.meta.url), 'utf8');

test('upgrade migrates the version-0 fixture in place and the project loads again', async () => {
  const repo = scratchRepo({ 'discern.toml': V0 });
  const file = join(repo.root, 'discern.toml');
  const dry = await call('upgrade', { dry_run: true }, repo.root);
  assert.equal(dry.ok, true, JSON.stringify(dry));
  assert.equal(dry.dry_run, true);
  assert.deepEqual(dry.plan?.details, [
    'rename `repository.main_branch` (line 11) to `repository.trunk`',
    'rename `project.id` (line 7) to `project.slug`',
  ]);
  assert.equal(readFileSync(file, 'utf8'), V0, 'a dry run writes nothing');

  const applied = await call('upgrade', {}, repo.root);
  assert.equal(applied.ok, true, JSON.stringify(applied));
  const data = applied.data as DiscernUpgradeData;
  assert.deepEqual([data.from_version, data.to_version, data.changed], [0, 1, true]);
  const text = readFileSync(file, 'utf8');
  assert.equal(
    text,
    V0.replace('schema_version = 0', 'schema_version = 1')
      .replace('id = "legacy"   # the short name', 'slug = "legacy"   # the short name')
      .replace('main_branch = "main"', 'trunk = "main"'),
    'only the renamed keys and the version changed; comments and layout kept',
  );
  assert.equal(data.instruction_refresh?.status, 'complete');
  assert.deepEqual(
    [...(data.instruction_refresh?.compiled ?? [])].filter((p) => p === 'CLAUDE.md' || p === 'AGENTS.md').sort(),
    ['AGENTS.md', 'CLAUDE.md'],
  );
  const doctor = await call('doctor', {}, repo.root);
  assert.equal(doctor.ok, true, JSON.stringify(doctor));

  const again = await call('upgrade', {}, repo.root);
  assert.equal(again.ok, true);
  assert.equal((again.data as DiscernUpgradeData).changed, false);
  assert.deepEqual((again.data as DiscernUpgradeData).instruction_refresh, { status: 'complete', compiled: [] });
  assert.equal(again.steps, undefined, 'nothing was written the second time');
  assert.equal(readFileSync(file, 'utf8'), text);
});

test('a newer format, or a rename whose new key is already set, is refused with the file untouched', async () => {
  const newer = scratchRepo({ 'discern.toml': '[meta]\nschema_version = 5\n' });
  const refused = await call('upgrade', {}, newer.root);
  assert.equal(refused.error, 'schema_version_too_new', JSON.stringify(refused));
  assert.equal(readFileSync(join(newer.root, 'discern.toml'), 'utf8'), '[meta]\nschema_version = 5\n');

  const both = '[meta]\nschema_version = 0\n\n[repository]\nmain_branch = "main"\ntrunk = "main"\n';
  const clash = scratchRepo({ 'discern.toml': both });
  const result = await call('upgrade', {}, clash.root);
  assert.equal(result.error, 'edit_failed', JSON.stringify(result));
  assert.equal(readFileSync(join(clash.root, 'discern.toml'), 'utf8'), both);
});

test('a refresh that stops part way fails the upgrade as partial_refresh, keeps the migration, and names the safe retry', async () => {
  const repo = scratchRepo({ 'discern.toml': V0 });
  const result = await call('upgrade', {}, repo.root, { DISCERN_FAULT: 'refresh:write:AGENTS.md' });
  assert.equal(result.ok, false);
  assert.equal(result.error, 'partial_refresh', JSON.stringify(result));
  const data = result.data as DiscernUpgradeData;
  assert.equal(data.changed, true);
  assert.equal(data.instruction_refresh?.status, 'partial');
  assert.equal(data.instruction_refresh?.effects_preserved, true);
  assert.deepEqual(data.instruction_refresh?.recovery, { command: 'discern refresh', safe_to_retry: true });
  assert.match(data.instruction_refresh?.failures?.[0] ?? '', /^AGENTS\.md: /);
  assert.match(readFileSync(join(repo.root, 'discern.toml'), 'utf8'), /^trunk = "main"$/m, 'the migration stays');
  assert.match(result.hints?.at(-1) ?? '', /discern refresh/);
  const retry = await call('refresh', {}, repo.root);
  assert.equal(retry.ok, true, JSON.stringify(retry));
});
