// `discern tidy` over the real built CLI: discern.toml and the Markdown discern owns ([instructions] sources,
// the map's pages) are normalised, nothing else is touched, and a second run changes nothing.
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { onlyJson, runCli, type CliRun } from '../helpers/cli.js';
import { assertPublishedResult } from '../helpers/published-schema.js';
import { cleanEnv, scratchRepo, type ScratchRepo } from '../helpers/scratch-repo.js';

const MESSY_TOML =
  '# discern.toml   \n[project]\nname="Messy"   \n[jobs]\ntest  =  "npm test"\n\n\n\n# the docs scope\n[scopes.docs]\npaths=["docs/**"]\nneutral = true';
const TIDY_TOML =
  '# discern.toml\n[project]\nname = "Messy"\n\n[jobs]\ntest = "npm test"\n\n# the docs scope\n[scopes.docs]\npaths = ["docs/**"]\nneutral = true\n';

const MESSY_MD = '# Instructions  \n\n\n\nRun the tests.   \n\n```sh\nnpm test   \n\n\n  # indented  \n```\n\n\n';
const TIDY_MD = '# Instructions\n\nRun the tests.\n\n```sh\nnpm test   \n\n\n  # indented  \n```\n';

const repos: ScratchRepo[] = [];
after(() => repos.forEach((r) => r.cleanup()));

function messyRepo(toml = MESSY_TOML): ScratchRepo {
  const r = scratchRepo({
    'discern.toml': toml,
    'discern/instructions.md': MESSY_MD,
    'discern/map/index.md': 'Map   \n\n\n\nend',
    'discern/map/area/page.md': 'Page  \n',
    'discern/map/notes.txt': 'not markdown   \n',
    'README.md': "Not discern's   \n\n\n\n",
  });
  repos.push(r);
  return r;
}

const read = (r: ScratchRepo, path: string): string => readFileSync(join(r.root, path), 'utf8');

async function tidy(
  r: ScratchRepo,
  args: string[] = [],
  env: Record<string, string> = {},
): Promise<{ run: CliRun; result: Record<string, unknown> }> {
  const run = await runCli(['tidy', ...args, '--json'], { cwd: r.root, env: cleanEnv(env) });
  const result = onlyJson(run);
  assertPublishedResult(result);
  return { run, result };
}

describe('discern tidy', () => {
  it('tidies discern.toml and the Markdown discern owns, and nothing else', async () => {
    const r = messyRepo();
    const { run, result } = await tidy(r);
    assert.equal(run.code, 0, run.stdout);
    assert.equal(read(r, 'discern.toml'), TIDY_TOML);
    assert.equal(read(r, 'discern/instructions.md'), TIDY_MD);
    assert.equal(read(r, 'discern/map/index.md'), 'Map\n\nend\n');
    assert.equal(read(r, 'discern/map/area/page.md'), 'Page\n');
    assert.equal(read(r, 'discern/map/notes.txt'), 'not markdown   \n');
    assert.equal(read(r, 'README.md'), "Not discern's   \n\n\n\n");
    const data = result['data'] as { files: { path: string; changed: boolean }[]; changed: string[] };
    assert.deepEqual(data.files, [
      { path: 'discern.toml', changed: true },
      { path: 'discern/instructions.md', changed: true },
      { path: 'discern/map/area/page.md', changed: true },
      { path: 'discern/map/index.md', changed: true },
    ]);
    assert.deepEqual(
      (result['steps'] as { kind: string }[]).map((s) => s.kind),
      ['tidy', 'tidy', 'tidy', 'tidy'],
    );
  });
  it('is idempotent: a second run changes nothing', async () => {
    const r = messyRepo();
    await tidy(r);
    const { result } = await tidy(r);
    assert.equal(result['ok'], true);
    assert.deepEqual((result['data'] as { changed: string[] }).changed, []);
    assert.equal(result['steps'], undefined);
  });
  it('toml and md each tidy only their own files', async () => {
    const r = messyRepo();
    await tidy(r, ['toml']);
    assert.equal(read(r, 'discern.toml'), TIDY_TOML);
    assert.equal(read(r, 'discern/instructions.md'), MESSY_MD);
    const { result } = await tidy(r, ['md']);
    assert.deepEqual((result['data'] as { changed: string[] }).changed, [
      'discern/instructions.md',
      'discern/map/area/page.md',
      'discern/map/index.md',
    ]);
  });
  it('follows [instructions] sources (globs too) and [map] dir', async () => {
    const r = messyRepo(`${TIDY_TOML}\n[instructions]\nsources = ["agents/*.md"]\n\n[map]\ndir = "notes"\n`);
    r.write('agents/a.md', 'A  \n');
    r.write('agents/b.md', 'B\n');
    r.write('notes/n.md', 'N  \n');
    const { result } = await tidy(r, ['md']);
    assert.deepEqual(
      (result['data'] as { files: { path: string }[] }).files.map((f) => f.path),
      ['agents/a.md', 'agents/b.md', 'notes/n.md'],
    );
    assert.equal(read(r, 'agents/a.md'), 'A\n');
    assert.equal(read(r, 'discern/instructions.md'), MESSY_MD);
  });
  it('refuses a discern.toml that does not parse, changing nothing', async () => {
    const broken = '[project\nname = "x"   \n';
    const r = messyRepo(broken);
    const { run, result } = await tidy(r);
    assert.equal(run.code, 1);
    assert.equal(result['error'], 'tidy_parse_failed');
    assert.match(String(result['message']), /line 1/);
    assert.equal(read(r, 'discern.toml'), broken);
    assert.equal(read(r, 'discern/instructions.md'), MESSY_MD);
  });
  it('a failed write is tidy_write_failed, the file as it was', async () => {
    const r = messyRepo();
    const { run, result } = await tidy(r, ['toml'], { DISCERN_FAULT: 'tidy:write' });
    assert.equal(run.code, 1);
    assert.equal(result['error'], 'tidy_write_failed');
    assert.equal(read(r, 'discern.toml'), MESSY_TOML);
    assert.deepEqual(
      (result['steps'] as { outcome: string }[]).map((s) => s.outcome),
      ['failed'],
    );
  });
  it('without a discern.toml there is nothing discern owns: no_project', async () => {
    const r = scratchRepo({});
    repos.push(r);
    const { result } = await tidy(r);
    assert.equal(result['error'], 'no_project');
  });
  it('the human view lists the files', async () => {
    const r = messyRepo();
    const run = await runCli(['tidy'], { cwd: r.root, env: cleanEnv() });
    assert.equal(run.code, 0);
    assert.match(run.stdout, /^discern tidy\n[•-] `discern.toml`: tidied\n/);
  });
});
