// Re-records the runner fixtures of test/engine/diagnostics/runner-cases.ts: runs each case's command on a scratch
// copy of its project, writes the combined output to test/fixtures/diagnostics/runners/<id>.txt with the scratch
// path written as /repo (and the live tools' node_modules as /repo/node_modules), and the tool's version to
// VERSIONS.md beside them. Cases whose tool is missing keep their old fixture.
//   npx tsx tools/capture-diagnostics.ts [id…] [--node22 <node binary>] [--node24 <node binary>]
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { delimiter, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { RUNNER_CASES, type RunnerCase } from '../test/engine/diagnostics/runner-cases.js';
import { liveToolsModules } from '../test/helpers/live-tools.js';
import { copyProject, runInProject, runnerEnv } from '../test/helpers/runner-projects.js';

const FIXTURES = fileURLToPath(new URL('../test/fixtures/diagnostics/runners/', import.meta.url));
const VERSIONS = join(FIXTURES, 'VERSIONS.md');

const args = process.argv.slice(2);
const nodes: Record<string, string> = {};
const ids: string[] = [];
for (let i = 0; i < args.length; i++) {
  const arg = args[i] ?? '';
  const node = /^--node(22|24)$/.exec(arg);
  if (node !== null) nodes[node[1] ?? ''] = args[++i] ?? '';
  else ids.push(arg);
}

mkdirSync(FIXTURES, { recursive: true });
const versions = readVersions();
for (const runnerCase of RUNNER_CASES) {
  if (ids.length > 0 && !ids.includes(runnerCase.id)) continue;
  const env = caseEnv(runnerCase);
  if (env === undefined) continue;
  const cwd = copyProject(runnerCase.project);
  try {
    const version = runInProject(cwd, runnerCase.version, env).output.trim().split('\n')[0] ?? '';
    const run = runInProject(cwd, runnerCase.command, env);
    writeFileSync(join(FIXTURES, `${runnerCase.id}.txt`), normalise(run.output, cwd));
    versions.set(runnerCase.id, [
      normalise(version, cwd).trim(),
      `\`${envPrefix(runnerCase)}${runnerCase.command}\``,
      String(run.status),
    ]);
    process.stdout.write(`${runnerCase.id}: exit ${String(run.status)}, ${version}\n`);
  } finally {
    rmSync(cwd, { recursive: true, force: true });
  }
}
writeVersions(versions);

function caseEnv(runnerCase: RunnerCase): NodeJS.ProcessEnv | undefined {
  const env = runnerEnv(runnerCase.env);
  if (runnerCase.node !== undefined) {
    const binary = nodes[runnerCase.node];
    if (binary === undefined || !existsSync(binary)) {
      process.stdout.write(`${runnerCase.id}: skipped (pass --node${runnerCase.node} <binary>)\n`);
      return undefined;
    }
    env['PATH'] = `${dirname(binary)}${delimiter}${env['PATH'] ?? ''}`;
  }
  const found = spawnSync('sh', ['-c', `command -v ${runnerCase.tool}`], { env, encoding: 'utf8' });
  if (found.status !== 0) {
    process.stdout.write(`${runnerCase.id}: skipped (${runnerCase.tool} is not installed)\n`);
    return undefined;
  }
  return env;
}

// Thread ids and durations change every run; the path of the scratch copy is replaced by a fixed one.
function normalise(text: string, cwd: string): string {
  let out = text.split(cwd).join('/repo');
  const modules = liveToolsModules();
  if (modules !== undefined) out = out.split(modules).join('/repo/node_modules');
  return out.replace(/(thread '[^']*' )\(\d+\)/g, '$1(4242)');
}

function readVersions(): Map<string, string[]> {
  const rows = new Map<string, string[]>();
  if (!existsSync(VERSIONS)) return rows;
  for (const line of readFileSync(VERSIONS, 'utf8').split('\n')) {
    const cells = line.split(' | ');
    const id = /^\| `([^`]+)\.txt`$/.exec(cells[0] ?? '')?.[1];
    if (id !== undefined)
      rows.set(
        id,
        cells.slice(1, 4).map((cell) => cell.replace(/ \|$/, '')),
      );
  }
  return rows;
}

function writeVersions(rows: Map<string, string[]>): void {
  const lines = [
    '# Runner fixtures',
    '',
    'Written by `npx tsx tools/capture-diagnostics.ts` from the projects in `../projects`, run in a scratch copy whose',
    'path is written `/repo` here (`/repo/node_modules` for the live tools). Combined stdout and stderr, as a gate',
    "job's output file holds them. Read by `test/engine/diagnostics/runners-captured.test.ts`.",
    '',
    '| Fixture | Tool and version | Command | Exit |',
    '|---|---|---|---|',
  ];
  for (const runnerCase of RUNNER_CASES) {
    const row = rows.get(runnerCase.id);
    if (row !== undefined) lines.push(`| \`${runnerCase.id}.txt\` | ${row.join(' | ')} |`);
  }
  writeFileSync(VERSIONS, `${lines.join('\n')}\n`);
}

function envPrefix(runnerCase: RunnerCase): string {
  return Object.entries(runnerCase.env ?? {})
    .map(([name, value]) => `${name}=${value} `)
    .join('');
}
