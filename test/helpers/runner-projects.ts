// Runs a real test runner or linter over one of the small failing projects in test/fixtures/diagnostics/projects,
// in a scratch copy (tools write caches, lockfiles and build output beside the sources). The JavaScript tools come
// from the live-tools cache (test/helpers/live-tools.ts) through a node_modules link, as a project's own would.
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, realpathSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { liveToolsModules } from './live-tools.js';

export const PROJECTS = fileURLToPath(new URL('../fixtures/diagnostics/projects/', import.meta.url));

export interface ProjectRun {
  cwd: string;
  output: string;
  status: number | null;
}

/** A scratch copy of a project; its node_modules links to the live tools when they are installed. */
export function copyProject(project: string): string {
  // realpath: macOS and some CI images put tmpdir behind a symlink, and tools print the resolved path.
  const cwd = realpathSync(mkdtempSync(join(tmpdir(), `discern-runner-${project}-`)));
  cpSync(join(PROJECTS, project), cwd, { recursive: true });
  const modules = liveToolsModules();
  if (modules !== undefined) symlinkSync(modules, join(cwd, 'node_modules'), 'dir');
  return cwd;
}

/** The environment a gate job would see, with the live tools' bin on PATH and colour and CI detection left to the tool. */
export function runnerEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  // RUST_BACKTRACE: this image sets it; a case that wants a backtrace says so.
  for (const name of [
    'FORCE_COLOR',
    'NO_COLOR',
    'CI',
    'GITHUB_ACTIONS',
    'NODE_OPTIONS',
    'NODE_TEST_CONTEXT',
    'RUST_BACKTRACE',
  ])
    delete env[name];
  const modules = liveToolsModules();
  if (modules !== undefined) env['PATH'] = `${join(modules, '.bin')}${delimiter}${env['PATH'] ?? ''}`;
  return { ...env, ...extra };
}

/** Runs a shell command with stdout and stderr in one stream, as a gate job's output file holds them. */
export function runInProject(cwd: string, command: string, env: NodeJS.ProcessEnv): ProjectRun {
  const result = spawnSync('sh', ['-c', `${command} 2>&1`], {
    cwd,
    env,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
    timeout: 300_000,
  });
  return { cwd, output: result.stdout ?? '', status: result.status };
}
