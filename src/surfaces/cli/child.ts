// Hands the terminal over to a child process: `discern queue -- <command>` and a bare `discern scripts <name>`.
// The child runs directly (no shell) with this process's stdio and environment, gets every signal discern gets,
// as it is, and decides for itself what to do; discern waits for it however long it takes and exits with its
// status — 128 + n when signal n ended it, 127 when the program is not found, 126 when it cannot be started.
import { spawn } from 'node:child_process';
import { constants } from 'node:os';

export const FORWARDED = ['SIGINT', 'SIGTERM', 'SIGHUP', 'SIGQUIT', 'SIGUSR1', 'SIGUSR2'] as const;

/** `label` prefixes discern's own line on stderr when the program cannot start (`discern queue`). */
export function runInherited(program: string, args: readonly string[], cwd: string, label: string): Promise<number> {
  return new Promise((resolve) => {
    const child = spawn(program, args, { cwd, stdio: 'inherit', env: process.env });
    const forward = (signal: NodeJS.Signals): void => {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    };
    const handlers = FORWARDED.map((signal) => [signal, () => forward(signal)] as const);
    for (const [signal, handler] of handlers) process.on(signal, handler);
    child.once('error', (error: NodeJS.ErrnoException) => {
      for (const [s, handler] of handlers) process.removeListener(s, handler);
      process.stderr.write(`${label}: ${program}: ${error.code === 'ENOENT' ? 'command not found' : error.message}\n`);
      resolve(error.code === 'ENOENT' ? 127 : 126);
    });
    child.once('exit', (code, signal) => {
      for (const [s, handler] of handlers) process.removeListener(s, handler);
      resolve(code ?? 128 + (signal ? (constants.signals[signal] ?? 0) : 0));
    });
  });
}
