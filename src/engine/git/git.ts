// git, spawned directly (no shell) with a clean environment: inherited GIT_DIR, GIT_WORK_TREE,
// GIT_INDEX_FILE and friends would aim git at another checkout than the one asked for, and a prompt or a
// pager would hang a non-interactive run.
import type { spawn as Spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { trackChild } from '../process/children.js';

export interface GitResult {
  code: number;
  stdout: string;
  stderr: string;
  /** stdout as git wrote it, when the caller asked (`bytes`): a reader that counts bytes needs them undecoded. */
  stdoutBytes?: Buffer;
}

export interface GitOptions {
  cwd: string;
  signal?: AbortSignal;
  env?: Readonly<Record<string, string | undefined>>;
  /** Written to git's stdin (then closed), for the commands that read their requests there (`cat-file --batch`). */
  input?: string;
  /** Keep stdout's bytes in the result too. */
  bytes?: boolean;
}

/** git could not be started at all (not installed, or not on PATH). */
export class GitUnavailable extends Error {
  constructor(cause: string) {
    super(`git could not be started: ${cause}`);
    this.name = 'GitUnavailable';
  }
}

/** A git older than an operation needs: a precondition the user can fix, not a crash. */
export class GitTooOld extends Error {
  constructor(what: string) {
    super(what);
    this.name = 'GitTooOld';
  }
}

const LOCATION_VARIABLES = [
  'GIT_DIR',
  'GIT_WORK_TREE',
  'GIT_INDEX_FILE',
  'GIT_COMMON_DIR',
  'GIT_OBJECT_DIRECTORY',
  'GIT_ALTERNATE_OBJECT_DIRECTORIES',
  'GIT_NAMESPACE',
  'GIT_PREFIX',
  'GIT_CEILING_DIRECTORIES',
];

export function gitEnvironment(base: Readonly<Record<string, string | undefined>>): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(base))
    if (value !== undefined && !LOCATION_VARIABLES.includes(key)) env[key] = value;
  env['LC_ALL'] = 'C';
  env['GIT_TERMINAL_PROMPT'] = '0';
  env['GIT_OPTIONAL_LOCKS'] = '0';
  env['GIT_PAGER'] = 'cat';
  return env;
}

// node:child_process (with net, dgram and streams behind it) loads on the first git call, not with every
// module that might make one: a call answered from files alone — a warm `coupling --json` — never pays for it.
let spawner: typeof Spawn | undefined;

export async function git(args: readonly string[], options: GitOptions): Promise<GitResult> {
  // No program can receive a NUL byte in an argument (spawn throws before git runs). A ref or path from the
  // caller that holds one names nothing, so it fails the way git fails on a name it cannot resolve, and each
  // caller's handling of a failed git call answers it (docs/decisions/0035-hostile-input-over-mcp.md).
  if (args.some((a) => a.includes('\0')))
    return { code: 128, stdout: '', stderr: 'fatal: an argument holds a NUL byte, which no git name can contain\n' };
  spawner ??= (await import('node:child_process')).spawn;
  const spawn = spawner;
  return new Promise((resolve, reject) => {
    const child = spawn('git', [...args], {
      cwd: options.cwd,
      env: gitEnvironment(options.env ?? process.env),
      stdio: [options.input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
      ...(options.signal ? { signal: options.signal } : {}),
    });
    trackChild(child);
    if (options.input !== undefined && child.stdin) {
      // git may exit before reading it all (a failure): its answer is the exit code, not the broken pipe.
      child.stdin.on('error', () => undefined);
      child.stdin.end(options.input);
    }
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout?.on('data', (chunk: Buffer) => out.push(chunk));
    child.stderr?.on('data', (chunk: Buffer) => err.push(chunk));
    child.once('error', (error: NodeJS.ErrnoException) => {
      // spawn reports a missing cwd as ENOENT for the program too; tell the two apart.
      if (error.code === 'ENOENT' && !existsSync(options.cwd))
        reject(new Error(`cannot run git in ${options.cwd}: the directory does not exist`));
      else if (error.code === 'ENOENT') reject(new GitUnavailable('not found on PATH'));
      else reject(error);
    });
    child.once('close', (code) => {
      const bytes = Buffer.concat(out);
      resolve({
        code: code ?? 128,
        stdout: bytes.toString('utf8'),
        stderr: Buffer.concat(err).toString('utf8'),
        ...(options.bytes ? { stdoutBytes: bytes } : {}),
      });
    });
  });
}

/** The first line git wrote to stderr, without its "fatal: " prefix, for messages. */
export function gitComplaint(result: GitResult): string {
  const line = result.stderr.split('\n').find((l) => l.trim().length > 0) ?? `git exited with ${result.code}`;
  return line.replace(/^(fatal|error): /, '').trim();
}
