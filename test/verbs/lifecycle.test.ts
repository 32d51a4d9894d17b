// The CLI lifecycle commands through the built CLI on real scratch repositories: scripts (listed; run with the
// script's own exit status, arguments, working directory and signals; refused when missing, not executable or
// outside the directory), identity (from slug, name or folder; bare or a result), releases (valid against the
// published release schema) and licenses (the bundle's packages; a missing list). Each --json result validates
// against the published results schema; the in-process drive checks the Markdown presentations too.
import { describe, it, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chmodSync, cpSync, existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { parse as parseYaml } from 'yaml';
import { REPO_ROOT, onlyJson, runCli, type CliRun } from '../helpers/cli.js';
import { assertDriven, call } from '../helpers/drive.js';
import { cleanupGate, sleep, startCli, waitFor } from '../helpers/gate-repo.js';
import { assertPublishedResult, readPublished } from '../helpers/published-schema.js';
import { cleanEnv, scratchRepo, tempDir, type ScratchRepo } from '../helpers/scratch-repo.js';

const repos: ScratchRepo[] = [];
after(() => {
  repos.forEach((r) => r.cleanup());
  cleanupGate();
});

function repo(files: Record<string, string> = {}, options: { commit?: boolean } = {}): ScratchRepo {
  const r = scratchRepo(files, options);
  repos.push(r);
  return r;
}

function script(r: ScratchRepo, path: string, body: string, executable = true): void {
  r.write(path, body);
  chmodSync(join(r.root, path), executable ? 0o755 : 0o644);
}

async function cli(args: readonly string[], cwd: string): Promise<CliRun> {
  return runCli(args, { cwd, env: cleanEnv() });
}

/** The one envelope of a --json call, checked against the published results schema. */
function envelope(run: CliRun): Record<string, unknown> & {
  ok: boolean;
  data?: Record<string, unknown>;
  error?: string;
  hints?: string[];
  message?: string;
} {
  const result = onlyJson(run);
  assertPublishedResult(result);
  return result as ReturnType<typeof envelope>;
}

/** A project with a scripts directory holding one of each kind of entry. */
function scriptsProject(config = '[project]\nname = "Scripts"\n'): ScratchRepo {
  const r = repo({ 'discern.toml': config });
  script(r, 'discern/scripts/seven', '#!/bin/sh\necho "out: $#: $*"\necho "err" >&2\npwd\nexit 7\n');
  script(r, 'discern/scripts/args', '#!/bin/sh\nfor a in "$@"; do printf "[%s]\\n" "$a"; done\n');
  script(r, 'discern/scripts/notes', '#!/bin/sh\necho notes\n', false);
  script(r, 'discern/scripts/.hidden', '#!/bin/sh\necho hidden\n');
  mkdirSync(join(r.root, 'discern/scripts/folder'));
  symlinkSync('args', join(r.root, 'discern/scripts/alias'));
  symlinkSync('/bin/sh', join(r.root, 'discern/scripts/escape'));
  mkdirSync(join(r.root, 'sub/deeper'), { recursive: true });
  return r;
}

describe('discern scripts: the list', () => {
  it('lists each regular file in [scripts] dir with an executable flag, bare and as a result', async () => {
    const r = scriptsProject();
    const json = envelope(await cli(['scripts', '--json'], r.root));
    assert.equal(json.ok, true);
    assert.deepEqual(json.data, {
      dir: 'discern/scripts',
      exists: true,
      scripts: [
        { name: 'alias', path: 'discern/scripts/alias', executable: true },
        { name: 'args', path: 'discern/scripts/args', executable: true },
        { name: 'notes', path: 'discern/scripts/notes', executable: false },
        { name: 'seven', path: 'discern/scripts/seven', executable: true },
      ],
    });
    const bare = await cli(['scripts'], join(r.root, 'sub'));
    assert.equal(bare.code, 0);
    // The human view draws the authored table; its words are the Markdown's.
    const shown = bare.stdout.replace(/\s+/g, ' ');
    assert.match(shown, /`discern scripts seven`/);
    assert.match(
      shown,
      /`notes` │ not executable \(`chmod \+x discern\/scripts\/notes`\)|`notes` \| not executable \(`chmod \+x discern\/scripts\/notes`\)/,
    );
    assert.doesNotMatch(bare.stdout, /hidden|folder|escape/);
  });

  it('follows [scripts] dir, and a missing directory is an empty list', async () => {
    const r = repo({ 'discern.toml': '[scripts]\ndir = "tools/bin/"\n' });
    script(r, 'tools/bin/hello', '#!/bin/sh\necho hello\n');
    const json = envelope(await cli(['scripts', '--json'], r.root));
    assert.deepEqual(json.data, {
      dir: 'tools/bin',
      exists: true,
      scripts: [{ name: 'hello', path: 'tools/bin/hello', executable: true }],
    });
    const ran = await cli(['scripts', 'hello'], r.root);
    assert.equal(ran.code, 0);
    assert.equal(ran.stdout, 'hello\n');
    const none = repo({ 'discern.toml': '[project]\nname = "none"\n' });
    const empty = envelope(await cli(['scripts', '--json'], none.root));
    assert.deepEqual(empty.data, { dir: 'discern/scripts', exists: false, scripts: [] });
    assert.match((await cli(['scripts'], none.root)).stdout.replace(/\s+/g, ' '), /`discern\/scripts` does not exist/);
  });

  it('needs a discern project but no trunk', async () => {
    const fresh = repo({ 'discern.toml': '[project]\nname = "fresh"\n' }, { commit: false });
    assert.equal((await cli(['scripts', '--json'], fresh.root)).code, 0);
    const bare = repo();
    const refused = await cli(['scripts', 'x'], bare.root);
    assert.equal(refused.code, 1);
    assert.equal(refused.stdout, '');
    assert.match(refused.stderr, /^discern: .* has no discern\.toml/);
  });
});

describe('discern scripts <name>: running', () => {
  it("runs the script in the project root with the terminal's stdio, and exits with its status", async () => {
    const r = scriptsProject();
    const ran = await cli(['scripts', 'seven'], join(r.root, 'sub/deeper'));
    assert.equal(ran.code, 7);
    assert.equal(ran.stdout, `out: 0: \n${r.root}\n`);
    assert.equal(ran.stderr, 'err\n', 'discern adds nothing of its own');
  });

  it('passes the arguments after -- as they are, with no shell in between', async () => {
    const r = scriptsProject();
    const ran = await cli(['scripts', 'args', '--', '--json', 'two words', '$HOME', '*', ''], r.root);
    assert.equal(ran.code, 0, ran.stderr);
    assert.equal(ran.stdout, '[--json]\n[two words]\n[$HOME]\n[*]\n[]\n');
    const linked = await cli(['scripts', 'alias', 'x'], r.root);
    assert.equal(linked.stdout, '[x]\n', 'a link to a script inside the directory runs');
  });

  it('with --json or --markdown the script is checked and described, not run', async () => {
    const r = repo({ 'discern.toml': '[project]\nname = "described"\n' });
    script(r, 'discern/scripts/touch', '#!/bin/sh\ntouch ran\n');
    const json = envelope(await cli(['scripts', 'touch', '--json', '--', 'a'], r.root));
    assert.equal(json.ok, true);
    assert.deepEqual(json.data?.['run'], {
      name: 'touch',
      program: join(r.root, 'discern/scripts/touch'),
      args: ['a'],
      cwd: r.root,
    });
    const markdown = await cli(['scripts', 'touch', '--markdown'], r.root);
    assert.equal(markdown.code, 0);
    assert.match(markdown.stdout, /Checked, not run/);
    assert.equal(existsSync(join(r.root, 'ran')), false);
  });

  it('forwards a signal to the script and exits with what the script makes of it', async () => {
    const r = repo({ 'discern.toml': '[project]\nname = "signals"\n' });
    const ready = join(r.root, 'ready');
    script(
      r,
      'discern/scripts/wait',
      `#!/bin/sh\ntrap 'echo got TERM; exit 42' TERM\ntouch '${ready}'\nwhile :; do sleep 0.05; done\n`,
    );
    const running = startCli(['scripts', 'wait'], r.root);
    await waitFor('the script to start', () => existsSync(ready));
    await sleep(100);
    running.child.kill('SIGTERM');
    const ended = await running.result;
    assert.equal(ended.code, 42);
    assert.equal(ended.stdout, 'got TERM\n');
    assert.doesNotMatch(ended.stderr, /interrupted/, "the signal was the script's to handle");
  });

  it('a script killed by a signal exits 128 + n', async () => {
    const r = repo({ 'discern.toml': '[project]\nname = "killed"\n' });
    script(r, 'discern/scripts/die', '#!/bin/sh\nkill -TERM $$\n');
    assert.equal((await cli(['scripts', 'die'], r.root)).code, 143);
  });
});

describe('discern scripts <name>: refusals', () => {
  it('a missing name or a directory is script_not_a_command, naming the scripts', async () => {
    const r = scriptsProject();
    for (const name of ['nope', 'folder', '.hidden']) {
      const bare = await cli(['scripts', name], r.root);
      assert.equal(bare.code, 1, name);
      assert.equal(bare.stdout, '');
      assert.match(
        bare.stderr,
        new RegExp(`"${name.replace('.', '\\.')}" is not a script.*; the scripts are alias, args, notes, seven\\.`),
      );
      assert.match(
        bare.stderr,
        /\ndiscern: Run one of the scripts the message names, or list them with `discern scripts`/,
      );
      const json = envelope(await cli(['scripts', name, '--json'], r.root));
      assert.equal(json.error, 'script_not_a_command');
      assert.equal((json.data?.['scripts'] as unknown[]).length, 4);
    }
    assert.match((await cli(['scripts', 'folder'], r.root)).stderr, /it is a directory/);
  });

  it('a script that is not executable is script_not_executable, with the chmod to run', async () => {
    const r = scriptsProject();
    const bare = await cli(['scripts', 'notes'], r.root);
    assert.equal(bare.code, 1);
    assert.equal(bare.stdout, '');
    assert.match(bare.stderr, /discern\/scripts\/notes is not executable/);
    assert.ok(bare.stderr.includes(`chmod +x ${join(r.root, 'discern/scripts/notes')}`), bare.stderr);
    const json = envelope(await cli(['scripts', 'notes', '--json'], r.root));
    assert.equal(json.error, 'script_not_executable');
    assert.match(
      json.hints?.at(-1) ?? '',
      /^Make it executable with `chmod \+x \/.*\/discern\/scripts\/notes` \(and commit the mode\), then run `discern scripts notes` again\.$/,
    );
  });

  it('names that leave the directory are refused, links out of it included', async () => {
    const r = scriptsProject();
    writeFileSync(join(r.root, 'outside'), '#!/bin/sh\necho escaped\n');
    chmodSync(join(r.root, 'outside'), 0o755);
    for (const name of ['../../outside', 'folder/../seven', '/bin/sh', '..', '.', 'escape']) {
      const bare = await cli(['scripts', name], r.root);
      assert.equal(bare.code, 1, name);
      assert.equal(bare.stdout, '', `${name} ran nothing`);
      assert.match(bare.stderr, name === 'escape' ? /leads out of the scripts directory/ : /is not a script/);
      assert.equal(envelope(await cli(['scripts', name, '--json'], r.root)).error, 'script_not_a_command', name);
    }
  });
});

describe('discern identity', () => {
  it('prints [project] slug bare, and the result with --json', async () => {
    const r = repo({ 'discern.toml': '[project]\nname = "Some Name"\nslug = "my-proj"\n' });
    const bare = await cli(['identity'], r.root);
    assert.equal(bare.code, 0);
    assert.equal(bare.stdout, 'my-proj\n');
    assert.equal(bare.stderr, '');
    const json = envelope(await cli(['identity', '--json'], r.root));
    assert.deepEqual(json.data, { identity: 'my-proj', source: 'config_slug', name: 'Some Name', root: r.root });
    assert.match(
      (await cli(['identity', '--markdown'], r.root)).stdout,
      /^# discern identity\n\n`my-proj`, from `\[project\] slug`/,
    );
  });

  it('derives it from [project] name: accents dropped, other runs one dash, at most 63 characters', async () => {
    const r = repo({ 'discern.toml': '[project]\nname = "  Café Olé! — Ünïcode_Tools v2  "\n' });
    assert.equal((await cli(['identity'], r.root)).stdout, 'cafe-ole-unicode-tools-v2\n');
    assert.equal((envelope(await cli(['identity', '--json'], r.root)).data ?? {})['source'], 'config_name');
    const long = repo({ 'discern.toml': `[project]\nname = "${'abcdefghi '.repeat(10)}"\n` });
    const id = (await cli(['identity'], long.root)).stdout.trim();
    assert.ok(id.length <= 63 && /^[a-z0-9][a-z0-9-]*[a-z0-9]$/.test(id), id);
  });

  it("falls back to the repository folder's name, without discern.toml and from a linked worktree", async () => {
    const parent = tempDir('discern-identity-');
    const root = join(parent, 'My_Repo.v2');
    mkdirSync(root);
    const git = (...args: string[]): void => {
      const r = runGit(args, root);
      assert.equal(r, 0, args.join(' '));
    };
    git('init', '-q', '-b', 'main');
    git('-c', 'user.name=t', '-c', 'user.email=t@t.invalid', 'commit', '-q', '--allow-empty', '-m', 'x');
    const json = envelope(await cli(['identity', '--json'], root));
    assert.deepEqual(json.data, { identity: 'my-repo-v2', source: 'directory', name: 'My_Repo.v2', root });
    git('worktree', 'add', '-q', join(parent, 'elsewhere'), '-b', 'feature');
    assert.equal((await cli(['identity'], join(parent, 'elsewhere'))).stdout, 'my-repo-v2\n');
    writeFileSync(join(root, 'discern.toml'), '[project]\nname = "!!!"\n');
    assert.equal(
      (envelope(await cli(['identity', '--json'], root)).data ?? {})['source'],
      'directory',
      'a name with no letters or digits falls through',
    );
  });

  it('identity_failed when nothing gives a slug, with the next action to set [project] slug', async () => {
    const parent = tempDir('discern-identity-');
    const root = join(parent, '!!!');
    mkdirSync(root);
    assert.equal(runGit(['init', '-q', '-b', 'main'], root), 0);
    const bare = await cli(['identity'], root);
    assert.equal(bare.code, 1);
    assert.equal(bare.stdout, '');
    assert.match(
      bare.stderr,
      /^discern: No project identity: \[project\] slug is not set, and the repository folder's name "!!!" has no letters or digits/,
    );
    const json = envelope(await cli(['identity', '--json'], root));
    assert.equal(json.error, 'identity_failed');
    assert.match(json.hints?.at(-1) ?? '', /^Set `\[project\] slug` in discern\.toml/);
    const outside = await cli(['identity', '--json'], tempDir('discern-nowhere-'));
    assert.equal(envelope(outside).error, 'no_repository');
    const broken = repo({ 'discern.toml': '[project\n' });
    assert.equal(envelope(await cli(['identity', '--json'], broken.root)).error, 'invalid_toml');
  });
});

describe('discern releases', () => {
  it("returns this package's history, valid against schema/discern-releases.schema.json", async () => {
    const run = await cli(['releases', '--json'], tempDir('discern-nowhere-'));
    assert.equal(run.code, 0);
    const json = envelope(run);
    const data = json.data as {
      current: string;
      latest_stable: string | null;
      releases: { version: string; channel: string }[];
    };
    const pkg = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as { version: string };
    assert.equal(data.current, pkg.version);
    assert.ok(
      data.releases.some((r) => r.version === pkg.version),
      'the running version has an entry',
    );
    assert.equal(data.latest_stable, data.releases.find((r) => r.channel === 'stable')?.version ?? null);
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    const validate = ajv.compile(readPublished('discern-releases.schema.json'));
    const document = { format: 1, releases: data.releases };
    assert.ok(validate(document), JSON.stringify(validate.errors));
    const authored = parseYaml(readFileSync(join(REPO_ROOT, 'spec/releases.yaml'), 'utf8')) as unknown;
    assert.deepEqual(document, authored, 'the result carries spec/releases.yaml as authored');
    const bare = await cli(['releases'], REPO_ROOT);
    assert.match(bare.stdout, new RegExp(`^discern releases\\nThis is discern ${pkg.version.replace(/\./g, '\\.')};`));
  });
});

describe('discern licenses', () => {
  it("lists the bundle's packages with their licenses, as the build recorded them", async () => {
    const json = envelope(await cli(['licenses', '--json'], tempDir('discern-nowhere-')));
    const data = json.data as {
      packages: { name: string; version: string; license: string }[];
      count: number;
      path: string;
    };
    assert.equal(data.path, join(REPO_ROOT, 'dist/licenses.json'));
    assert.equal(data.count, data.packages.length);
    const installed = (name: string): string =>
      (JSON.parse(readFileSync(join(REPO_ROOT, 'node_modules', name, 'package.json'), 'utf8')) as { version: string })
        .version;
    for (const [name, license] of [
      ['ajv', 'MIT'],
      ['sade', 'MIT'],
      ['smol-toml', 'BSD-3-Clause'],
      // The front-matter reader's YAML parser, in the chunks that read skills and map pages.
      ['yaml', 'ISC'],
    ] as const) {
      assert.deepEqual(
        data.packages.find((p) => p.name === name),
        { name, version: installed(name), license },
        name,
      );
    }
    for (const tool of ['rollup', 'typescript', 'esbuild', 'tsx', 'handlebars'])
      assert.ok(!data.packages.some((p) => p.name === tool), `${tool} is a build tool, not in the bundle`);
    const texts = readFileSync(join(REPO_ROOT, 'dist/THIRD-PARTY-LICENSES'), 'utf8');
    for (const p of data.packages) assert.ok(texts.includes(`${p.name} ${p.version}\nLicense: ${p.license}\n`), p.name);
    assert.match(texts, /Permission is hereby granted, free of charge/);
  });

  it('a dist/ without licenses.json is read_failed, with the next action to rebuild', async () => {
    const pkg = tempDir('discern-package-');
    cpSync(join(REPO_ROOT, 'dist'), join(pkg, 'dist'), {
      recursive: true,
      filter: (source) => !source.endsWith('licenses.json'),
    });
    writeFileSync(join(pkg, 'package.json'), '{"name":"discern","type":"module"}\n');
    const moved = await runCli(['licenses', '--json'], { cwd: pkg, entry: join(pkg, 'dist/discern.js') });
    assert.equal(moved.code, 1);
    const json = envelope(moved);
    assert.equal(json.error, 'read_failed');
    assert.match(json.message ?? '', /does not exist/);
    assert.ok(json.hints?.at(-1)?.includes('npm run build'), json.hints?.at(-1));
    const bare = await runCli(['licenses'], { cwd: pkg, entry: join(pkg, 'dist/discern.js') });
    assert.equal(bare.code, 1);
    assert.match(bare.stdout, /discern licenses: failed \(`read_failed`\)/);
  });
});

describe('the in-process drive', () => {
  it('drives each command through success and failure, schema and Markdown checked', async () => {
    const r = scriptsProject();
    await call('scripts', {}, r.root, {}, 'cli');
    await call('scripts', { name: 'seven', args: ['x'] }, r.root, {}, 'cli');
    await call('scripts', { name: 'notes' }, r.root, {}, 'cli');
    await call('scripts', { name: '../x' }, r.root, {}, 'cli');
    await call('identity', {}, r.root, {}, 'cli');
    const nameless = tempDir('discern-identity-');
    mkdirSync(join(nameless, '---'));
    runGit(['init', '-q'], join(nameless, '---'));
    await call('identity', {}, join(nameless, '---'), {}, 'cli');
    await call('releases', {}, r.root, {}, 'cli');
    await call('releases', { all: true }, r.root, {}, 'cli');
    await call('licenses', {}, r.root, {}, 'cli');
    await call('licenses', { path: r.root }, r.root, {}, 'cli');
    assertDriven(['scripts', 'identity', 'releases', 'licenses']);
  });
});

function runGit(args: readonly string[], cwd: string): number | null {
  return spawnSync('git', args, { cwd, env: cleanEnv({ GIT_CONFIG_NOSYSTEM: '1' }), stdio: 'ignore' }).status;
}
