// The configuration format's version gate: an older file that still uses a renamed key is refused with the
// key's new name and line and `discern upgrade`; a newer format is refused as such; a file without [meta]
// schema_version, or an old one with nothing renamed, loads.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { parseConfig } from '../../src/engine/config/validate.js';
import { schemaVersionProblem } from '../../src/engine/config/schema-version.js';
import { call } from '../helpers/drive.js';
import { scratchRepo } from '../helpers/scratch-repo.js';
import { parse } from 'smol-toml';

const V0 = readFileSync(new URL('../fixtures/config/v0-discern.toml', import.meta.url), 'utf8');

function check(text: string): ReturnType<typeof schemaVersionProblem> {
  return schemaVersionProblem({ ...parse(text) }, text, 'discern.toml');
}

test('a version-0 file with renamed keys is refused with each new name, its line, and discern upgrade', async () => {
  const problem = check(V0);
  assert.equal(problem?.error, 'renamed_config_key');
  assert.deepEqual(
    problem?.issues.map((i) => [i.path, i.line, i.message]),
    [
      ['repository.main_branch', 11, 'was renamed to `repository.trunk`'],
      ['project.id', 7, 'was renamed to `project.slug`'],
    ],
  );
  const repo = scratchRepo({ 'discern.toml': V0 });
  const doctor = await call('doctor', {}, repo.root);
  assert.equal(doctor.error, 'renamed_config_key', JSON.stringify(doctor));
  assert.match(doctor.message ?? '', /`repository\.main_branch` is now `repository\.trunk`/);
  assert.match(doctor.hints?.at(-1) ?? '', /discern upgrade/);
  const status = await call('status', {}, repo.root);
  assert.equal(status.error, 'renamed_config_key');
});

test('a newer format is refused as such, not as unknown keys', async () => {
  const problem = check('[meta]\nschema_version = 7\n\n[future]\nx = 1\n');
  assert.equal(problem?.error, 'schema_version_too_new');
  assert.equal(problem?.issues[0]?.line, 2);
  assert.match(problem?.message ?? '', /schema_version is 7, and this discern reads formats up to 1/);
});

test('no [meta] schema_version means the current format; an old file with nothing renamed loads', () => {
  assert.equal(check('[project]\nname = "x"\n'), undefined);
  assert.equal(check('[meta]\nschema_version = 0\n\n[repository]\ntrunk = "main"\n'), undefined);
  assert.equal(parseConfig(new TextEncoder().encode('[meta]\nschema_version = 0\n')).ok, true);
});

test('a key this discern does not know, in a file a newer discern drafted, names that version', async () => {
  const text = '[meta]\nsetup_version = "9.2.0"\n\n[gate]\nshiny = true\n';
  const problem = parseConfig(Buffer.from(text));
  assert.equal(problem.ok, false);
  assert.ok(!problem.ok && problem.error === 'unknown_key');
  assert.match(
    problem.message,
    /drafted by discern 9\.2\.0, newer than this discern \(\d+\.\d+\.\d+[^)]*\), which may have introduced it: update discern/,
  );
  assert.match(problem.issues?.[0]?.message ?? '', /discern 9\.2\.0/);
  // Through a verb, and in validate-config's list of every problem.
  const repo = scratchRepo({ 'discern.toml': text });
  const doctor = await call('doctor', {}, repo.root);
  assert.equal(doctor.error, 'unknown_key');
  assert.match(doctor.message ?? '', /discern 9\.2\.0/);
  const listed = await call('validateConfig', { file: 'discern.toml' }, repo.root);
  assert.match(JSON.stringify(listed.data), /drafted by discern 9\.2\.0/);
  // An older or equal drafter says nothing of versions: the key is simply unknown.
  const older = parseConfig(Buffer.from('[meta]\nsetup_version = "0.0.1"\n\n[gate]\nshiny = true\n'));
  assert.ok(!older.ok);
  assert.doesNotMatch(older.message, /drafted by/);
});
