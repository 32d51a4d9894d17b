// coupling on scratch repositories with crafted histories: exact partner numbers, the evidence for a pair,
// bulk commits and plumbing paths left out (and configurable), [generated] partners excluded, the diff mode,
// the cache (a warm call runs no git at all; a new commit extends the cache, a rewritten one rebuilds it),
// refusals, the hints done and prepare add, and the CLI's warm path answering exactly what the verb answers.
import { describe, it, after, before } from 'node:test';
import assert from 'node:assert/strict';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
import { VERBS } from '../../generated/registry.js';
import type { DiscernCouplingReport, DiscernResult } from '../../generated/types.js';
import { serializeResult } from '../../src/core/serialize.js';
import { COUPLING_REGISTRATION } from '../../src/surfaces/cli/coupling-fast.js';
import { assertDriven, call } from '../helpers/drive.js';
import { onlyJson, runCli } from '../helpers/cli.js';
import { cleanEnv, scratchRepo, tempDir, type ScratchRepo } from '../helpers/scratch-repo.js';

const CONFIG = `[project]
name = "Coupling"

[repository]
trunk = "main"

[jobs]
test = "git --version"
`;
const GENERATED = `\n[generated.api]\npaths = ["gen/**"]\nrun = "true"\n`;

const repos: ScratchRepo[] = [];
after(() => repos.forEach((r) => r.cleanup()));

function touch(r: ScratchRepo, files: readonly string[], message: string): void {
  for (const f of files) {
    const path = join(r.root, f);
    mkdirSync(join(path, '..'), { recursive: true });
    writeFileSync(path, `${existsSync(path) ? readFileSync(path, 'utf8') : ''}${message}\n`);
  }
  r.commit(message);
}

/**
 * The crafted history (newest last). With the default max_commit_files (30), the bulk commit is left out:
 * 14 analysed commits; src/a.ts in 13 of them, src/b.ts in 8, src/c.ts in 4, gen/api.ts in 4; a∧b 7, a∧c 3,
 * a∧gen 4, a∧package-lock.json 5.
 */
function coupledRepo(config = CONFIG): ScratchRepo {
  const r = scratchRepo({
    'discern.toml': config,
    'src/a.ts': 'a\n',
    'src/b.ts': 'b\n',
    'src/c.ts': 'c\n',
    'gen/api.ts': 'g\n',
    'package-lock.json': '{}\n',
  });
  repos.push(r);
  for (let i = 1; i <= 5; i++)
    touch(r, i <= 3 ? ['src/a.ts', 'src/b.ts', 'package-lock.json'] : ['src/a.ts', 'src/b.ts'], `a and b ${i}`);
  touch(r, ['src/a.ts', 'src/c.ts'], 'a and c 1');
  touch(r, ['src/a.ts', 'src/c.ts'], 'a and c 2');
  touch(r, ['src/a.ts', 'src/b.ts', 'package-lock.json', 'CHANGELOG.md'], 'a and b with plumbing');
  touch(r, ['src/a.ts'], 'a alone');
  touch(r, ['src/b.ts', 'src/c.ts'], 'b and c');
  touch(r, ['src/a.ts', 'src/c.ts', ...Array.from({ length: 38 }, (_, i) => `bulk/f${i}.txt`)], 'bulk reformat');
  for (let i = 1; i <= 3; i++) touch(r, ['src/a.ts', 'gen/api.ts'], `a and generated ${i}`);
  return r;
}

function report(result: DiscernResult): DiscernCouplingReport {
  assert.ok(result.ok, JSON.stringify(result));
  assert.ok(result.verb === 'coupling' && result.data && 'partners' in result.data, JSON.stringify(result));
  return result.data;
}

async function query(
  root: string,
  input: Record<string, unknown>,
  env: Record<string, string> = {},
): Promise<DiscernCouplingReport> {
  return report(await call('coupling', input, root, env));
}

type Row = [path: string, from: string, cochanges: number, of: number, confidence: number, lift: number];
const pick = (d: DiscernCouplingReport): Row[] =>
  d.partners.map((p): Row => [p.path, p.from, p.cochanges, p.of, p.confidence, p.lift]);

/** A `git` first on PATH that logs each invocation's arguments, then runs the real one. */
function gitShim(): { env: Record<string, string>; calls: () => string[] } {
  const dir = tempDir('discern-git-shim-');
  const log = join(dir, 'calls.log');
  const real = execFileSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).trim();
  writeFileSync(join(dir, 'git'), `#!/bin/sh\nprintf '%s\\n' "$*" >> '${log}'\nexec '${real}' "$@"\n`);
  chmodSync(join(dir, 'git'), 0o755);
  return {
    env: { PATH: `${dir}:${process.env['PATH'] ?? ''}` },
    calls: () => (existsSync(log) ? readFileSync(log, 'utf8').split('\n').filter(Boolean) : []),
  };
}

function cacheFiles(root: string): string[] {
  const dir = join(root, '.git', 'discern', 'coupling');
  return existsSync(dir) ? readdirSync(dir).sort() : [];
}

describe('coupling: query mode', () => {
  let r: ScratchRepo;
  before(() => {
    r = coupledRepo();
  });
  it('names the partners of a file with exact counts, confidence and lift, strongest first', async () => {
    const d = await query(r.root, { file: ['src/a.ts'] });
    assert.equal(d.mode, 'query');
    assert.deepEqual(d.target, ['src/a.ts']);
    // lift = together · 14 / (of_a · of_b)
    assert.deepEqual(pick(d), [
      ['src/b.ts', 'src/a.ts', 7, 13, 0.538, 0.94],
      ['gen/api.ts', 'src/a.ts', 4, 13, 0.308, 1.08],
      ['src/c.ts', 'src/a.ts', 3, 13, 0.231, 0.81],
    ]);
    assert.equal(d.partners_total, 3);
    assert.deepEqual(
      { ...d.history, head: undefined },
      { head: undefined, commits: 14, bulk_commits: 1, cache: 'built' },
    );
    assert.equal(d.history.head, r.git('rev-parse', 'HEAD').trim());
  });
  it('plumbing paths are left out by default; ignore_builtin = false brings them back', async () => {
    const d = await query(r.root, { file: ['src/a.ts'] });
    assert.ok(!d.partners.some((p) => p.path === 'package-lock.json' || p.path === 'CHANGELOG.md'));
    const other = coupledRepo(`${CONFIG}\n[coupling]\nignore_builtin = false\n`);
    const all = await query(other.root, { file: ['src/a.ts'] });
    assert.deepEqual(
      pick(all).find((p) => p[0] === 'package-lock.json'),
      ['package-lock.json', 'src/a.ts', 5, 13, 0.385, 1.08],
    );
  });
  it('several files at once, relative or absolute inside the project', async () => {
    const d = await query(r.root, { file: ['src/c.ts', join(r.root, 'src/b.ts'), './src/c.ts'] });
    assert.deepEqual(d.target, ['src/c.ts', 'src/b.ts']);
    assert.ok(
      d.partners.some((p) => p.from === 'src/b.ts' && p.path === 'src/a.ts' && p.cochanges === 7 && p.of === 8),
    );
    assert.ok(
      d.partners.some((p) => p.from === 'src/c.ts' && p.path === 'src/a.ts' && p.cochanges === 3 && p.of === 4),
    );
  });
  it('a file that exists but has no commit yet: no partners, and a hint saying why', async () => {
    r.write('src/new.ts', 'new\n');
    const result = await call('coupling', { file: ['src/new.ts'] }, r.root);
    assert.deepEqual(report(result).partners, []);
    assert.match(result.hints?.[0] ?? '', /src\/new\.ts has no analysed commit yet/);
  });
});

describe('coupling: settings applied when the history is read', () => {
  it('bulk commits are left out, and max_commit_files moves the line (the cache stays valid)', async () => {
    const r = coupledRepo();
    const before = await query(r.root, { file: ['src/a.ts'] });
    assert.deepEqual(
      [
        before.history.bulk_commits,
        pick(before)
          .find((p) => p[0] === 'src/c.ts')
          ?.slice(2, 4),
      ],
      [1, [3, 13]],
    );
    r.write('discern.toml', `${CONFIG}\n[coupling]\nmax_commit_files = 50\n`);
    const after = await query(r.root, { file: ['src/a.ts'] });
    assert.equal(after.history.cache, 'hit', 'a settings change needs no new read of the history');
    assert.deepEqual(
      [
        after.history.commits,
        after.history.bulk_commits,
        pick(after)
          .find((p) => p[0] === 'src/c.ts')
          ?.slice(2, 4),
      ],
      [15, 0, [4, 14]],
    );
  });
  it('[coupling] ignore leaves more paths out; min_cochanges raises the bar', async () => {
    const r = coupledRepo(`${CONFIG}\n[coupling]\nignore = ["src/c.ts"]\nmin_cochanges = 4\n`);
    assert.deepEqual(
      pick(await query(r.root, { file: ['src/a.ts'] })).map((p) => p[0]),
      ['src/b.ts', 'gen/api.ts'],
    );
  });
  it('[generated] paths are never partners, and are counted', async () => {
    const r = coupledRepo(CONFIG + GENERATED);
    const d = await query(r.root, { file: ['src/a.ts'] });
    assert.deepEqual(
      pick(d).map((p) => p[0]),
      ['src/b.ts', 'src/c.ts'],
    );
    assert.equal(d.excluded_generated, 1);
  });
  it('refuses a pattern it cannot use, naming its key', async () => {
    const r = coupledRepo(`${CONFIG}\n[coupling]\nignore = ["ok/**", "docs/"]\n`);
    const result = await call('coupling', { file: ['src/a.ts'] }, r.root);
    assert.equal(result.error, 'invalid_config');
    assert.equal(result.data && 'issues' in result.data ? result.data.issues[0]?.path : undefined, 'coupling.ignore.1');
  });
});

describe('coupling: evidence and diff modes', () => {
  let r: ScratchRepo;
  before(() => {
    r = coupledRepo(CONFIG + GENERATED);
  });
  it('evidence for a pair: both counts and the commits that changed both, newest first', async () => {
    const d = await query(r.root, { file: ['src/a.ts'], with: 'src/b.ts' });
    assert.deepEqual([d.mode, d.a, d.b, d.together, d.of_a, d.of_b], ['evidence', 'src/a.ts', 'src/b.ts', 7, 13, 8]);
    assert.deepEqual(
      d.commits?.map((c) => c.subject),
      ['a and b with plumbing', 'a and b 5', 'a and b 4', 'a and b 3', 'a and b 2', 'a and b 1', 'initial'],
    );
    const shas = r.git('log', '--format=%H', '--', 'src/b.ts').trim().split('\n');
    assert.ok(d.commits?.every((c) => shas.includes(c.sha) && /^\d{4}-\d\d-\d\dT/.test(c.date)));
    assert.deepEqual(pick(d), [['src/b.ts', 'src/a.ts', 7, 13, 0.538, 0.94]]);
  });
  it('evidence for a pair below min_cochanges, and for one that never changed together', async () => {
    const weak = await query(r.root, { file: ['src/b.ts'], with: 'gen/api.ts' });
    assert.deepEqual(
      [weak.together, weak.of_a, weak.of_b, weak.commits?.map((c) => c.subject), pick(weak)],
      [1, 8, 4, ['initial'], [['gen/api.ts', 'src/b.ts', 1, 8, 0.125, 0.44]]],
    );
    const never = await call('coupling', { file: ['src/b.ts'], with: 'bulk/f0.txt' }, r.root);
    const d = report(never);
    assert.deepEqual([d.together, d.of_a, d.of_b, d.commits, d.partners], [0, 8, 0, [], []]);
    assert.match(
      never.hints?.[0] ?? '',
      /No analysed commit changed both src\/b\.ts and bulk\/f0\.txt \(bulk\/f0\.txt has no analysed commit at all\)/,
    );
  });
  it('diff: partners of the changed files that the change leaves out, each once', async () => {
    r.git('checkout', '-q', '-b', 'agent/diff');
    r.write('src/a.ts', 'edited\n');
    let d = await query(r.root, {});
    assert.equal(d.mode, 'diff');
    assert.deepEqual([d.changed, d.changed_total], [['src/a.ts'], 1]);
    assert.deepEqual(
      pick(d).map((p) => p[0]),
      ['src/b.ts', 'src/c.ts'],
    );
    r.write('src/b.ts', 'edited too\n');
    d = await query(r.root, {});
    assert.deepEqual(d.changed, ['src/a.ts', 'src/b.ts']);
    assert.deepEqual(
      pick(d),
      [['src/c.ts', 'src/a.ts', 3, 13, 0.231, 0.81]],
      'b is in the change; b and c changed together only twice',
    );
    r.git('checkout', '-q', '--', '.');
    r.git('checkout', '-q', 'main');
  });
  it('diff with no change: no partners, and a hint to name files', async () => {
    const result = await call('coupling', {}, r.root);
    assert.deepEqual(report(result).partners, []);
    assert.match(result.hints?.[0] ?? '', /Nothing has changed since the merge-base with main/);
  });
  it('diff on a history unrelated to the trunk measures no change (not every file)', async () => {
    const other = coupledRepo();
    other.git('checkout', '-q', '--orphan', 'unrelated');
    other.commit('a fresh root');
    const result = await call('coupling', {}, other.root);
    assert.deepEqual([report(result).changed_total, report(result).partners], [0, []]);
    assert.match(result.hints?.[0] ?? '', /no history in common with main/);
  });
});

describe('coupling: refusals', () => {
  let r: ScratchRepo;
  before(() => {
    r = coupledRepo();
  });
  const cases: [string, Record<string, unknown>, string, RegExp][] = [
    ['a path outside the project', { file: ['/etc/hostname'] }, 'invalid_value', /is outside the project/],
    ['a relative path leading out', { file: ['../elsewhere.ts'] }, 'invalid_value', /leads outside the project/],
    ['a path inside .git', { file: ['.git/config'] }, 'invalid_value', /inside \.git/],
    ['a directory', { file: ['src'] }, 'invalid_value', /src is a directory/],
    ['an ignored file', { file: ['package-lock.json'] }, 'invalid_value', /built-in plumbing list/],
    ['with and two files', { file: ['src/a.ts', 'src/b.ts'], with: 'src/c.ts' }, 'invalid_value', /exactly one `file`/],
    ['with alone', { with: 'src/c.ts' }, 'invalid_value', /exactly one `file`/],
    ['the same file twice', { file: ['src/a.ts'], with: './src/a.ts' }, 'invalid_value', /name the same file/],
    ['a wrong type', { file: 'src/a.ts' }, 'invalid_arguments', /`file` must be array/],
  ];
  for (const [what, input, error, message] of cases) {
    it(what, async () => {
      const result = await call('coupling', input, r.root);
      assert.equal(result.error, error, JSON.stringify(result));
      assert.match(result.message ?? '', message);
    });
  }
  it('a file that is neither in the working tree nor in the history, with what it could have meant', async () => {
    const result = await call('coupling', { file: ['a.ts'] }, r.root);
    assert.equal(result.error, 'unknown_target');
    assert.deepEqual(result.data, { target: 'a.ts', suggestions: ['src/a.ts'] });
    assert.match(result.hints?.at(-1) ?? '', /list what exists with `git ls-files`/);
  });
  it('a file deleted since still has its history', async () => {
    const other = coupledRepo();
    other.git('rm', '-q', 'src/c.ts');
    other.commit('drop c');
    const d = await query(other.root, { file: ['src/c.ts'] });
    assert.deepEqual(pick(d)[0]?.slice(0, 4), ['src/a.ts', 'src/c.ts', 3, 5]);
    assert.ok(
      !(await query(other.root, { file: ['src/a.ts'] })).partners.some((p) => p.path === 'src/c.ts'),
      'a deleted file is no partner',
    );
  });
  it('an unborn branch has no history: no partners, and says so', async () => {
    const other = coupledRepo();
    other.git('checkout', '-q', '--orphan', 'fresh');
    const result = await call('coupling', { file: ['src/a.ts'] }, other.root);
    assert.deepEqual(report(result).history, { head: null, commits: 0, bulk_commits: 0, cache: 'none' });
    assert.match(result.hints?.[0] ?? '', /HEAD has no commit yet/);
  });
});

describe('coupling: the cache', () => {
  it('a warm call runs no git at all and leaves the cache as it was; the CLI answers what the verb answers', async () => {
    const r = coupledRepo();
    const shim = gitShim();
    const cold = await runCli(['coupling', '--file', 'src/a.ts', '--json'], { cwd: r.root, env: cleanEnv(shim.env) });
    assert.equal(cold.code, 0, cold.stderr);
    assert.equal((onlyJson(cold)['data'] as DiscernCouplingReport).history.cache, 'built');
    assert.ok(
      shim.calls().some((c) => c.startsWith('-c log.showSignature=false log --no-merges')),
      shim.calls().join('\n'),
    );
    const files = cacheFiles(r.root);
    assert.deepEqual(
      files.map((f) => f.replace(/^[0-9a-f]+/, 'HEAD')),
      ['HEAD.bin', 'HEAD.log'],
    );
    const stamp = statSync(join(r.root, '.git', 'discern', 'coupling', files[0] ?? '')).mtimeMs;
    const before = shim.calls().length;
    const warm = await runCli(['coupling', '--file', 'src/a.ts', '--json'], { cwd: r.root, env: cleanEnv(shim.env) });
    assert.equal(warm.code, 0, warm.stderr);
    assert.deepEqual(shim.calls().slice(before), [], 'HEAD, the config and the cache are read from files');
    assert.equal(statSync(join(r.root, '.git', 'discern', 'coupling', files[0] ?? '')).mtimeMs, stamp);
    const direct = await call('coupling', { file: ['src/a.ts'] }, r.root, {}, 'cli');
    assert.equal(warm.stdout, `${serializeResult(direct)}\n`, "the warm path prints exactly the verb's result");
    assert.equal((direct.data as DiscernCouplingReport).history.cache, 'hit');
    // Anything the warm path does not answer goes to the full CLI: a refusal, another format.
    const refused = await runCli(['coupling', '--file', 'nope.ts', '--json'], { cwd: r.root, env: cleanEnv() });
    assert.equal(onlyJson(refused)['error'], 'unknown_target');
    assert.equal(refused.code, 1);
    const markdown = await runCli(['coupling', '--file', 'src/a.ts', '--markdown'], { cwd: r.root, env: cleanEnv() });
    assert.match(markdown.stdout, /\| `src\/b\.ts` \| `src\/a\.ts` \| 7 of 13 \| 0\.538 \| 0\.94 \|/);
  });
  it('the warm path reuses the resolved project only while discern.toml, DISCERN_TRUNK and the trunk are unchanged', async () => {
    const r = coupledRepo();
    const cli = async (env: Record<string, string> = {}): Promise<Record<string, unknown>> =>
      onlyJson(await runCli(['coupling', '--file', 'src/a.ts', '--json'], { cwd: r.root, env: cleanEnv(env) }));
    await cli();
    assert.ok(
      existsSync(join(r.root, '.git', 'discern', 'coupling-project.json')),
      'a full call leaves the resolved project behind',
    );
    assert.deepEqual(
      pick((await cli())['data'] as DiscernCouplingReport).map((p) => p[0]),
      ['src/b.ts', 'gen/api.ts', 'src/c.ts'],
    );
    rmSync(join(r.root, '.git', 'discern', 'coupling'), { recursive: true });
    const rebuilt = (await cli())['data'] as DiscernCouplingReport;
    assert.deepEqual(
      [rebuilt.history.cache, pick(rebuilt)[0]],
      ['built', ['src/b.ts', 'src/a.ts', 7, 13, 0.538, 0.94]],
      'a remembered project with no cache reads the history itself',
    );
    r.write('discern.toml', `${CONFIG}\n[coupling]\nmin_cochanges = 4\n`);
    assert.deepEqual(
      pick((await cli())['data'] as DiscernCouplingReport).map((p) => p[0]),
      ['src/b.ts', 'gen/api.ts'],
      'a changed discern.toml is read again',
    );
    r.write('discern.toml', `${CONFIG}\n[coupling]\nmin_cochanges = 4\nbogus = 1\n`);
    assert.equal((await cli())['error'], 'unknown_key', 'and validated again');
    r.write('discern.toml', CONFIG);
    assert.equal((await cli({ DISCERN_TRUNK: 'nowhere' }))['error'], 'no_trunk');
    assert.equal((await cli())['ok'], true);
    r.git('branch', '-m', 'main', 'renamed');
    assert.equal((await cli())['error'], 'no_trunk', 'the trunk is checked on every call');
  });
  it('a new commit extends the cache with only the commits since; a rewritten HEAD reads it all again', async () => {
    const r = coupledRepo();
    await query(r.root, { file: ['src/a.ts'] });
    const old = r.git('rev-parse', 'HEAD').trim();
    touch(r, ['src/a.ts', 'src/b.ts'], 'a and b 6');
    const head = r.git('rev-parse', 'HEAD').trim();
    const shim = gitShim();
    const extended = await query(r.root, { file: ['src/a.ts'] }, shim.env);
    assert.equal(extended.history.cache, 'extended');
    assert.ok(
      shim.calls().some((c) => c.includes(`log --no-merges`) && c.includes(`${old}..${head}`)),
      shim.calls().join('\n'),
    );
    assert.deepEqual(pick(extended)[0], ['src/b.ts', 'src/a.ts', 8, 14, 0.571, 0.95]);
    r.git('commit', '-q', '--amend', '-m', 'a and b 6, reworded');
    const rebuilt = await query(r.root, { file: ['src/a.ts'] });
    assert.equal(rebuilt.history.cache, 'built', 'the cached HEAD is no ancestor of the amended one');
    assert.deepEqual(pick(rebuilt)[0], pick(extended)[0]);
    assert.equal((await query(r.root, { file: ['src/a.ts'] })).history.cache, 'hit');
  });
  it("keeps the four newest heads, and sweeps a killed writer's temp file", async () => {
    const r = coupledRepo();
    const dir = join(r.root, '.git', 'discern', 'coupling');
    await query(r.root, { file: ['src/a.ts'] });
    const leftover = join(dir, '.deadbeef.bin.123.abcdef.tmp');
    writeFileSync(leftover, 'half');
    utimesSync(leftover, new Date(Date.now() - 7_200_000), new Date(Date.now() - 7_200_000));
    const heads: string[] = [];
    for (let i = 1; i <= 5; i++) {
      touch(r, ['src/a.ts'], `more a ${i}`);
      heads.push(r.git('rev-parse', 'HEAD').trim());
      assert.equal((await query(r.root, { file: ['src/a.ts'] })).history.cache, 'extended');
    }
    assert.deepEqual(
      cacheFiles(r.root),
      heads
        .slice(-4)
        .flatMap((h) => [`${h}.bin`, `${h}.log`])
        .sort(),
    );
  });
  it('a damaged cache file is a miss, never a wrong answer', async () => {
    const r = coupledRepo();
    await query(r.root, { file: ['src/a.ts'] });
    const [bin] = cacheFiles(r.root);
    const path = join(r.root, '.git', 'discern', 'coupling', bin ?? '');
    writeFileSync(path, readFileSync(path).subarray(0, 100));
    const d = await query(r.root, { file: ['src/a.ts'] });
    assert.equal(d.history.cache, 'built');
    assert.deepEqual(pick(d)[0], ['src/b.ts', 'src/a.ts', 7, 13, 0.538, 0.94]);
  });
  it('linked worktrees share the cache; a shallow clone says its history is cut off', async () => {
    const r = coupledRepo();
    await query(r.root, { file: ['src/a.ts'] });
    const tree = `${r.root}-linked`;
    r.git('worktree', 'add', '-q', '--detach', tree, 'HEAD');
    try {
      const d = await query(tree, { file: ['src/a.ts'] });
      assert.deepEqual([d.history.cache, pick(d)[0]], ['hit', ['src/b.ts', 'src/a.ts', 7, 13, 0.538, 0.94]]);
    } finally {
      r.git('worktree', 'remove', '--force', tree);
    }
    const clone = tempDir('discern-coupling-shallow-');
    execFileSync('git', ['clone', '-q', '--depth', '4', `file://${r.root}`, clone], { env: cleanEnv() });
    const result = await call('coupling', { file: ['src/a.ts'] }, clone);
    const d = report(result);
    // The last four commits: three analysed, and the bulk one.
    assert.deepEqual(
      [d.history.shallow, d.history.commits, d.history.bulk_commits, d.history.cache],
      [true, 3, 1, 'built'],
    );
    assert.match(result.hints?.[0] ?? '', /shallow clone/);
  });
  it("an absolute path through a symbolic link to the project is the project's file", async () => {
    const r = coupledRepo();
    const link = join(tempDir('discern-coupling-link-'), 'project');
    execFileSync('ln', ['-s', r.root, link]);
    assert.deepEqual((await query(r.root, { file: [join(link, 'src', 'a.ts')] })).target, ['src/a.ts']);
  });
  it('the warm path holds the registration the generated registry has', () => {
    const c = VERBS.coupling;
    assert.deepEqual({ verb: c.verb, trunk: c.trunk, setupGate: c.setupGate, policy: c.policy }, COUPLING_REGISTRATION);
  });
});

describe('coupling hints in done and prepare', () => {
  it('a green done names a strong partner the change leaves out; prepare too', async () => {
    const r = coupledRepo();
    r.git('checkout', '-q', '-b', 'agent/hints');
    touch(r, ['src/a.ts'], 'a without b');
    const done = await call('done', {}, r.root);
    assert.ok(done.ok, JSON.stringify(done));
    assert.ok(
      done.hints?.includes('src/a.ts usually changes with src/b.ts (7 of 14 commits); src/b.ts is not in this change.'),
      JSON.stringify(done.hints),
    );
    assert.ok(!done.hints?.some((h) => h.includes('src/c.ts')), 'only partners at min_confidence');
    r.write('src/a.ts', 'uncommitted edit\n');
    const prepare = await call('prepare', {}, r.root);
    assert.ok(prepare.ok, JSON.stringify(prepare));
    assert.ok(
      prepare.hints?.some((h) => h.startsWith('src/a.ts usually changes with src/b.ts')),
      JSON.stringify(prepare.hints),
    );
  });
  it('none when [coupling] in_gate = false', async () => {
    const r = coupledRepo(`${CONFIG}\n[coupling]\nin_gate = false\n`);
    r.git('checkout', '-q', '-b', 'agent/quiet');
    touch(r, ['src/a.ts'], 'a without b');
    const done = await call('done', {}, r.root);
    assert.ok(done.ok, JSON.stringify(done));
    assert.ok(!done.hints?.some((h) => h.includes('usually changes with')), JSON.stringify(done.hints));
    r.write('src/a.ts', 'uncommitted edit\n');
    const prepare = await call('prepare', {}, r.root);
    assert.ok(!prepare.hints?.some((h) => h.includes('usually changes with')), JSON.stringify(prepare.hints));
  });
});

describe('faithfulness', () => {
  it('coupling was driven through success and failure', () => {
    assertDriven(['coupling']);
  });
});
