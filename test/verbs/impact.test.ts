// impact on real scratch repositories: the change from the merge-base to the working tree (commits, staged,
// unstaged, untracked, renames on both sides), fail-open classification, neutral scopes, the --has
// predicate's data, and refusals — every result validated against the published schema.
import { describe, it, after } from 'node:test';
import assert from 'node:assert/strict';
import type { DiscernImpactData } from '../../generated/types.js';
import { assertDriven, call } from '../helpers/drive.js';
import { scratchRepo, type ScratchRepo } from '../helpers/scratch-repo.js';

const CONFIG = `[scopes.docs]
paths = ["docs/**", "*.md"]
neutral = true

[scopes.api]
paths = ["src/api/**", "/openapi/"]

[scopes.fixtures]
paths = ["/fixtures/"]
neutral = true
`;

const repos: ScratchRepo[] = [];
after(() => repos.forEach((r) => r.cleanup()));
function repo(config = CONFIG, files: Record<string, string> = {}): ScratchRepo {
  const r = scratchRepo({
    'discern.toml': config,
    'docs/guide.md': 'g',
    'src/api/a.ts': 'a',
    'src/core.ts': 'c',
    ...files,
  });
  repos.push(r);
  return r;
}
async function impactData(target: string, input: Record<string, unknown> = {}): Promise<DiscernImpactData> {
  // `has` is a CLI-only input (the --has predicate), so these calls come in as the CLI's.
  const result = await call('impact', input, target, {}, 'cli');
  assert.ok(result.ok, JSON.stringify(result));
  assert.ok(result.verb === 'impact' && result.data && 'changed_files' in result.data);
  return result.data;
}

describe('impact', () => {
  it('no change activates nothing', async () => {
    const d = await impactData(repo().root);
    assert.deepEqual(
      { changed: d.changed_files, scopes: d.scopes, code: d.code, unscoped: d.unscoped_total },
      { changed: 0, scopes: [], code: false, unscoped: 0 },
    );
    assert.match(d.base ?? '', /^[0-9a-f]{40}$/);
  });
  it('a neutral-only change does not count as code', async () => {
    const r = repo();
    r.write('docs/guide.md', 'changed');
    r.write('notes/todo.md', 'untracked markdown at any depth');
    const d = await impactData(r.root);
    assert.deepEqual(d.scopes, ['docs']);
    assert.deepEqual(d.neutral, ['docs']);
    assert.equal(d.code, false);
  });
  it('an unmatched path counts as code and is listed', async () => {
    const r = repo();
    r.write('src/core.ts', 'changed');
    const d = await impactData(r.root);
    assert.deepEqual(d.scopes, []);
    assert.equal(d.code, true);
    assert.deepEqual(d.unscoped, ['src/core.ts']);
  });
  it('commits on the branch, staged and unstaged edits and untracked files all count', async () => {
    const r = repo();
    r.git('checkout', '-q', '-b', 'agent/x');
    r.write('src/api/b.ts', 'committed');
    r.commit('api change');
    r.write('test/fixtures/data.json', '{}');
    r.git('add', 'test/fixtures/data.json');
    r.write('openapi/spec.yaml', 'untracked, under the /openapi/ segment');
    r.write('docs/guide.md', 'unstaged');
    const d = await impactData(r.root);
    assert.deepEqual(d.scopes, ['docs', 'api', 'fixtures']);
    assert.deepEqual(d.neutral, ['docs', 'fixtures']);
    assert.equal(d.code, true);
    assert.equal(d.changed_files, 4);
    assert.equal(d.unscoped_total, 0);
  });
  it('a rename counts on both sides', async () => {
    const r = repo();
    r.git('mv', 'docs/guide.md', 'src/guide-moved.ts');
    const d = await impactData(r.root);
    assert.deepEqual(d.scopes, ['docs']);
    assert.equal(d.code, true, 'the new side is in no scope');
    assert.deepEqual(d.unscoped, ['src/guide-moved.ts']);
    assert.equal(d.changed_files, 2);
  });
  it("the trunk moving on does not count as the branch's change", async () => {
    const r = repo();
    r.git('checkout', '-q', '-b', 'agent/y');
    r.git('checkout', '-q', 'main');
    r.write('src/api/trunk-only.ts', 'on main');
    r.commit('main moves');
    r.git('checkout', '-q', 'agent/y');
    const d = await impactData(r.root);
    assert.deepEqual(d.scopes, []);
    assert.equal(d.changed_files, 0);
  });
  it('an unborn HEAD measures from the empty tree', async () => {
    const r = repo();
    r.git('checkout', '-q', '--orphan', 'fresh');
    const d = await impactData(r.root);
    assert.equal(d.base, null);
    assert.ok(d.scopes.includes('docs') && d.scopes.includes('api'));
  });
  it('has: whether a scope is activated', async () => {
    const r = repo();
    r.write('docs/guide.md', 'changed');
    assert.deepEqual((await impactData(r.root, { has: 'docs' })).membership, { scope: 'docs', present: true });
    assert.deepEqual((await impactData(r.root, { has: 'api' })).membership, { scope: 'api', present: false });
  });
  it('refuses has with a scope that does not exist', async () => {
    const result = await call('impact', { has: 'nope' }, repo().root, {}, 'cli');
    assert.equal(result.error, 'invalid_value');
    assert.match(result.message ?? '', /its scopes are docs, api, fixtures/);
  });
  it('refuses a scope pattern that cannot be used, naming its key', async () => {
    const r = repo('[scopes.bad]\npaths = ["ok/**", "src/"]\n');
    const result = await call('impact', {}, r.root);
    assert.equal(result.error, 'invalid_config');
    assert.equal(
      result.data && 'issues' in result.data ? result.data.issues[0]?.path : undefined,
      'scopes.bad.paths.1',
    );
    const doctor = await call('doctor', {}, r.root);
    assert.equal(doctor.error, 'invalid_config');
  });
  it('a project without scopes: everything is code', async () => {
    const r = repo('[project]\nname = "n"\n');
    r.write('docs/guide.md', 'x');
    const d = await impactData(r.root);
    assert.deepEqual(d.scopes, []);
    assert.equal(d.code, true);
  });
  it('has is CLI-only: MCP callers may not send it', async () => {
    const result = await call('impact', { has: 'docs' }, repo().root);
    assert.equal(result.error, 'invalid_arguments');
    assert.match(result.message ?? '', /`has` is not an accepted key/);
  });
  it('drove impact through success and failure', () => assertDriven(['impact']));
});
