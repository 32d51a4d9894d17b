// [worktree] inherit_env on real repositories: the listed names take the main checkout's current values (the last
// env file that sets one wins) in the worktree's first env file, at start and on every later pass, replacing only
// those lines; a name main does not set is named in the env step and skipped; a bad name is invalid_config.
import { describe, it, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { call } from '../helpers/drive.js';
import { scratchRepo, type ScratchRepo } from '../helpers/scratch-repo.js';

const repos: ScratchRepo[] = [];
after(() => repos.forEach((r) => r.cleanup()));

function repo(worktree: string): ScratchRepo {
  const r = scratchRepo({
    'discern.toml': `[project]\nname = "inherit"\n\n[jobs]\ntest = "true"\n\n[worktree]\n${worktree}`,
    '.gitignore': '.env\n.env.local\n',
  });
  repos.push(r);
  return r;
}

describe('[worktree] inherit_env', () => {
  it("writes main's current values into the worktree's first env file at start and on each ensure pass", async () => {
    const r = repo('inherit_env = ["API_URL", "TOKEN", "MISSING"]\n');
    r.write('.env', 'API_URL=http://one\nTOKEN=aaaa\n');
    r.write('.env.local', 'API_URL="http://local"\n');
    const started = await call('start', { name: 'inh' }, r.root);
    assert.ok(started.ok && started.verb === 'start' && started.data && 'path' in started.data);
    const path = started.data.path;
    // .env.local sets API_URL last, so its value (quotes as written) wins; the worktree's own .env.local is a copy.
    assert.equal(readFileSync(join(path, '.env'), 'utf8'), 'API_URL="http://local"\nTOKEN=aaaa\n');
    const step = (started.steps ?? []).find((s) => s.kind === 'env' && s.label.startsWith('write'));
    assert.equal(step?.label, 'write API_URL, TOKEN to .env');
    assert.equal(step?.outcome, 'ok');
    assert.match(step?.note ?? '', /set no MISSING/);

    // The worktree's env file exists and has its own lines; main's values change.
    writeFileSync(join(path, '.env'), 'TOKEN=old\nMINE=kept\n');
    r.write('.env', 'API_URL=http://two\nTOKEN=bbbb\n');
    r.write('.env.local', '');
    const ensured = await call('worktreeEnsure', { target: 'inh' }, r.root, {}, 'cli');
    assert.ok(ensured.ok, JSON.stringify(ensured, null, 2));
    assert.equal(readFileSync(join(path, '.env'), 'utf8'), 'TOKEN=bbbb\nMINE=kept\nAPI_URL=http://two\n');
  });

  it("update's pass takes main's values again", async () => {
    const r = repo('inherit_env = ["API_URL"]\n');
    r.write('.env', 'API_URL=http://one\n');
    const started = await call('start', { name: 'upd' }, r.root);
    assert.ok(started.ok && started.verb === 'start' && started.data && 'path' in started.data);
    const path = started.data.path;
    r.write('more.txt', 'more\n');
    r.commit('trunk moves');
    r.write('.env', 'API_URL=http://three\n');
    const updated = await call('update', {}, path);
    assert.ok(updated.ok, JSON.stringify(updated, null, 2));
    assert.equal(readFileSync(join(path, '.env'), 'utf8'), 'API_URL=http://three\n');
  });

  it('a name main sets nowhere is skipped and named, and start still succeeds', async () => {
    const r = repo('inherit_env = ["NOWHERE"]\n');
    const started = await call('start', { name: 'none' }, r.root);
    assert.ok(started.ok, JSON.stringify(started, null, 2));
    const step = (started.steps ?? []).find((s) => s.kind === 'env');
    assert.equal(step?.outcome, 'skipped');
    assert.match(step?.note ?? '', /set no NOWHERE/);
  });

  it('a name that is not a variable name is invalid_config', async () => {
    const r = repo('inherit_env = ["1BAD"]\n');
    const refused = await call('start', { name: 'bad' }, r.root);
    assert.equal(refused.error, 'invalid_config', JSON.stringify(refused, null, 2));
    assert.match(refused.message ?? '', /inherit_env/);
  });
});
