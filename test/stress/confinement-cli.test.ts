// Confinement through the built CLI (docs/decisions/0039-confinement-and-redaction.md): positionals and flags
// that name a page, effort, script, skill, file or archive, handed the escape spellings; and project directories
// ([scripts] dir, [skills] dir) that are links leading out of the project. Nothing from outside comes back,
// nothing outside is written, the outside executable never runs, and every refusal is classified (exit 1 or 2,
// never 70).
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { runCli, type CliRun } from '../helpers/cli.js';
import { cleanEnv, scratchRepo } from '../helpers/scratch-repo.js';
import { HOSTILE_BASE_CONFIG as CONFIG, hostileProject, leaks, SECRET, type Hostile } from './hostile-fixture.js';

let h: Hostile;
let before0: Map<string, string>;
let spawned = 0;

before(() => {
  h = hostileProject(CONFIG);
  before0 = h.snapshot();
});
after(() => {
  assert.deepEqual(h.snapshot(), before0, 'the outside directory is left byte for byte');
});

async function discern(args: string[], cwd = h.repo.root): Promise<CliRun> {
  spawned++;
  const run = await runCli(args, { cwd, env: cleanEnv() });
  const text = run.stdout + run.stderr;
  assert.ok(!leaks(text), `discern ${args.join(' ')} showed content from outside the project:\n${text.slice(0, 2000)}`);
  assert.ok(
    run.code === 0 || run.code === 1 || run.code === 2,
    `discern ${args.join(' ')} exited ${run.code}:\n${text.slice(0, 1000)}`,
  );
  assert.ok(!existsSync(h.marker), `discern ${args.join(' ')} ran the outside executable`);
  return run;
}

/** Runs the calls two at a time: the CLI starts in a few hundred ms and the machine is shared. */
async function pooled<T>(items: T[], run: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) await run(items[next++] as T);
  };
  await Promise.all([worker(), worker()]);
}

/** Each argv names its probe with `@`: `['map', '@', '--json']`. */
const NAMING: string[][] = [
  ['map', '@', '--json'],
  ['docs', '@', '--json'],
  ['enter', '@', '--json'],
  ['worktree', 'drop', '@', '--json'],
  // park, teardown, setup and ensure find their effort the way drop does.
  ['worktree', 'rename', 'nothing-here', '@', '--json'],
  ['skills', 'eject', '@', '--json'],
  ['scripts', '@', '--json'],
  ['scripts', '@'],
  ['progress', '@', '--json'],
  ['coupling', '--file', '@', '--json'],
  ['patterns', '--logbook-file', '@', '--json'],
  ['start', '@', '--dry-run', '--json'],
];

describe('CLI inputs that name a page, effort, script, skill, file or archive', () => {
  it('every escape spelling is refused or confined, and the project tree only changes where discern keeps state', async () => {
    // Argv cannot carry NUL; the %00 spellings stand in for it. A subset of the spellings keeps the run short:
    // the verbs behind them are the ones the MCP test probes with all of them.
    const probes = [0, 2, 6, 9, 11, 13, 15].map((i) => h.probes[i] as string);
    const cases = NAMING.flatMap((argv) => probes.map((p) => argv.map((a) => (a === '@' ? p : a))));
    const codes = new Map<string, Set<number | null>>();
    await pooled(cases, async (args) => {
      const run = await discern(args);
      const key = args.slice(0, args[0] === 'worktree' || args[0] === 'skills' ? 2 : 1).join(' ');
      codes.set(key, (codes.get(key) ?? new Set()).add(run.code));
    });
    console.log(
      `CLI calls: ${cases.length}; exit codes: ${[...codes].map(([k, v]) => `${k}=${[...v].join('/')}`).join(', ')}`,
    );
    assert.equal(
      h.repo.git('status', '--porcelain', '--untracked-files=all'),
      '',
      'nothing was written into the project',
    );
  });

  it('the script link that leads outside is not listed, and a bare run of it refuses', async () => {
    const listed = JSON.parse((await discern(['scripts', '--json'])).stdout) as {
      data: { scripts: { name: string }[] };
    };
    assert.deepEqual(
      listed.data.scripts.map((s) => s.name),
      ['hello'],
    );
    const bare = await discern(['scripts', 'leak']);
    assert.equal(bare.code, 1);
    assert.match(bare.stdout + bare.stderr, /leads out of the scripts directory/);
  });
});

describe('documents the caller names to be read (setup recipes, configs to validate)', () => {
  it('a device or an outside file is refused as a recipe, without hanging and without its content', async () => {
    // A checkout that is not set up yet, so the recipe is what setup reads first.
    const fresh = scratchRepo();
    for (const file of ['/dev/zero', '/etc/passwd', join(h.outside, 'secret'), h.outside]) {
      const run = await discern(['setup', 'begin', '--dry-run', '--config', file, '--json'], fresh.root);
      assert.equal(
        (JSON.parse(run.stdout) as { error?: string }).error,
        'invalid_config_file',
        `${file}: ${run.stdout.slice(0, 300)}`,
      );
      const validated = await discern(['validate-config', file, '--json']);
      assert.equal((JSON.parse(validated.stdout) as { ok: boolean }).ok, false, file);
    }
  });
});

describe('project directories that are links leading outside', () => {
  it('[scripts] dir and [skills] dir as links out of the project: nothing outside is listed, run or written', async () => {
    const r = scratchRepo(
      { 'discern.toml': `${CONFIG}\n[scripts]\ndir = "tools"\n\n[skills]\ndir = "skills"\n` },
      { commit: false },
    );
    mkdirSync(join(h.outside, 'skills-out'), { recursive: true });
    symlinkSync(h.outside, join(r.root, 'tools'));
    symlinkSync(join(h.outside, 'skills-out'), join(r.root, 'skills'));
    r.commit('links out');
    before0 = h.snapshot();
    const listed = JSON.parse((await discern(['scripts', '--json'], r.root)).stdout) as {
      data: { exists: boolean; scripts: unknown[] };
    };
    assert.deepEqual(listed.data.scripts, [], 'no script from outside is listed');
    const run = await discern(['scripts', 'evil.sh'], r.root);
    assert.equal(run.code, 1);
    assert.match(run.stdout + run.stderr, /leads outside the project/);
    const skills = JSON.parse((await discern(['skills', 'list', '--json'], r.root)).stdout) as Record<string, unknown>;
    assert.ok(!JSON.stringify(skills).includes(SECRET));
    const names = (
      JSON.parse((await discern(['skills', 'list', '--json'], r.root)).stdout) as {
        data: { builtin?: { name: string }[]; skills?: { name: string }[] };
      }
    ).data;
    const first = (names.builtin ?? names.skills ?? [])[0]?.name ?? 'discern';
    const eject = JSON.parse((await discern(['skills', 'eject', first, '--json'], r.root)).stdout) as {
      ok: boolean;
      error?: string;
    };
    assert.equal(eject.ok, false);
    assert.equal(eject.error, 'write_denied', 'ejecting through a link out of the project is refused');
    assert.deepEqual(h.snapshot(), before0, 'nothing was written outside');
  });

  it("a discern.toml in a parent directory is not this project's: a checkout without one is no_project", async () => {
    // The outside directory holds a discern.toml; a fresh checkout inside it has none of its own.
    const inner = join(h.outside, 'inner');
    mkdirSync(inner);
    writeFileSync(join(inner, 'README.md'), '# inner\n');
    const git = (...args: string[]): void => {
      execFileSync('git', args, { cwd: inner, env: cleanEnv({ GIT_CONFIG_NOSYSTEM: '1' }), stdio: 'ignore' });
    };
    git('init', '-q', '-b', 'main');
    git('-c', 'user.name=t', '-c', 'user.email=t@t.invalid', 'commit', '-q', '--allow-empty', '-m', 'i');
    before0 = h.snapshot();
    const run = await discern(['test', '--json'], inner);
    assert.equal((JSON.parse(run.stdout) as { error?: string }).error, 'no_project');
  });
});

after(() => console.log(`CLI runs: ${spawned}`));
