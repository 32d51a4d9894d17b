// Every config command and tidy driven in-process through invoke(), each through at least one success and one
// failure: each result validates against its published definition, and a failed one's Markdown ends with the
// registered next action.
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { VerbId } from '../../generated/registry.js';
import { assertDriven, call } from '../helpers/drive.js';
import { scratchRepo, tempDir, type ScratchRepo } from '../helpers/scratch-repo.js';
import { renderMarkdown } from '../../src/render/markdown/index.js';

const CONFIG = '[project]\nname = "Driven" # name\n\n[jobs]\nlint = "eslint ."\n\n[scopes.docs]\npaths = ["docs/**"]\n';

const repos: ScratchRepo[] = [];
after(() => repos.forEach((r) => r.cleanup()));
function repo(config: string | null = CONFIG): string {
  const r = scratchRepo(config === null ? {} : { 'discern.toml': config });
  repos.push(r);
  return r.root;
}

const drive = (id: VerbId, input: Record<string, unknown>, root: string) => call(id, input, root, {}, 'cli');

describe('config commands and tidy', () => {
  it('reads succeed on a set key and refuse what is not there', async () => {
    const root = repo();
    const none = repo(null);
    assert.equal((await drive('configGet', { key: 'project.name' }, root)).ok, true);
    assert.equal((await drive('configGet', { key: 'jobs.test' }, root)).error, 'unknown_key');
    assert.equal((await drive('configHas', { key: 'jobs.lint' }, root)).ok, true);
    assert.equal((await drive('configHas', { key: 'x' }, none)).error, 'no_project');
    assert.equal((await drive('configKeys', {}, root)).ok, true);
    assert.equal((await drive('configKeys', { section: 'nosuch' }, root)).error, 'unknown_key');
    assert.equal((await drive('configSubsections', { section: 'scopes' }, root)).ok, true);
    assert.equal((await drive('configSubsections', { section: 'project.name' }, root)).error, 'invalid_value');
    assert.equal((await drive('configArray', { key: 'scopes.docs.paths' }, root)).ok, true);
    assert.equal((await drive('configArray', { key: 'jobs' }, root)).error, 'invalid_value');
    assert.equal((await drive('configExplain', { key: 'map.dir' }, root)).ok, true);
    assert.equal((await drive('configExplain', { key: 'map.dri' }, tempDir())).error, 'unknown_key');
  });
  it('writes succeed and refuse', async () => {
    const root = repo();
    assert.equal((await drive('configSet', { key: 'gate.timeout', value: '30' }, root)).ok, true);
    assert.equal((await drive('configSet', { key: 'gate.timeout', value: 'soon' }, root)).error, 'invalid_value');
    assert.equal(
      (await drive('configSetJob', { name: 'e2e', command: 'x', stage: 'test', timeout: 5 }, root)).ok,
      true,
    );
    assert.equal((await drive('configSetJob', { name: 'deploy', command: 'x' }, root)).error, 'invalid_value');
    assert.equal((await drive('configSetScope', { name: 'src', paths: ['src/**'], neutral: false }, root)).ok, true);
    assert.equal((await drive('configSetScope', { name: 'src', paths: ['src/'] }, root)).error, 'invalid_value');
    assert.equal(
      (await drive('configSetStandard', { name: 'cov', direction: 'up', limit: 80, run: 'x', margin: 1 }, root)).ok,
      true,
    );
    assert.equal(
      (await drive('configSetStandard', { name: 'cov', direction: 'up', limit: 80, run: 'x' }, repo('[standards')))
        .error,
      'invalid_toml',
    );
    assert.equal((await drive('configSet', { key: 'a', value: '1' }, tempDir())).error, 'no_repository');
  });
  it('tidy succeeds and refuses', async () => {
    assert.equal((await drive('tidy', {}, repo('[gate]\ntimeout=1\n'))).ok, true);
    assert.equal((await drive('tidy', { target: 'toml' }, repo('[gate\n'))).error, 'tidy_parse_failed');
  });
  it('the Markdown of a write names the key, the value and the steps', async () => {
    const root = repo();
    const result = await drive('configSet', { key: 'project.slug', value: 'driven' }, root);
    const md = renderMarkdown(result);
    assert.match(md, /^# discern config set\n\n- `project.slug` = `"driven"`\n- Written\n/);
    assert.match(md, /## Steps/);
  });
  it('drove every config command and tidy through success and failure', () =>
    assertDriven([
      'configGet',
      'configHas',
      'configKeys',
      'configSubsections',
      'configArray',
      'configExplain',
      'configSet',
      'configSetJob',
      'configSetScope',
      'configSetStandard',
      'tidy',
    ]));
});
