// test: the test stage on demand (test, smoke and custom test jobs, in parallel) on the working tree as it is,
// with a progress handle, holding a repository-wide test slot when [gate] concurrent_test_runs caps them.
import type { TestOutcome } from '../../generated/handlers.js';
import type { DiscernConfig, DiscernTestInput } from '../../generated/types.js';
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
      ...(run.nothingConfigured ? { hints: [nothingToTest(ctx.project.config)] } : {}),
    };
  });
}

/** Says which test jobs to add, leaving out those [assurance] not_applicable declares do not apply. */
function nothingToTest(config: DiscernConfig): string {
  const declined = new Set(config.assurance?.not_applicable ?? []);
  const wanted = (['test', 'smoke'] as const).filter((name) => !declined.has(name));
  if (wanted.length === 0)
    return 'No test jobs run: [assurance] not_applicable declares that test and smoke do not apply to this project.';
  return `No test jobs are configured: add ${wanted.join(' or ')} under [jobs] in discern.toml, or a custom test-stage job with \`provides = ["${wanted[0] ?? 'test'}"]\`.`;
}
