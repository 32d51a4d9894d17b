// Trust under stress: the repository on a read-only file system, then on a full one (a small tmpfs filled up).
// Every verb that writes answers with a classified failure and a next action — never a crash or a stack trace —
// and leaves nothing half-written: no temp file, every file byte-identical, every journal record parseable.
// Once the disk has room again, the same calls work. Mounting needs root (CAP_SYS_ADMIN); without it the file
// says why it skips.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  closeSync,
  existsSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { join, relative } from 'node:path';
import { cleanEnv, tempDir } from '../helpers/scratch-repo.js';
import { onlyJson, runCli } from '../helpers/cli.js';

/** Why the file cannot run here, or undefined when it can mount a tmpfs. */
function mountUnavailable(): string | undefined {
  if (process.platform !== 'linux') return 'needs Linux tmpfs mounts';
  if (process.getuid?.() !== 0) return 'needs root (CAP_SYS_ADMIN) to mount a tmpfs';
  const probe = tempDir('discern-mount-probe-');
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=64k', 'tmpfs', probe], { stdio: 'pipe' });
    execFileSync('umount', [probe], { stdio: 'pipe' });
    return undefined;
  } catch (error) {
    return `cannot mount a tmpfs here: ${(error as Error).message.split('\n')[0]}`;
  }
}

const skip = mountUnavailable();
const mounts: string[] = [];

function mount(size: string): string {
  const dir = tempDir('discern-disk-');
  execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${size}`, 'tmpfs', dir], { stdio: 'pipe' });
  mounts.push(dir);
  return dir;
}

function remount(dir: string, mode: 'ro' | 'rw'): void {
  execFileSync('mount', ['-o', `remount,${mode}`, dir], { stdio: 'pipe' });
}

// Unmounted whatever happened to the tests (lazily, if a process still has a file open there).
after(() => {
  for (const dir of mounts) {
    try {
      execFileSync('umount', [dir], { stdio: 'pipe' });
    } catch {
      try {
        execFileSync('umount', ['-l', dir], { stdio: 'pipe' });
      } catch {
        // already unmounted
      }
    }
  }
});

function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, {
    cwd,
    env: cleanEnv({ GIT_CONFIG_NOSYSTEM: '1' }),
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  }).trim();
}

function newRepo(dir: string, files: Record<string, string>): string {
  mkdirSync(dir, { recursive: true });
  git(dir, 'init', '-q', '-b', 'main');
  git(dir, 'config', 'user.name', 'discern test');
  git(dir, 'config', 'user.email', 'test@discern.invalid');
  git(dir, 'config', 'commit.gpgsign', 'false');
  for (const [path, text] of Object.entries(files)) writeFileSync(join(dir, path), text);
  git(dir, 'add', '-A');
  git(dir, 'commit', '-q', '-m', 'initial');
  return dir;
}

// Valid, but not tidy: tidy has something to write.
const CONFIG = '[project]\nname="Disk"   \n\n[repository]\ntrunk = "main"\n\n[jobs]\ntest  =  "true"\n';

type Json = { ok?: boolean; error?: string; message?: string; hints?: string[] };

async function call(args: string[], cwd: string): Promise<{ code: number | null; result: Json; stderr: string }> {
  const run = await runCli([...args, '--json'], { cwd, env: cleanEnv() });
  return { code: run.code, result: onlyJson(run) as Json, stderr: run.stderr };
}

/**
 * Every file under `root` with its content hash; the logbook (an append-only log of calls) aside, and git's own
 * `objects/??/tmp_obj_*` — a git that runs out of space mid-object leaves one, and git gc prunes it; discern does
 * not touch the object store's internals.
 */
function snapshot(root: string): Map<string, string> {
  const files = new Map<string, string>();
  for (const name of readdirSync(root, { recursive: true }).map(String)) {
    const path = join(root, name);
    if (
      name.includes('logbook') ||
      /\/objects\/[0-9a-f]{2}\/tmp_obj_/.test(name) ||
      !statSync(path).isFile() ||
      name === 'filler'
    )
      continue;
    files.set(relative(root, path), createHash('sha256').update(readFileSync(path)).digest('hex'));
  }
  return files;
}

/** Nothing half-written: no temp file anywhere, journal records and logbook lines all parse. */
function assertNothingHalfWritten(root: string): void {
  for (const name of readdirSync(root, { recursive: true }).map(String)) {
    assert.ok(!/(^|\/)\.[^/]*\.tmp$/.test(name) && !name.endsWith('.json.tmp'), `a temp file was left: ${name}`);
    const path = join(root, name);
    if (/\/operations\/R1-[^/]+\.json$/.test(name))
      assert.doesNotThrow(() => JSON.parse(readFileSync(path, 'utf8')), `${name} parses`);
    if (/logbook\/[^/]+\.jsonl$/.test(name)) {
      for (const line of readFileSync(path, 'utf8')
        .split('\n')
        .filter((l) => l.length > 0))
        assert.doesNotThrow(() => JSON.parse(line), `a logbook line of ${name} parses: ${line}`);
    }
  }
}

function assertSameFiles(before: Map<string, string>, now: Map<string, string>): void {
  const changed = [...new Set([...before.keys(), ...now.keys()])].filter((k) => before.get(k) !== now.get(k));
  assert.deepEqual(changed, [], 'every file is byte-identical and none appeared or went');
}

/** Fills the file system at `dir` up to the last byte. */
function fill(dir: string): void {
  const fd = openSync(join(dir, 'filler'), 'w');
  const chunk = Buffer.alloc(16 * 1024);
  try {
    for (;;) writeSync(fd, chunk);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error;
  } finally {
    closeSync(fd);
  }
  // Smaller writes take the last partial page.
  const small = openSync(join(dir, 'filler'), 'a');
  try {
    for (;;) writeSync(small, Buffer.alloc(64));
  } catch {
    // full
  } finally {
    closeSync(small);
  }
}

interface Fixture {
  disk: string;
  main: string;
  effort: string;
  fresh: string;
}

/** A project with a proven effort behind a moved trunk, and a repository with no discern.toml yet. */
async function fixture(): Promise<Fixture> {
  const disk = mount('4m');
  const main = newRepo(join(disk, 'project'), { 'discern.toml': CONFIG, 'a.txt': 'a\n' });
  const started = await call(['start', 'eff'], main);
  assert.equal(started.result.ok, true, JSON.stringify(started.result));
  const effort = join(disk, 'project.worktrees', 'eff');
  writeFileSync(join(effort, 'w.txt'), 'w\n');
  git(effort, 'add', '-A');
  git(effort, 'commit', '-q', '-m', 'work');
  const proven = await call(['done'], effort);
  assert.equal(proven.result.ok, true, JSON.stringify(proven.result));
  writeFileSync(join(main, 'b.txt'), 'b\n');
  git(main, 'add', '-A');
  git(main, 'commit', '-q', '-m', 'trunk moves on');
  const fresh = newRepo(join(disk, 'fresh'), { 'README.md': '# fresh\n' });
  return { disk, main, effort, fresh };
}

/** The verbs that write, each where it runs. */
function writers(f: Fixture): { name: string; args: string[]; cwd: string }[] {
  return [
    // In an order where each leaves the next something to do once writes work: the update moves the effort
    // past its Proof, done proves it again, accept lands it before config set and tidy change discern.toml.
    { name: 'update', args: ['update'], cwd: f.effort },
    { name: 'done', args: ['done', '--rerun'], cwd: f.effort },
    { name: 'accept', args: ['accept', 'eff', '--confirmed'], cwd: f.main },
    { name: 'start', args: ['start', 'two'], cwd: f.main },
    { name: 'config set', args: ['config', 'set', 'gate.timeout', '5'], cwd: f.main },
    { name: 'tidy', args: ['tidy', 'toml'], cwd: f.main },
    { name: 'setup begin', args: ['setup', 'begin'], cwd: f.fresh },
  ];
}

const CLASSIFIED = new Set(['write_denied', 'tidy_write_failed', 'apply_failed']);

async function assertEveryWriterRefuses(f: Fixture, t: { diagnostic(message: string): void }): Promise<void> {
  for (const w of writers(f)) {
    const { code, result, stderr } = await call(w.args, w.cwd);
    t.diagnostic(`${w.name}: ${result.error ?? 'ok'} — ${result.message ?? ''}`);
    assert.equal(result.ok, false, `${w.name} cannot succeed: ${JSON.stringify(result)}`);
    assert.ok(
      CLASSIFIED.has(result.error ?? ''),
      `${w.name} gives a classified write failure, not ${result.error}: ${result.message}`,
    );
    assert.notEqual(code, 70, `${w.name} did not crash`);
    assert.ok((result.hints ?? []).length > 0, `${w.name} names a next action`);
    assert.ok(!stderr.includes('    at '), `${w.name} printed no stack trace: ${stderr}`);
  }
}

describe('a read-only or full disk', { skip }, () => {
  let f: Fixture;
  before(async () => {
    f = await fixture();
  });

  it('read-only: every writing verb refuses with write_denied, nothing changes, and it all works once writable', async (t) => {
    const was = snapshot(f.disk);
    remount(f.disk, 'ro');
    try {
      await assertEveryWriterRefuses(f, t);
    } finally {
      remount(f.disk, 'rw');
    }
    assertSameFiles(was, snapshot(f.disk));
    assertNothingHalfWritten(f.disk);
    const set = await call(['config', 'set', 'gate.timeout', '5'], f.main);
    assert.equal(set.result.ok, true, JSON.stringify(set.result));
    git(f.main, 'checkout', '--', 'discern.toml');
  });

  it('full: every writing verb gives a classified failure, nothing is truncated, and it all works once there is room', async (t) => {
    const was = snapshot(f.disk);
    fill(f.disk);
    try {
      await assertEveryWriterRefuses(f, t);
      assertSameFiles(was, snapshot(f.disk));
      assertNothingHalfWritten(f.disk);
    } finally {
      rmSync(join(f.disk, 'filler'), { force: true });
    }
    // Room again: the calls that were refused now work, in an order that leaves each one something to do.
    for (const w of writers(f)) {
      const { result } = await call(w.args, w.cwd);
      t.diagnostic(`${w.name} after: ${result.ok ? 'ok' : `${result.error} — ${result.message}`}`);
      assert.equal(result.ok, true, `${w.name} works once the disk has room: ${JSON.stringify(result)}`);
    }
    assert.ok(existsSync(join(f.disk, 'project.worktrees', 'two')), 'the effort start refused is there now');
    assertNothingHalfWritten(f.disk);
  });
});
