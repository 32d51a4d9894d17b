// A checkpoint's `when` command: the project's own last word on whether a checkpoint fires. It runs through the
// user's shell from the checkout root as the leader of its own process group, with the matched paths on stdin.
// Exit 0 fires, exit 1 passes; anything else (another code, a signal, no exit within the bound, no start at all)
// fails open, and the caller says so. Never rejects, never outlives its bound.
import { spawn } from 'node:child_process';
import type { Readable } from 'node:stream';
import { trackChild } from '../process/children.js';
import { terminateGroup } from '../jobs/process-group.js';
import { jobEnvironment, selectShell } from '../jobs/shell.js';

/** A checkpoint question is asked while done waits: a command that needs longer is treated as broken. */
export const WHEN_TIMEOUT_MS = 120_000;
/** Only DISCERN_MATCH lines are read from stdout; past this much the rest is dropped. */
const STDOUT_LIMIT = 256 * 1024;
/** After the group is gone, a pipe held by something outside it is not waited for longer than this. */
const PIPE_SETTLE_MS = 250;

export interface WhenRequest {
  command: string;
  cwd: string;
  env: Readonly<Record<string, string | undefined>>;
  checkpoint: string;
  revision: string;
  base: string | null;
  matched: readonly string[];
  signal?: AbortSignal;
  timeoutMs?: number;
}

export type WhenOutcome = { kind: 'fires'; named: string[] } | { kind: 'passes' } | { kind: 'failed'; reason: string };

export async function runWhenCommand(request: WhenRequest): Promise<WhenOutcome> {
  const env = {
    ...jobEnvironment(request.env, `checkpoint:${request.checkpoint}`),
    DISCERN_CHECKPOINT: request.checkpoint,
    DISCERN_REVISION: request.revision,
    DISCERN_BASE: request.base ?? '',
  };
  let child;
  try {
    child = spawn(selectShell(request.env), ['-c', request.command], {
      cwd: request.cwd,
      env,
      detached: true,
      stdio: ['pipe', 'pipe', 'ignore'],
    });
  } catch (error) {
    return { kind: 'failed', reason: `its when command could not start: ${messageOf(error)}` };
  }
  const started = new Promise<Error | undefined>((resolve) => {
    child.once('spawn', () => resolve(undefined));
    child.once('error', (error) => resolve(error));
  });
  const startError = await started;
  const pgid = child.pid;
  if (startError !== undefined || pgid === undefined)
    return { kind: 'failed', reason: `its when command could not start: ${messageOf(startError)}` };
  child.on('error', () => undefined);
  trackChild(child, true);

  let out = '';
  child.stdout?.setEncoding('utf8');
  child.stdout?.on('data', (chunk: string) => {
    if (out.length < STDOUT_LIMIT) out += chunk.slice(0, STDOUT_LIMIT - out.length);
  });
  // A command that never reads its stdin must not fail on the write: EPIPE is not its verdict.
  child.stdin?.on('error', () => undefined);
  child.stdin?.end(request.matched.map((p) => `${p}\n`).join(''));

  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  let stopped: 'timeout' | 'cancelled' | undefined;
  const stop = (why: 'timeout' | 'cancelled'): void => {
    if (stopped !== undefined) return;
    stopped = why;
    void terminateGroup(pgid);
  };
  const timer = setTimeout(() => stop('timeout'), request.timeoutMs ?? WHEN_TIMEOUT_MS);
  const onAbort = (): void => stop('cancelled');
  request.signal?.addEventListener('abort', onAbort, { once: true });
  if (request.signal?.aborted === true) onAbort();
  const { code, signal } = await exited;
  clearTimeout(timer);
  request.signal?.removeEventListener('abort', onAbort);
  // What the command left running belongs to it and must not outlive the question.
  await terminateGroup(pgid);
  await settle(child.stdout);

  const seconds = Math.round((request.timeoutMs ?? WHEN_TIMEOUT_MS) / 1000);
  if (stopped === 'timeout') return { kind: 'failed', reason: `its when command did not exit within ${seconds} s` };
  if (stopped === 'cancelled') return { kind: 'failed', reason: 'its when command was cancelled' };
  if (signal !== null) return { kind: 'failed', reason: `its when command was stopped by ${signal}` };
  if (code === 0) return { kind: 'fires', named: matchLines(out) };
  if (code === 1) return { kind: 'passes' };
  return { kind: 'failed', reason: `its when command exited ${code ?? 'without a code'} (0 fires, 1 passes)` };
}

/** The paths of `DISCERN_MATCH <path>` lines, in the order printed, without repeats. */
export function matchLines(stdout: string): string[] {
  const named = new Set<string>();
  for (const line of stdout.split('\n')) {
    const match = /^DISCERN_MATCH (.+?)\r?$/.exec(line);
    if (match?.[1] !== undefined) named.add(match[1]);
  }
  return [...named];
}

function settle(pipe: Readable | null): Promise<void> {
  if (pipe === null || pipe.readableEnded || pipe.destroyed) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      pipe.destroy();
      resolve();
    }, PIPE_SETTLE_MS);
    const done = (): void => {
      clearTimeout(timer);
      resolve();
    };
    pipe.once('end', done);
    pipe.once('close', done);
  });
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
