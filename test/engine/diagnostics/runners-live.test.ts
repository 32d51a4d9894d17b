// The runners and linters of runner-cases.ts run for real on their failing projects (a scratch copy each): the
// diagnostics read from the job's output file must be the table's, and each narrowed reproduce command must fail
// again while running only its own test or file. The JavaScript tools come from the live-tools cache
// (tools/live-tools.ts, which .ci/run runs); Python, Go and Rust tools from the machine. A tool that is missing
// fails the test under CI=true and skips it, saying so, elsewhere.
import { describe, it, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { diagnoseOutput } from '../../../src/engine/diagnostics/index.js';
import { liveToolsModules } from '../../helpers/live-tools.js';
import { copyProject, runInProject, runnerEnv } from '../../helpers/runner-projects.js';
import { assertDiagnostics } from './runner-check.js';
import { RUNNER_CASES, type RunnerCase } from './runner-cases.js';

const NPM_TOOLS = new Set(['jest', 'vitest', 'mocha', 'ava', 'tap', 'eslint', 'biome', 'xo', 'tsd']);
// Reruns per case: enough to cover each test file and kind of failure, bounded for CI time.
const MAX_RERUNS = 3;

function missing(runnerCase: RunnerCase, env: NodeJS.ProcessEnv): string | undefined {
  if (NPM_TOOLS.has(runnerCase.tool) && liveToolsModules() === undefined)
    return `${runnerCase.tool} is not installed: run \`npx tsx tools/live-tools.ts\` (.ci/run does)`;
  const found = spawnSync('sh', ['-c', `command -v ${runnerCase.tool}`], { env, encoding: 'utf8' });
  return found.status === 0 ? undefined : `${runnerCase.tool} is not installed (not on PATH)`;
}

function skipOrFail(t: TestContext, why: string): void {
  if (process.env['CI'] === 'true') assert.fail(`${why}; CI must run every live runner`);
  t.skip(why);
}

describe('runners and linters, run live', () => {
  for (const runnerCase of RUNNER_CASES.filter((c) => c.live && c.node === undefined)) {
    it(runnerCase.id, async (t) => {
      const env = runnerEnv(runnerCase.env);
      const why = missing(runnerCase, env);
      if (why !== undefined) return skipOrFail(t, why);
      const cwd = copyProject(runnerCase.project);
      t.after(() => rmSync(cwd, { recursive: true, force: true }));
      const run = runInProject(cwd, runnerCase.command, env);
      assert.notEqual(run.status, 0, `the project fails under ${runnerCase.command}:\n${run.output}`);
      const outputPath = join(cwd, '.job-output.log');
      writeFileSync(outputPath, run.output);
      const job = { tool: runnerCase.id, reproduce_cmd: runnerCase.command, output_path: outputPath, cwd };
      const diagnosis = await diagnoseOutput(job);
      assertDiagnostics(diagnosis.diagnostics, runnerCase, false, cwd);

      const narrowed = [...new Map(diagnosis.diagnostics.map((d) => [d.reproduce_cmd, d])).values()].filter(
        (d) => d.reproduce_cmd !== runnerCase.command,
      );
      for (const target of narrowed.slice(0, MAX_RERUNS)) {
        const rerun = runInProject(cwd, target.reproduce_cmd, env);
        assert.notEqual(rerun.status, 0, `\`${target.reproduce_cmd}\` fails again:\n${rerun.output}`);
        writeFileSync(outputPath, rerun.output);
        const again = await diagnoseOutput({ ...job, reproduce_cmd: target.reproduce_cmd });
        // Only the one test (a test runner) or the one file (a linter) ran.
        const scope = (d: { rule?: string; file?: string }) =>
          target.rule !== undefined && !isLinter(runnerCase) ? d.rule : d.file;
        assert.deepEqual(
          [...new Set(again.diagnostics.filter((d) => d.severity === 'error').map(scope))],
          [scope(target)],
          `\`${target.reproduce_cmd}\` runs just ${scope(target) ?? '?'}:\n${rerun.output}`,
        );
      }
    });
  }
});

function isLinter(runnerCase: RunnerCase): boolean {
  return [
    'eslint-stylish',
    'eslint-json',
    'biome',
    'xo',
    'tsd',
    'flake8',
    'mypy',
    'clippy',
    'ruff',
    'ruff-concise',
  ].includes(runnerCase.id);
}
