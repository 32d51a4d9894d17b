// test: the test stage on demand (test, smoke and custom test jobs, in parallel) on the working tree as it is,
// with a progress handle, holding a repository-wide test slot when [gate] concurrent_test_runs caps them.
import type { TestOutcome } from '../../generated/handlers.js';
import type { DiscernTestInput } from '../../generated/types.js';
import type { ProjectVerbContext } from './context.js';
import { configRefusalMessage, runStages } from './gate-verb.js';

export async function test(_input: DiscernTestInput, ctx: ProjectVerbContext): Promise<TestOutcome> {
  const rerun = ctx.surface === 'mcp' ? 'discern_test' : 'discern test';
  return runStages('test', ctx, { journal: true }, (run): TestOutcome => {
    if (run.kind === 'config') {
      const [first] = run.issues;
      return {
        data: { issues: run.issues },
        refusal: {
          error: 'invalid_config',
          message: configRefusalMessage(run.issues),
          next: { file: 'discern.toml', where: `key \`${first.path}\`` },
        },
      };
    }
    if (run.kind === 'write_denied') {
      return {
        steps: run.steps,
        diagnostics: run.diagnostics,
        refusal: { error: 'write_denied', message: run.message, next: { target: run.target, access: 'writable' } },
      };
    }
    const data = { failed_stage: run.failedStage, ...(run.handle ? { handle: run.handle } : {}) };
    const facts = {
      steps: run.steps,
      ...(run.diagnostics.length > 0 ? { diagnostics: run.diagnostics } : {}),
      ...(run.waitedMs > 0 ? { waited_ms: run.waitedMs } : {}),
      ...(run.capUnavailable !== undefined
        ? {
            advisories: [
              {
                kind: 'execution-cap-unavailable' as const,
                evidence: [run.capUnavailable] as [string],
                next_action: 'Make the test-slot directory writable, or set [gate] concurrent_test_runs = 0.',
              },
            ],
          }
        : {}),
    };
    if (run.cancelled) {
      return {
        ...facts,
        data,
        refusal: {
          error: 'apply_failed',
          message: 'The run was cancelled: its jobs were stopped.',
          next: { recovery: `run ${rerun} again when you want the verdict` },
        },
      };
    }
    if (run.failedStage !== null) {
      const what =
        run.failedStage === 'tree_drift'
          ? 'The test stage changed files that were clean before it'
          : 'The tests failed';
      return {
        ...facts,
        data,
        refusal: {
          error: 'gate_failed',
          message: `${what}${run.firstMessage ? `: ${run.firstMessage}` : '.'}`,
          next: { rerun },
        },
      };
    }
    return {
      ...facts,
      data,
      ...(run.nothingConfigured
        ? { hints: ['No test jobs are configured: add test or smoke under [jobs] in discern.toml.'] }
        : {}),
    };
  });
}
