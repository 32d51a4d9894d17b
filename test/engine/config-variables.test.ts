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
import { call } from '../helpers/drive.js';
import { effort, trackedRepo } from '../helpers/efforts.js';

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

  it('validate-config reports a variable with no value in the same pass as a schema problem', async () => {
    const r = repo('[project]\nname = "vars"\nlogbook = "yes"\n\n[jobs]\nlint = "cat ${project.gotchas_doc}"\n');
    const checked = await json(['validate-config', 'discern.toml'], r.root);
    const messages = ((checked['diagnostics'] as { message: string }[]) ?? []).map((d) => d.message);
    assert.ok(
      messages.some((m) => /project\.logbook/.test(m)),
      JSON.stringify(messages),
    );
    assert.ok(
      messages.some((m) => /`jobs\.lint` uses .*gotchas_doc is not set/.test(m)),
      JSON.stringify(messages),
    );
  });

  it('the defining keys are taken as written, and a configuration without variables comes back as it was', () => {
    // `./` and doubled slashes go, and never into a leading `/`: the value stays inside the project.
    assert.deepEqual(withVariables({ map: { dir: './/docs//map/' }, jobs: { lint: 'ls ${map.dir}' } }).config.jobs, {
      lint: 'ls docs/map',
    });
    const plain = { project: { name: 'x' }, jobs: { lint: 'eslint .' } };
    assert.equal(withVariables(plain).config, plain);
    const selfish = withVariables({ map: { dir: '${map.dir}' }, jobs: { lint: 'ls ${map.dir}' } });
    assert.deepEqual(selfish.config, { map: { dir: '${map.dir}' }, jobs: { lint: 'ls ${map.dir}' } });
  });
});

describe('variables in the policy that judges a change', () => {
  it('an effort whose discern.toml uses a variable, unchanged from the trunk, reports no policy change', async () => {
    const r = trackedRepo(repos, '\n[jobs.maplist]\nstage = "check"\nrun = "test -d ${map.dir} || true"\n');
    const w = await effort(r, 'vars', 'v.txt', 'v\n', false);
    const done = await call('done', {}, w.path);
    assert.ok(done.ok, JSON.stringify(done, null, 2));
    const data = done.data as { policy_changes?: unknown[] };
    assert.equal(data.policy_changes, undefined, JSON.stringify(data.policy_changes));
    const landed = await call('accept', { confirmed: true }, w.path);
    assert.ok(landed.ok, JSON.stringify(landed, null, 2));
  });
});

describe('[project] todo and gotchas_doc', () => {
  it("refresh's instructions point to each page the file sets, whether or not it exists yet", async () => {
    const bare = repo('[project]\nname = "pages"\nagents = ["codex"]\n');
    assert.equal((await json(['refresh'], bare.root))['ok'], true);
    assert.doesNotMatch(readFileSync(join(bare.root, 'AGENTS.md'), 'utf8'), /This project's own pages/);

    const r = repo(
      '[project]\nname = "pages"\ngotchas_doc = "docs/GOTCHAS.md"\ntodo = "./TODO.md"\nagents = ["codex"]\n',
    );
    assert.equal((await json(['refresh'], r.root))['ok'], true);
    const text = readFileSync(join(r.root, 'AGENTS.md'), 'utf8');
    assert.match(text, /Read `docs\/GOTCHAS\.md` before you change code/);
    assert.match(text, /Open work is listed in `TODO\.md`/);
    // Creating the pages changes nothing refresh writes: the instructions follow the keys, not the files.
    r.write('docs/GOTCHAS.md', '# Traps\n');
    r.write('TODO.md', '# Open work\n');
    assert.deepEqual(((await json(['refresh'], r.root))['data'] as { changes: unknown[] }).changes, []);
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
