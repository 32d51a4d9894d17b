// discern.toml's own variables, used by real jobs: `${map.dir}`, `${skills.dir}`, `${scripts.dir}`,
// `${project.todo}` and `${project.gotchas_doc}` are put in before anything runs; any other `${…}` reaches the
// shell as written; a variable without a value is a located invalid_config, on load and in validate-config.
// The two [project] pages: refresh's instructions point to them when they exist, doctor warns about a
// gotchas_doc that names no file.
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { onlyJson, runCli } from '../helpers/cli.js';
import { cleanEnv, scratchRepo, type ScratchRepo } from '../helpers/scratch-repo.js';
import { withVariables } from '../../src/engine/config/substitutions.js';

const repos: ScratchRepo[] = [];
after(() => repos.forEach((r) => r.cleanup()));

function repo(toml: string, files: Record<string, string> = {}): ScratchRepo {
  const r = scratchRepo({ 'discern.toml': toml, ...files });
  repos.push(r);
  return r;
}

async function json(args: string[], cwd: string): Promise<Record<string, unknown>> {
  return onlyJson(await runCli([...args, '--json'], { cwd, env: cleanEnv() }));
}

describe('variables in discern.toml', () => {
  it('a job sees each variable as the configured value or its default, and other ${…} as the shell does', async () => {
    const r = repo(
      [
        '[project]',
        'name = "vars"',
        'gotchas_doc = "docs/GOTCHAS.md"',
        '',
        '[map]',
        'dir = "./docs/map/"',
        '',
        '[jobs]',
        // Each test exits non-zero unless the variable became the path; HOME is the shell's.
        'test = [',
        '  "test -f ${map.dir}/start.md && test \\"${map.dir}\\" = docs/map",',
        '  "test \\"${skills.dir}\\" = discern/skills && test \\"${scripts.dir}\\" = discern/scripts",',
        '  "test -f ${project.todo} && test -f ${project.gotchas_doc}",',
        '  "test \\"${HOME}\\" = \\"$HOME\\"",',
        ']',
        '',
      ].join('\n'),
      {
        'docs/map/start.md': '# Start\n\nThe project in one page.\n',
        'discern/TODO.md': '# Open work\n',
        'docs/GOTCHAS.md': '# Traps\n',
      },
    );
    const result = await json(['test'], r.root);
    assert.equal(result['ok'], true, JSON.stringify(result));
  });

  it('a variable with no value is invalid_config at the key that uses it, on load and in validate-config', async () => {
    const r = repo('[project]\nname = "vars"\n\n[jobs]\nlint = "cat ${project.gotchas_doc}"\n');
    const loaded = await json(['test'], r.root);
    assert.equal(loaded['error'], 'invalid_config', JSON.stringify(loaded));
    assert.match(
      String(loaded['message']),
      /`jobs\.lint` uses \$\{project\.gotchas_doc\}, but \[project\] gotchas_doc is not set/,
    );
    const checked = await json(['validate-config', 'discern.toml'], r.root);
    assert.equal(checked['error'], 'invalid_config');
    const diagnostics = (checked['diagnostics'] as { message: string; line?: number; file?: string }[]) ?? [];
    assert.ok(
      diagnostics.some(
        (d) =>
          d.file === 'discern.toml' && d.line === 5 && /`jobs\.lint` uses .*gotchas_doc is not set/.test(d.message),
      ),
      JSON.stringify(checked),
    );
  });

  it('the defining keys are taken as written, and a configuration without variables comes back as it was', () => {
    const plain = { project: { name: 'x' }, jobs: { lint: 'eslint .' } };
    assert.equal(withVariables(plain).config, plain);
    const selfish = withVariables({ map: { dir: '${map.dir}' }, jobs: { lint: 'ls ${map.dir}' } });
    assert.deepEqual(selfish.config, { map: { dir: '${map.dir}' }, jobs: { lint: 'ls ${map.dir}' } });
  });
});

describe('[project] todo and gotchas_doc', () => {
  it("refresh's instructions point to each page that exists, and to no page that does not", async () => {
    const toml = '[project]\nname = "pages"\ngotchas_doc = "docs/GOTCHAS.md"\nagents = ["codex"]\n';
    const without = repo(toml);
    assert.equal((await json(['refresh'], without.root))['ok'], true);
    const bare = readFileSync(join(without.root, 'AGENTS.md'), 'utf8');
    assert.doesNotMatch(bare, /This project's own pages/);

    const r = repo(toml, { 'docs/GOTCHAS.md': '# Traps\n', 'discern/TODO.md': '# Open work\n' });
    assert.equal((await json(['refresh'], r.root))['ok'], true);
    const text = readFileSync(join(r.root, 'AGENTS.md'), 'utf8');
    assert.match(text, /Read `docs\/GOTCHAS\.md` before you change code/);
    assert.match(text, /Open work is listed in `discern\/TODO\.md`/);
  });

  it('doctor warns when gotchas_doc names no file, and says ok when it does', async () => {
    const r = repo('[project]\nname = "pages"\ngotchas_doc = "docs/GOTCHAS.md"\n');
    const check = async (): Promise<{ status: string; detail: string } | undefined> =>
      (
        (await json(['doctor'], r.root))['data'] as { checks: { name: string; status: string; detail: string }[] }
      ).checks.find((c) => c.name === 'page:gotchas_doc');
    assert.equal((await check())?.status, 'warn');
    r.write('docs/GOTCHAS.md', '# Traps\n');
    assert.equal((await check())?.status, 'ok');
  });
});
