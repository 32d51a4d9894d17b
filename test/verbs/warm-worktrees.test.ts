// Warm worktrees on real scratch repositories: start and `worktree setup` take the main checkout's installed
// dependencies ([worktree] copy) when their key files match, as a copy that is safe to change in either checkout
// (modes, times and relative links kept, `.cache` and virtualenvs left out, pnpm's store links linked again), and
// skip them with a reason otherwise. A start killed half-way through a copy leaves nothing half-copied in place.
import { describe, it, after } from 'node:test';
import assert from 'node:assert/strict';
import {
  chmodSync,
  existsSync,
  linkSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  statSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join } from 'node:path';
import type { DiscernStartData, DiscernWorktreeCopy } from '../../generated/types.js';
import { call } from '../helpers/drive.js';
import { effort } from '../helpers/efforts.js';
import { onlyJson, runCli } from '../helpers/cli.js';
import { cleanEnv, scratchRepo, tempDir, type ScratchRepo } from '../helpers/scratch-repo.js';

const repos: ScratchRepo[] = [];
after(() => repos.forEach((r) => r.cleanup()));

const LOCK = JSON.stringify({ name: 'app', lockfileVersion: 3, packages: {} });

/** A Node project whose main checkout has installed node_modules: files, a bin link, a workspace link, a cache. */
function nodeProject(extra = '', files: Record<string, string> = {}): ScratchRepo {
  const r = scratchRepo({
    'discern.toml': `[project]\nname = "warm"\n\n[jobs]\ntest = "true"\n${extra}`,
    '.gitignore': 'node_modules/\n*.log\n',
    'package.json': '{ "name": "app", "version": "1.0.0" }\n',
    'package-lock.json': `${LOCK}\n`,
    'packages/ws/package.json': '{ "name": "ws", "version": "1.0.0" }\n',
    ...files,
  });
  repos.push(r);
  install(r.root);
  return r;
}

function install(root: string): void {
  const put = (path: string, text: string) => {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  };
  put('node_modules/left-pad/package.json', '{ "name": "left-pad" }\n');
  put('node_modules/left-pad/index.js', 'module.exports = (s) => s;\n');
  put('node_modules/left-pad/bin/cli.js', '#!/usr/bin/env node\n');
  chmodSync(join(root, 'node_modules/left-pad/bin/cli.js'), 0o755);
  put('node_modules/@scope/deep/lib/a/b/c.js', 'exports.c = 1;\n');
  put('node_modules/.package-lock.json', `${LOCK}\n`);
  put('node_modules/.cache/babel/abs-path.json', `{"root":"${root}"}\n`);
  mkdirSync(join(root, 'node_modules/.bin'));
  symlinkSync('../left-pad/bin/cli.js', join(root, 'node_modules/.bin/left-pad'));
  symlinkSync('../packages/ws', join(root, 'node_modules/ws'));
  // An old time on a file and a package folder: the copy keeps them (npm compares them with its hidden lockfile).
  const old = new Date('2024-01-02T03:04:05Z');
  utimesSync(join(root, 'node_modules/left-pad/index.js'), old, old);
  utimesSync(join(root, 'node_modules/left-pad'), old, old);
}

async function start(r: ScratchRepo, name: string): Promise<DiscernStartData> {
  const result = await call('start', { name }, r.root);
  assert.ok(result.ok && result.verb === 'start' && result.data && 'id' in result.data, JSON.stringify(result));
  return result.data;
}

function copyOf(data: { copies?: DiscernWorktreeCopy[] }, path: string): DiscernWorktreeCopy {
  const copy = data.copies?.find((c) => c.path === path);
  assert.ok(copy, `no copy of ${path}: ${JSON.stringify(data.copies)}`);
  return copy;
}

describe('warm worktrees', () => {
  it('start copies node_modules when package.json and the lockfile match, then ensure runs over the copy', async () => {
    const r = nodeProject(
      '\n[repository]\nensure = ["test -f node_modules/left-pad/index.js && echo warm > ensure.log"]\n',
    );
    const d = await start(r, 'warm');
    const copy = copyOf(d, 'node_modules');
    assert.equal(copy.outcome, 'copied', JSON.stringify(copy));
    assert.ok(copy.method === 'clone' || copy.method === 'copy');
    assert.equal(copy.files, 5, 'the files, without the .cache directory');
    assert.equal(readFileSync(join(d.path, 'ensure.log'), 'utf8'), 'warm\n', 'ensure ran after the copy');

    const moved = (p: string) => join(d.path, p);
    const main = (p: string) => join(r.root, p);
    assert.equal(readFileSync(moved('node_modules/@scope/deep/lib/a/b/c.js'), 'utf8'), 'exports.c = 1;\n');
    assert.equal(statSync(moved('node_modules/left-pad/bin/cli.js')).mode & 0o777, 0o755);
    assert.equal(
      statSync(moved('node_modules/left-pad/index.js')).mtimeMs,
      statSync(main('node_modules/left-pad/index.js')).mtimeMs,
    );
    assert.equal(statSync(moved('node_modules/left-pad')).mtimeMs, statSync(main('node_modules/left-pad')).mtimeMs);
    assert.equal(readlinkSync(moved('node_modules/.bin/left-pad')), '../left-pad/bin/cli.js');
    // The workspace link leads to the new worktree's own package, as it does in the main checkout to its own.
    assert.equal(readlinkSync(moved('node_modules/ws')), '../packages/ws');
    assert.ok(!existsSync(moved('node_modules/.cache')), '.cache holds absolute paths: never copied');

    // Safe to change in either checkout: another file, not another name for the same one.
    assert.notEqual(
      statSync(moved('node_modules/left-pad/index.js')).ino,
      statSync(main('node_modules/left-pad/index.js')).ino,
    );
    writeFileSync(moved('node_modules/left-pad/index.js'), 'changed in the worktree\n');
    assert.equal(readFileSync(main('node_modules/left-pad/index.js'), 'utf8'), 'module.exports = (s) => s;\n');

    assert.equal(r.git('-C', d.path, 'status', '--porcelain'), '', 'the copy leaves the worktree clean');
    const record = JSON.parse(readFileSync(d.task.record_path, 'utf8')) as {
      copies?: { path: string; bytes: number }[];
    };
    assert.deepEqual(
      record.copies?.map((c) => c.path),
      ['node_modules'],
    );
    assert.equal(record.copies?.[0]?.bytes, copy.bytes);

    const status = await call('status', {}, r.root);
    assert.ok(status.ok && status.verb === 'status' && status.data && 'fleet' in status.data);
    const row = status.data.fleet?.find((f) => f.id === 'warm');
    assert.equal(row?.copied_bytes, copy.bytes);
  });

  it('a dry run plans the copy with its key files, read from the starting commit', async () => {
    const r = nodeProject();
    const result = await call('start', { name: 'planned', dry_run: true }, r.root);
    const step = result.plan?.steps.find((s) => s.kind === 'worktree-copy');
    assert.equal(step?.label, 'copy node_modules from the main checkout if its key files match');
    assert.equal(step?.note, 'package-lock.json, package.json, packages/ws/package.json');
    assert.ok(
      result.plan?.steps.some((s) => s.label.startsWith('copy packages/ws/node_modules')),
      'each package of a workspace has its own',
    );
  });

  it('skips with the reason when a key file differs, ensure deletes node_modules, or the copy is too large', async () => {
    const edited = nodeProject();
    writeFileSync(join(edited.root, 'package-lock.json'), `${LOCK.replace('"app"', '"app2"')}\n`);
    const a = await start(edited, 'lock-differs');
    assert.equal(copyOf(a, 'node_modules').outcome, 'skipped');
    assert.match(copyOf(a, 'node_modules').reason ?? '', /package-lock\.json differs/);
    assert.ok(!existsSync(join(a.path, 'node_modules')));

    const ci = nodeProject('\n[repository]\nensure = ["true npm ci", "npm ci --ignore-scripts || true"]\n');
    const b = await start(ci, 'npm-ci');
    assert.match(copyOf(b, 'node_modules').reason ?? '', /npm ci --ignore-scripts \|\| true.*deletes node_modules/);

    const small = nodeProject('\n[worktree]\ncopy_max_mib = 0\n');
    const c = await start(small, 'too-large');
    assert.match(copyOf(c, 'node_modules').reason ?? '', /more than \[worktree\] copy_max_mib \(0\.0 MiB\)/);
    assert.ok(!existsSync(join(c.path, 'node_modules')));

    const off = nodeProject('\n[worktree]\ncopy = []\n');
    const e = await start(off, 'off');
    assert.equal(e.copies, undefined);
  });

  it('skips the whole entry when a link leads into the main checkout, and a directory git does not ignore', async () => {
    const linked = nodeProject();
    symlinkSync(join(linked.root, 'packages/ws'), join(linked.root, 'node_modules/abs-ws'));
    const a = await start(linked, 'abs-link');
    assert.match(copyOf(a, 'node_modules').reason ?? '', /abs-ws links to .*in the main checkout/);
    assert.ok(!existsSync(join(a.path, 'node_modules')), 'nothing half-copied is left in place');

    const outward = nodeProject();
    symlinkSync('../../elsewhere', join(outward.root, 'node_modules/out'));
    const b = await start(outward, 'out-link');
    assert.match(copyOf(b, 'node_modules').reason ?? '', /out of the checkout/);

    const shown = nodeProject('', { '.gitignore': '*.log\n' });
    const c = await start(shown, 'not-ignored');
    assert.match(copyOf(c, 'node_modules').reason ?? '', /git does not ignore node_modules/);
  });

  it('links pnpm store files again (they already share the store), copies the rest, and keeps virtualenvs out', async () => {
    const r = nodeProject(
      '\n[worktree]\ncopy = [{ path = "node_modules", key = ["package.json", "pnpm-lock.yaml"] }, { path = ".venv", key = ["pyproject.toml"] }]\n',
    );
    const store = tempDir('discern-pnpm-store-');
    writeFileSync(join(store, 'blob'), 'module.exports = 42;\n');
    const inStore = join(r.root, 'node_modules/.pnpm/answer@1.0.0/node_modules/answer/index.js');
    mkdirSync(dirname(inStore), { recursive: true });
    linkSync(join(store, 'blob'), inStore);
    mkdirSync(join(r.root, 'node_modules/.pnpm/tool@1.0.0/node_modules/tool/venv'), { recursive: true });
    writeFileSync(join(r.root, 'node_modules/.pnpm/tool@1.0.0/node_modules/tool/venv/pyvenv.cfg'), 'home = /usr\n');
    mkdirSync(join(r.root, '.venv/bin'), { recursive: true });
    writeFileSync(join(r.root, '.venv/pyvenv.cfg'), 'home = /usr\n');
    writeFileSync(join(r.root, '.gitignore'), 'node_modules/\n.venv/\n*.log\n');
    r.git('add', '.gitignore');
    r.git('commit', '-qm', 'ignore .venv');

    const d = await start(r, 'pnpm');
    const copy = copyOf(d, 'node_modules');
    assert.equal(copy.outcome, 'copied', JSON.stringify(d.copies));
    assert.equal(copy.linked, 1);
    const moved = join(d.path, 'node_modules/.pnpm/answer@1.0.0/node_modules/answer/index.js');
    assert.equal(statSync(moved).ino, statSync(inStore).ino, "the store's file, linked");
    assert.notEqual(
      statSync(join(d.path, 'node_modules/left-pad/index.js')).ino,
      statSync(join(r.root, 'node_modules/left-pad/index.js')).ino,
      'a file npm extracted is copied',
    );
    assert.ok(!existsSync(join(d.path, 'node_modules/.pnpm/tool@1.0.0/node_modules/tool/venv')));
    assert.match(copyOf(d, '.venv').reason ?? '', /virtualenv/);
    assert.ok(!existsSync(join(d.path, '.venv')));
  });

  it("accept's integration worktree takes the copy too, and the composed gate runs over it", async () => {
    const r = nodeProject('\n[repository]\nensure = ["test -f node_modules/left-pad/index.js"]\n');
    const a = await effort(r, 'alpha', 'alpha.txt', 'a\n');
    const b = await effort(r, 'beta', 'beta.txt', 'b\n');
    assert.ok((await call('accept', { confirmed: true }, a.path)).ok);
    const composed = await call('accept', { confirmed: true }, b.path);
    assert.ok(composed.ok, JSON.stringify(composed, null, 2));
    // Beside the efforts' worktrees, not under .git: jest, for one, finds no test in a project under a .git dir.
    const compose = composed.steps?.find((s) => s.label.startsWith('compose agent/beta'));
    assert.equal(compose?.note, `${r.root}.worktrees/.discern-integration/_compose`);
    const copy = composed.steps?.find((s) => s.kind === 'worktree-copy');
    assert.equal(copy?.outcome, 'ok', JSON.stringify(composed.steps));
    assert.match(copy?.note ?? '', /in 5 files/);
    // The landed effort's and the integration worktree's installs were set aside and deleted: nothing is left.
    assert.ok(!existsSync(b.path));
    const trash = join(r.root, '.git', 'discern', 'trash');
    assert.deepEqual(existsSync(trash) ? readdirSync(trash) : [], []);
  });

  it('after a copy, a spare is made in the background; the next start renames it into place, and only for its key files', async () => {
    const r = nodeProject();
    const env = cleanEnv();
    const first = onlyJson(await runCli(['start', 'first', '--json'], { cwd: r.root, env }));
    assert.equal(copyOf(first['data'] as DiscernStartData, 'node_modules').method === 'spare', false);
    const pool = join(r.root, '.git', 'discern', 'warm-pool');
    const ready = async (): Promise<string[]> => {
      for (let i = 0; i < 300; i++) {
        const names = existsSync(pool) ? readdirSync(pool).filter((n) => !n.startsWith('.')) : [];
        if (names.length > 0) return names;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      return [];
    };
    assert.equal((await ready()).length, 1, 'a spare was made');
    const second = onlyJson(await runCli(['start', 'second', '--json'], { cwd: r.root, env }));
    const taken = copyOf(second['data'] as DiscernStartData, 'node_modules');
    assert.equal(taken.method, 'spare', JSON.stringify(second['steps']));
    assert.equal(taken.files, 5);
    const path = `${r.root}.worktrees/second`;
    assert.equal(readFileSync(join(path, 'node_modules/@scope/deep/lib/a/b/c.js'), 'utf8'), 'exports.c = 1;\n');
    assert.equal(readlinkSync(join(path, 'node_modules/ws')), '../packages/ws');
    assert.ok(!existsSync(join(path, 'node_modules/.cache')));
    assert.equal(r.git('-C', path, 'status', '--porcelain'), '');

    // The lockfile changes on the trunk (and in the main checkout): the spare made for the old one is not taken.
    assert.equal((await ready()).length, 1, 'the spare was made again');
    r.write('package-lock.json', `${LOCK.replace('"app"', '"app3"')}\n`);
    r.commit('a new lockfile');
    const third = onlyJson(await runCli(['start', 'third', '--json'], { cwd: r.root, env }));
    assert.equal(copyOf(third['data'] as DiscernStartData, 'node_modules').method === 'spare', false);
  });

  it('a start killed half-way through the copy leaves no half-copied node_modules; worktree setup copies it whole', async () => {
    const r = nodeProject();
    for (let i = 0; i < 200; i++) writeFileSync(join(r.root, `node_modules/left-pad/f${i}.js`), `exports.i = ${i};\n`);
    const env = cleanEnv({ DISCERN_FAULT: 'start:copy-halfway' });
    const killed = await runCli(['start', 'half', '--json'], { cwd: r.root, env });
    assert.equal(killed.signal, 'SIGKILL', killed.stderr);
    const path = `${r.root}.worktrees/half`;
    assert.ok(existsSync(join(path, 'package.json')), 'the worktree was made before the copy');
    assert.ok(!existsSync(join(path, 'node_modules')), 'the partial copy is not where the install belongs');
    assert.equal(r.git('-C', path, 'status', '--porcelain'), '', 'nor anywhere git shows it');

    const setup = onlyJson(await runCli(['worktree', 'setup', 'half', '--json'], { cwd: r.root, env: cleanEnv() }));
    assert.equal(setup['ok'], true, JSON.stringify(setup));
    const data = setup['data'] as { copies?: DiscernWorktreeCopy[] };
    assert.equal(copyOf(data, 'node_modules').outcome, 'copied');
    assert.equal(copyOf(data, 'node_modules').files, 205);
    assert.equal(readFileSync(join(path, 'node_modules/left-pad/f199.js'), 'utf8'), 'exports.i = 199;\n');
    const staging = r.git('-C', path, 'rev-parse', '--git-dir').trim();
    assert.ok(!existsSync(join(staging, 'discern', 'copying')), 'the staging area is cleared');
    assert.ok(lstatSync(join(path, 'node_modules/.bin/left-pad')).isSymbolicLink());
  });
});
