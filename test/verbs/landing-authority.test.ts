// A green done and status in an effort's worktree say who may land it as things stand (data.landing_authority),
// judged with the trunk's policy: the trunk's [acceptance] pre_authorized scopes covering every changed path
// authorize it; anything else needs the owner; and an effort that pre-authorizes itself in its own discern.toml
// changes nothing.
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import type { DiscernDoneData, DiscernStatusData } from '../../generated/types.js';
import { call } from '../helpers/drive.js';
import { effort, trackedRepo } from '../helpers/efforts.js';
import type { ScratchRepo } from '../helpers/scratch-repo.js';

const repos: ScratchRepo[] = [];
after(() => repos.forEach((r) => r.cleanup()));

function show(value: unknown): string {
  return JSON.stringify(value, null, 2);
}

async function authorityOf(path: string): Promise<{ done: DiscernDoneData; status: DiscernStatusData }> {
  const done = await call('done', {}, path);
  assert.ok(done.ok, show(done));
  const status = await call('status', {}, path);
  assert.ok(status.ok, show(status));
  return { done: done.data as DiscernDoneData, status: status.data as DiscernStatusData };
}

describe('landing authority on done and status', () => {
  it("a change inside the trunk's pre_authorized scopes is authorized; one outside them needs the owner", async () => {
    const r = trackedRepo(repos, '\n[acceptance]\npre_authorized = ["docs"]\n');
    const docs = await effort(r, 'docs-la', 'docs/la.md', '# la\n', false);
    const covered = await authorityOf(docs.path);
    assert.equal(covered.done.landing_authority?.kind, 'authorized', show(covered.done));
    assert.equal(covered.done.landing_authority?.source, '[acceptance] pre_authorized');
    assert.deepEqual(covered.done.landing_authority?.scopes, ['docs']);
    assert.deepEqual(covered.status.landing_authority, covered.done.landing_authority);

    const code = await effort(r, 'code-la', 'code.txt', 'c\n', false);
    const outside = await authorityOf(code.path);
    assert.equal(outside.done.landing_authority?.kind, 'conversation-required', show(outside.done));
    assert.deepEqual(outside.done.landing_authority?.uncovered, [{ path: 'code.txt' }]);
    assert.deepEqual(outside.status.landing_authority, outside.done.landing_authority);

    // The main checkout is no effort: no top-level authority, but each effort's fleet row has its own.
    const main = (await call('status', {}, r.root)).data as DiscernStatusData;
    assert.equal(main.landing_authority, undefined);
    assert.equal(main.fleet?.find((f) => f.path === docs.path)?.landing_authority?.kind, 'authorized');
  });

  it("an effort that pre-authorizes itself in its own discern.toml still needs the owner: the trunk's policy judges", async () => {
    const r = trackedRepo(repos);
    const w = await effort(r, 'self-granted', 'src/app.txt', 'code\n', false);
    const toml = join(w.path, 'discern.toml');
    writeFileSync(
      toml,
      `${readFileSync(toml, 'utf8')}\n[scopes.src]\npaths = ["src/**", "discern.toml"]\n\n[acceptance]\npre_authorized = ["src"]\n`,
    );
    w.git('commit', '-qam', 'pre-authorize my own change');
    const { done, status } = await authorityOf(w.path);
    assert.equal(done.landing_authority?.kind, 'conversation-required', show(done));
    assert.equal(status.landing_authority?.kind, 'conversation-required', show(status));
  });
});
