// The one reader of discern's private state: records written by the previous version still read (fixtures
// written by it), and a record that fails its schema is skipped and reported, never a crash, in the verbs that
// read it. Real repositories, the verbs through the same invoke() the surfaces use.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { STATE_VALIDATORS } from '../../../generated/state-validators.js';
import type { StateKind } from '../../../src/engine/state/state-record.js';
import { call } from '../../helpers/drive.js';
import { effort, trackedRepo } from '../../helpers/efforts.js';
import { REPO_ROOT } from '../../helpers/cli.js';
import type { ScratchRepo } from '../../helpers/scratch-repo.js';

const repos: ScratchRepo[] = [];
after(() => repos.forEach((r) => r.cleanup()));

const FIXTURES = join(REPO_ROOT, 'test', 'fixtures', 'state');

describe('state written by the previous version', () => {
  for (const version of readdirSync(FIXTURES).sort()) {
    for (const kind of readdirSync(join(FIXTURES, version)).sort()) {
      for (const file of readdirSync(join(FIXTURES, version, kind)).sort()) {
        it(`${version}: ${kind}/${file} reads`, async () => {
          const load = STATE_VALIDATORS[kind as StateKind];
          assert.ok(load, `${kind} is a state record kind`);
          const validate = await load();
          const value: unknown = JSON.parse(readFileSync(join(FIXTURES, version, kind, file), 'utf8'));
          assert.ok(validate(value), JSON.stringify(validate.errors));
        });
      }
    }
  }
});

describe('a submission record that fails its schema', () => {
  for (const [name, broken] of [
    ['has no head', (s: Record<string, unknown>) => delete s['head']],
    ['has a head that is not a string', (s: Record<string, unknown>) => (s['head'] = 42)],
  ] as const) {
    it(`(it ${name}) is skipped by status and accept, which say so`, async () => {
      const r = trackedRepo(repos);
      const other = await effort(r, 'other', 'other.txt', 'o\n');
      assert.equal((await call('accept', {}, other.path)).error, 'awaiting_consent');
      const file = join(r.root, '.git', 'discern', 'submissions', 'other.json');
      const record = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
      broken(record);
      writeFileSync(file, JSON.stringify(record));
      const status = await call('status', {}, r.root);
      assert.ok(status.ok, JSON.stringify(status, null, 2));
      const advisory = status.advisories?.find((a) => a.kind === 'state-record-skipped');
      assert.ok(
        advisory?.evidence.some((e) => e.includes(file)),
        JSON.stringify(status.advisories),
      );
      const w = await effort(r, 'mine', 'mine.txt', 'm\n');
      const landed = await call('accept', { confirmed: true }, w.path);
      assert.ok(landed.ok, JSON.stringify(landed, null, 2));
      assert.ok(landed.advisories?.some((a) => a.kind === 'state-record-skipped'));
    });
  }

  it('a record that is not JSON at all is skipped the same way', async () => {
    const r = trackedRepo(repos);
    const dir = join(r.root, '.git', 'discern', 'submissions');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'torn.json'), '{"format": 1, "effort": "tor');
    const status = await call('status', {}, r.root);
    assert.ok(status.ok);
    assert.match(status.advisories?.[0]?.evidence[0] ?? '', /torn\.json is not valid JSON/);
  });
});
