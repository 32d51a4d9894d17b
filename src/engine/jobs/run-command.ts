// Runs one configured command of a job: `<shell> -c <command>` as the leader of a new process group, its output
// streamed into the job's capture, stopped as a whole group on timeout or abort, and never outlived by what it
// started. Resolves once the leader has exited, its group is empty and its pipes are settled; never rejects.
import { spawn, type ChildProcess } from 'node:child_process';
import { statSync } from 'node:fs';
import type { Readable } from 'node:stream';
import { trackChild } from '../process/children.js';
import type { OutputCapture } from './output-capture.js';
import { terminateGroup } from './process-group.js';

export interface CommandSpec {
  command: string;
  shell: string;
  cwd: string;
  env: Record<string, string>;
  /** 0: no timeout. */
  timeoutS: number;
  signal?: AbortSignal | undefined;
  capture: OutputCapture;
  onProcessGroup?: ((event: 'start' | 'end', pgid: number) => void) | undefined;
}

export type CommandOutcome =
  | { kind: 'exit'; code: number }
  | { kind: 'signal'; signal: string }
  | { kind: 'timeout' }
  | { kind: 'cancelled' }
  | { kind: 'spawn'; message: string };

/**
 * After the leader exits its pipes normally reach EOF at once. They stay open when something outside the group
 * (a `setsid` daemon) inherited them: once no data has arrived for this long, discern stops listening rather
 * than wait for a process it does not own.
 */
const PIPE_IDLE_MS = 250;
/** Bounds the wait even for an outsider that keeps writing. */
const PIPE_MAX_MS = 5000;
/** setTimeout overflows above 2^31-1 ms (about 24.8 days) and would fire at once. */
const MAX_TIMER_MS = 2 ** 31 - 1;

export async function runCommand(spec: CommandSpec): Promise<CommandOutcome> {
  let child: ChildProcess;
  try {
    child = spawn(spec.shell, ['-c', spec.command], {
      cwd: spec.cwd,
      env: spec.env,
      // Its own process group, so a signal to -pgid reaches everything the command starts.
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
  } catch (error) {
    // Synchronous failures: invalid arguments such as a NUL byte in the command or the environment.
    return { kind: 'spawn', message: describeSpawnError(error, spec) };
  }
  const spawnFailed = new Promise<unknown>((resolve) => child.once('error', resolve));
  const pgid = child.pid;
  if (pgid === undefined) return { kind: 'spawn', message: describeSpawnError(await spawnFailed, spec) };
  // After a successful spawn 'error' only reports failed kill()/send() calls, which this module does not make.
  child.on('error', () => undefined);

  trackChild(child, true);
  notifyGroup(spec, 'start', pgid);
  const pipes = [child.stdout, child.stderr].filter((pipe): pipe is Readable => pipe !== null);
  if (child.stdout !== null) spec.capture.attach(child.stdout, 'stdout');
  if (child.stderr !== null) spec.capture.attach(child.stderr, 'stderr');

  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  let stopReason: 'timeout' | 'cancelled' | undefined;
  let stopping: Promise<unknown> = Promise.resolve();
  const stop = (reason: 'timeout' | 'cancelled'): void => {
    if (stopReason !== undefined) return;
    stopReason = reason;
    stopping = terminateGroup(pgid);
  };
  const timer =
    spec.timeoutS > 0 ? setTimeout(() => stop('timeout'), Math.min(spec.timeoutS * 1000, MAX_TIMER_MS)) : undefined;
  const onAbort = (): void => stop('cancelled');
  spec.signal?.addEventListener('abort', onAbort, { once: true });
  if (spec.signal?.aborted === true) onAbort();

  const { code, signal } = await exited;
  if (timer !== undefined) clearTimeout(timer);
  spec.signal?.removeEventListener('abort', onAbort);
  await stopping;
  // The leader is gone but members of its group may remain (`server &` never waited for): they belong to this
  // command and must not outlive it, hold its pipes open, or keep running into the next job.
  if (stopReason === undefined) await terminateGroup(pgid);
  await settlePipes(pipes, spec.capture);
  for (const pipe of pipes) spec.capture.detach(pipe);
  notifyGroup(spec, 'end', pgid);

  if (stopReason !== undefined) return { kind: stopReason };
  if (signal !== null) return { kind: 'signal', signal };
  return { kind: 'exit', code: code ?? 0 };
}

/**
 * Waits for the pipes to reach EOF, the normal case right after the group is gone. A pipe held by a process
 * outside the group is destroyed after PIPE_IDLE_MS without data. Time spent paused because the output file is
 * behind does not count as idle: that data is still owed to the file.
 */
function settlePipes(pipes: Readable[], capture: OutputCapture): Promise<void> {
  const open = new Set(pipes.filter((pipe) => !pipe.readableEnded && !pipe.destroyed));
  if (open.size === 0) return Promise.resolve();
  return new Promise((resolve) => {
    const started = Date.now();
    let lastActivity = started;
    const onData = (): void => {
      lastActivity = Date.now();
    };
    const cleanups: (() => void)[] = [];
    const finish = (): void => {
      clearInterval(tick);
      for (const cleanup of cleanups) cleanup();
      resolve();
    };
    for (const pipe of open) {
      const onEnd = (): void => {
        open.delete(pipe);
        if (open.size === 0) finish();
      };
      pipe.on('data', onData);
      pipe.once('end', onEnd);
      pipe.once('close', onEnd);
      cleanups.push(() => {
        pipe.off('data', onData);
        pipe.off('end', onEnd);
        pipe.off('close', onEnd);
      });
    }
    const tick = setInterval(() => {
      const now = Date.now();
      if (capture.isSaturated) lastActivity = now;
      if (now - lastActivity >= PIPE_IDLE_MS || now - started >= PIPE_MAX_MS) {
        for (const pipe of open) pipe.destroy();
        finish();
      }
    }, 50);
  });
}

function notifyGroup(spec: CommandSpec, event: 'start' | 'end', pgid: number): void {
  try {
    spec.onProcessGroup?.(event, pgid);
  } catch {
    // A journaling failure must not leave the group unmanaged; the runner still kills and reaps it.
  }
}

/** ENOENT from spawn names the program even when the missing thing is the working directory: say which. */
function describeSpawnError(error: unknown, spec: CommandSpec): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  const message = error instanceof Error ? error.message : String(error);
  if (code === 'ENOENT' || code === 'ENOTDIR') {
    if (!isDirectory(spec.cwd)) return `working directory ${spec.cwd} does not exist or is not a directory`;
    if (!exists(spec.shell)) return `shell ${spec.shell} not found`;
  }
  if (code === 'EACCES') return `could not start ${spec.shell} in ${spec.cwd}: permission denied`;
  return `could not start ${spec.shell}: ${message}`;
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

function exists(path: string): boolean {
  try {
    statSync(path);
    return true;
  } catch {
    return false;
  }
}
