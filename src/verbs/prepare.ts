// prepare: the fast inner loop on the working tree as it is — fixers one at a time, then every [generated]
// regeneration, then the checks — without Proof. Fixers and generators may rewrite files; those are listed so
// the caller reviews and commits them. It holds the checkout's operation lock: a done running here is not
// raced.
import { randomBytes } from 'node:crypto';
import type { PrepareOutcome } from '../../generated/handlers.js';
import type { DiscernPrepareInput } from '../../generated/types.js';
import type { ProjectVerbContext } from './context.js';
import { configRefusalMessage, runStages } from './gate-verb.js';
import { readBack } from './done-facts.js';
import { releaseOperationLock, statePathsOf, takeOperationLock } from './gate-session.js';
import { withCouplingHints } from './coupling-hints.js';

const CHANGED_SHOWN = 20;

export async function prepare(_input: DiscernPrepareInput, ctx: ProjectVerbContext): Promise<PrepareOutcome> {
  const rerun = ctx.surface === 'mcp' ? 'discern_prepare' : 'discern prepare';
  const paths = statePathsOf(ctx.project);
  const probe = {
    root: ctx.project.root,
    env: ctx.env,
    signal: ctx.signal,
    base: ctx.project.trunk.name,
    baseRef: `refs/heads/${ctx.project.trunk.name}`,
    mergeCheck: false,
    standards: [],
    stateDir: paths.checkoutDir,
  };
  const lock = await takeOperationLock(
    paths,
    { verb: 'prepare', attempt: `A-${randomBytes(6).toString('hex')}`, checkout: ctx.project.root },
    probe,
  );
  if ('denied' in lock) {
    const f = lock.denied.failure;
    return {
      steps: lock.denied.steps,
      diagnostics: f.diagnostics,
      refusal: {
        error: 'write_denied',
        message: f.message,
        next: { target: f.target ?? paths.checkoutDir, access: 'writable' },
      },
    };
  }
  if ('busy' in lock) {
    const verb = typeof lock.busy?.['verb'] === 'string' ? lock.busy['verb'] : 'run';
    return {
      refusal: {
        error: 'incomplete',
        message: `Another ${verb} is running in this checkout${lock.busy ? ` (pid ${lock.busy.pid})` : ''}; prepare would race it.`,
        next: { wait: `read the running one back with \`${readBack(ctx)}\` and let it finish` },
      },
    };
  }
  try {
    const outcome = await runStages('prepare', ctx, { journal: false }, (run): PrepareOutcome => {
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
      const data = {
        failed_stage: run.failedStage,
        ...(run.changed.length > 0
          ? { changed_by_fix: run.changed.slice(0, CHANGED_SHOWN), changed_by_fix_total: run.changed.length }
          : {}),
      };
      const facts = { steps: run.steps, ...(run.diagnostics.length > 0 ? { diagnostics: run.diagnostics } : {}) };
      const hints =
        run.changed.length > 0
          ? [
              `Fixers and generators changed ${run.changed.length} file${run.changed.length === 1 ? '' : 's'}: review them (\`git diff\`) and commit what belongs.`,
            ]
          : [];
      if (run.cancelled) {
        return {
          ...facts,
          data,
          hints,
          refusal: {
            error: 'apply_failed',
            message: 'The run was cancelled: its jobs were stopped; files the fixers already rewrote stay rewritten.',
            next: { recovery: `run ${rerun} again when you want the verdict` },
          },
        };
      }
      if (run.failedStage !== null) {
        return {
          ...facts,
          data,
          hints,
          refusal: {
            error: 'gate_failed',
            message: `prepare failed at the ${run.failedStage} stage${run.firstMessage ? `: ${run.firstMessage}` : '.'}`,
            next: { rerun },
          },
        };
      }
      return {
        ...facts,
        data,
        hints: [
          ...hints,
          ...(run.nothingConfigured ? ['No fix, generated or check jobs are configured in discern.toml.'] : []),
        ],
      };
    });
    return await withCouplingHints(outcome, ctx);
  } finally {
    releaseOperationLock(lock);
  }
}
