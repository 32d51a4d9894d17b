// One streaming pass over `git log --no-merges --name-only -z`: the output is parsed as it arrives and each
// commit goes straight into the history builder, so memory holds the compact history, never git's text.
//
// --no-renames: a rename lists both the old and the new path, instead of paying for rename detection on every
// commit (the old path no longer exists, so it is never reported as a partner). GIT_NO_LAZY_FETCH keeps a
// partial clone from fetching missing trees over the network; such a history fails instead, and says so.
// GIT_FLUSH=0: into a pipe git would otherwise flush after every commit, and 10,000 small writes each waking
// this process made the same git log take 1.8× as long as into a file.
import { spawn } from 'node:child_process';
import { gitEnvironment, GitUnavailable } from '../git/git.js';
import { trackChild } from '../process/children.js';
import { HistoryBuilder } from './history.js';
import { LogParser } from './log-parser.js';

export const LOG_ARGS = ['log', '--no-merges', '--no-renames', '--name-only', '-z', '--format=%x00%H %cI %s'] as const;

export type LogRead = { ok: true } | { ok: false; message: string };

export function readLogInto(
  builder: HistoryBuilder,
  range: string,
  run: { cwd: string; env: Readonly<Record<string, string | undefined>>; signal?: AbortSignal },
): Promise<LogRead> {
  return new Promise((resolve, reject) => {
    const env = { ...gitEnvironment(run.env), GIT_NO_LAZY_FETCH: '1', GIT_FLUSH: '0' };
    // -c settings of the user's that would change the listing (a diff.external, colour) are turned off by the
    // flags themselves: --format and --name-only print no diff, and -z never quotes paths.
    const child = spawn('git', ['-c', 'log.showSignature=false', ...LOG_ARGS, range, '--'], {
      cwd: run.cwd,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
      ...(run.signal ? { signal: run.signal } : {}),
    });
    trackChild(child);
    const parser = new LogParser((c) => builder.add(c.sha, c.date, c.subject, c.files));
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => parser.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => {
      if (stderr.length < 4096) stderr += chunk.toString('utf8');
    });
    child.once('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') reject(new GitUnavailable('not found on PATH'));
      else reject(error);
    });
    child.once('close', (code) => {
      if (code !== 0) {
        const line = stderr.split('\n').find((l) => l.trim().length > 0) ?? `git log exited with ${code ?? 'a signal'}`;
        resolve({ ok: false, message: line.replace(/^(fatal|error): /, '').trim() });
        return;
      }
      parser.end();
      resolve({ ok: true });
    });
  });
}
