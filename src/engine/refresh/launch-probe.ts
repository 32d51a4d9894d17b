// Starts the command the agents' files run, as an agent would (`<launch> mcp` in the project root), and times
// it to the MCP server's answer to `initialize`. refresh uses the time for Codex's startup_timeout_sec and
// doctor uses the answer to say whether the wiring resolves on this machine. Nothing but `initialize` is sent,
// so the server reads nothing of the project; closing its stdin ends it, and its process group (a wrapper's
// children too: npx, a shell script) is killed once the leader has exited, or after 2 s if it has not.
import { spawn } from 'node:child_process';
import { trackChild } from '../process/children.js';
import { launchLine, type Launch } from './launch.js';

export type LaunchProbe = { ok: true; ms: number; command: string } | { ok: false; command: string; reason: string };

const INITIALIZE = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'discern-probe', version: '1' } },
};

/** The most a probe waits: an npx that resolves nothing, or a server that never answers, is a failure. */
export const PROBE_LIMIT_MS = 20_000;

export async function probeLaunch(
  root: string,
  launch: Launch,
  env: Readonly<Record<string, string | undefined>> = process.env,
  limitMs = PROBE_LIMIT_MS,
): Promise<LaunchProbe> {
  const command = `${launchLine(launch)} mcp`;
  const started = performance.now();
  return await new Promise<LaunchProbe>((resolve) => {
    let settled = false;
    let stderr = '';
    let stdout = '';
    const child = spawn(launch.command, [...launch.args, 'mcp'], {
      cwd: root,
      env: env as NodeJS.ProcessEnv,
      stdio: ['pipe', 'pipe', 'pipe'],
      detached: true,
    });
    trackChild(child, true);
    const killGroup = (): void => {
      try {
        if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
      } catch {
        // The whole group is gone.
      }
    };
    const stop = (): void => {
      child.stdin.end();
      // A server ends on EOF. Whatever is left of its group when the leader exits (a wrapper's child) goes
      // then; a leader that does not exit goes with its group after 2 s.
      if (child.exitCode !== null || child.signalCode !== null) killGroup();
      else child.once('exit', killGroup);
      setTimeout(killGroup, 2_000).unref();
    };
    const finish = (probe: LaunchProbe): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      stop();
      resolve(probe);
    };
    const timer = setTimeout(
      () => finish({ ok: false, command, reason: `it did not answer initialize within ${limitMs / 1000} s` }),
      limitMs,
    );
    child.on('error', (error: NodeJS.ErrnoException) =>
      finish({
        ok: false,
        command,
        reason: error.code === 'ENOENT' ? `\`${launch.command}\` is not on the PATH` : error.message,
      }),
    );
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      stdout += chunk;
      for (const line of stdout.split('\n').slice(0, -1)) {
        if (!/"id"\s*:\s*1\b/.test(line)) continue;
        if (line.includes('"result"')) finish({ ok: true, ms: Math.round(performance.now() - started), command });
        else if (line.includes('"error"'))
          finish({ ok: false, command, reason: `it answered initialize with an error: ${line.slice(0, 300)}` });
      }
      stdout = stdout.slice(stdout.lastIndexOf('\n') + 1);
    });
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk: string) => {
      if (stderr.length < 4096) stderr += chunk;
    });
    child.on('exit', (code, signal) => {
      const said = stderr.trim().split('\n').slice(-2).join(' ').slice(0, 300);
      finish({
        ok: false,
        command,
        reason: `it exited (${signal ?? `status ${code ?? '?'}`}) before answering initialize${said ? `: ${said}` : ''}`,
      });
    });
    child.stdin.on('error', () => undefined);
    child.stdin.write(`${JSON.stringify(INITIALIZE)}\n`);
  });
}

/** What to do when the wired command does not start, by where the command comes from. */
export function launchFix(launch: Launch): string {
  if (launch.source === 'project')
    return "run the project's install (`npm install`, or `pnpm install`) so node_modules/.bin/discern exists";
  if (launch.source === 'configured')
    return 'check `[project] command` in discern.toml: it must start discern from the project root on every machine';
  return "install discern-cli so `discern` is on the PATH (`npm install -g discern-cli`), or add discern-cli to the project's devDependencies and run `discern refresh`";
}

/** The sentence a failed probe becomes in refresh's hints and doctor's check. */
export function launchProblem(probe: Extract<LaunchProbe, { ok: false }>, launch: Launch): string {
  return `The agents' files run \`${probe.command}\`, which does not start from the project root here: ${probe.reason}. To fix it, ${launchFix(launch)}.`;
}
