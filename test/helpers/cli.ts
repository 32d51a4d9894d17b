// Runs the built `discern` binary (dist/discern.js) as a child process, the way people and agents do.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { cleanEnv } from './scratch-repo.js';

export const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));
export const DISCERN_BIN = `${REPO_ROOT}dist/discern.js`;

export interface CliRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** `entry` runs another copy of discern (a packed or moved dist/) instead of the repository's own. */
export function runCli(
  args: readonly string[],
  options: { cwd?: string; env?: Record<string, string>; input?: string; entry?: string } = {},
): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [options.entry ?? DISCERN_BIN, ...args], {
      cwd: options.cwd ?? REPO_ROOT,
      env: options.env ?? cleanEnv(),
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString('utf8')));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
    child.once('error', reject);
    child.once('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
    child.stdin.end(options.input ?? '');
  });
}

/** Parses stdout as exactly one JSON document (the --json contract). */
export function onlyJson(run: CliRun): Record<string, unknown> {
  const text = run.stdout.trim();
  if (text.includes('\n')) throw new Error(`expected one line of JSON, got:\n${run.stdout}`);
  return JSON.parse(text) as Record<string, unknown>;
}
