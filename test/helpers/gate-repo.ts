// Scratch projects for the gate verbs (done, prepare, test, progress): a real git repository whose discern.toml
// runs real shell jobs, counter files outside the repository that show whether (and how often) a job ran,
// linked worktrees, discern's state paths as a user finds them under the git directory, and the built CLI as
// a child process that can be watched, awaited or killed mid-run.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { DISCERN_BIN, type CliRun } from './cli.js';
import { cleanEnv, scratchRepo, tempDir, type ScratchRepo } from './scratch-repo.js';

export const R1_HANDLE = /^R1-[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{2}$/;

/** The head of every scratch discern.toml; the test appends its own [jobs], [gate], [standards]… */
export const CONFIG_HEAD = `[project]
name = "Gate"

[repository]
trunk = "main"
`;

const repos: ScratchRepo[] = [];
const dirs: string[] = [];
const children: ChildProcess[] = [];
const strayPids: number[] = [];
const lockedDirs: string[] = [];

/** Removes everything the helpers created and stops what they started (by id, only ours). */
export function cleanupGate(): void {
  for (const child of children)
    if (child.exitCode === null && child.signalCode === null && child.pid !== undefined) killQuietly(child.pid);
  // A job's sleeping process we left behind; checked by command line so a reused pid is never hit.
  for (const pid of strayPids) if (commandLine(pid).startsWith('sleep')) killQuietly(pid);
  for (const dir of lockedDirs) {
    try {
      chmodSync(dir, 0o755);
    } catch {
      // already gone
    }
  }
  repos.forEach((r) => r.cleanup());
  dirs.forEach((d) => rmSync(d, { recursive: true, force: true }));
}

function commandLine(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ');
  } catch {
    return '';
  }
}

function killQuietly(pid: number): void {
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    // already gone
  }
}

/** Remembers a pid a job reported (a sleeping job of a run we killed), so cleanup ends it. */
export function rememberPid(pid: number): void {
  strayPids.push(pid);
}

/** Remembers a directory a test made unwritable, so cleanup can remove it. */
export function rememberLocked(dir: string): void {
  lockedDirs.push(dir);
}

/** A committed project: discern.toml is CONFIG_HEAD + `toml`, plus `files`. */
export function gateRepo(
  toml: string,
  files: Record<string, string> = {},
  options: { commit?: boolean } = {},
): ScratchRepo {
  const r = scratchRepo({ 'discern.toml': `${CONFIG_HEAD}\n${toml}`, ...files }, options);
  repos.push(r);
  return r;
}

/** A fresh directory outside every repository, removed after the file's tests. */
export function outsideDir(prefix = 'discern-gate-'): string {
  const dir = tempDir(prefix);
  dirs.push(dir);
  return dir;
}

/** A counter file outside the repository: jobs append one line to it each time they run. */
export function counter(name = 'count'): string {
  return join(outsideDir('discern-count-'), `${name}.txt`);
}

/** The lines a counter holds (0 when no job ever wrote it). */
export function lines(path: string): string[] {
  if (!existsSync(path)) return [];
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter((l) => l.length > 0);
}

export function count(path: string): number {
  return lines(path).length;
}

export function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, {
    cwd,
    env: cleanEnv({ GIT_CONFIG_NOSYSTEM: '1' }),
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  }).trim();
}

export function head(cwd: string): string {
  return git(cwd, 'rev-parse', 'HEAD');
}

/** The checkout's own git directory (a linked worktree's is under .git/worktrees/). */
export function gitDir(cwd: string): string {
  return git(cwd, 'rev-parse', '--absolute-git-dir');
}

/** Where done keeps this checkout's Proof marker. */
export function markerPath(cwd: string): string {
  return join(gitDir(cwd), 'discern', 'gate-proof');
}

export interface Checkout {
  root: string;
  git(...args: string[]): string;
  write(path: string, text: string): void;
  commit(message: string): void;
}

/** The checkout a ScratchRepo is, in the shape worktrees have. */
export function checkoutOf(r: ScratchRepo): Checkout {
  return { root: r.root, git: (...args) => r.git(...args).trim(), write: r.write, commit: r.commit };
}

/** A linked worktree of `r` on a new branch started at `from`. */
export function addWorktree(r: ScratchRepo, branch: string, from = 'main'): Checkout {
  const root = join(outsideDir('discern-wt-'), branch.replace(/[^A-Za-z0-9]/g, '-'));
  r.git('worktree', 'add', '-q', '-b', branch, root, from);
  const write = (path: string, text: string): void => {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  };
  return {
    root,
    git: (...args) => git(root, ...args),
    write,
    commit: (message) => {
      git(root, 'add', '-A');
      git(root, 'commit', '-q', '--allow-empty', '-m', message);
    },
  };
}

export interface CliChild {
  child: ChildProcess;
  pid: number;
  /** Resolves when the process has exited (and has been reaped). */
  result: Promise<CliRun>;
}

/** Starts the built CLI in `cwd` without waiting for it. */
export function startCli(args: readonly string[], cwd: string, env: Record<string, string> = {}): CliChild {
  const child = spawn(process.execPath, [DISCERN_BIN, ...args], {
    cwd,
    env: cleanEnv(env),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (c: Buffer) => (stdout += c.toString('utf8')));
  child.stderr?.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
  const result = new Promise<CliRun>((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
  if (child.pid === undefined) throw new Error('the CLI did not start');
  return { child, pid: child.pid, result };
}

/** Polls until `check` holds; fails after `timeoutMs`. */
export async function waitFor(what: string, check: () => boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(25);
  }
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** The pid a job wrote to a file, once it is there. */
export async function pidFrom(path: string): Promise<number> {
  await waitFor(`a pid in ${path}`, () => existsSync(path) && /^\d+\s*$/.test(readFileSync(path, 'utf8')));
  const pid = Number(readFileSync(path, 'utf8').trim());
  rememberPid(pid);
  return pid;
}

export function isRoot(): boolean {
  return process.getuid?.() === 0;
}

/** Every result in the one shape the envelope has, whatever verb it came from. */
export type Envelope = import('../../generated/types.js').DiscernResultEnvelope;

export function envelope(result: unknown): Envelope {
  return result as Envelope;
}

/** The labels of the steps with `outcome`, in order. */
export function stepsWith(result: Envelope, outcome: string): string[] {
  return (result.steps ?? []).filter((s) => s.outcome === outcome).map((s) => s.label);
}

/** One step by label; fails when it is not there. */
export function step(result: Envelope, label: string): NonNullable<Envelope['steps']>[number] {
  const found = (result.steps ?? []).find((s) => s.label === label);
  if (found === undefined)
    throw new Error(`no step ${label} in ${JSON.stringify(result.steps?.map((s) => `${s.label}:${s.outcome}`))}`);
  return found;
}

/**
 * A job command that announces it started (touches `started`) and then holds until the test creates
 * `release` (or 30 s pass), so a test decides exactly how long a run stays in flight.
 */
export function heldJob(started: string, release: string): string {
  return `touch ${started}; i=0; while [ ! -f ${release} ] && [ $i -lt 600 ]; do sleep 0.05; i=$((i+1)); done`;
}

export function release(path: string): void {
  writeFileSync(path, 'go\n');
}

/** Ends a job process a killed run left behind (it may already be gone). */
export function killJob(pid: number): void {
  killQuietly(pid);
}

export { processAlive } from './processes.js';
