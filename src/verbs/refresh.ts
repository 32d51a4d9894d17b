// refresh: plan every file discern owns a part of for the project's agents (engine/refresh/plan.ts), refuse
// when a file cannot be read or parsed or a target cannot be written (nothing written), return the plan under
// dry_run, else write the changed files (engine/refresh/apply.ts). A second run finds everything current and
// writes nothing.
import type { RefreshOutcome } from '../../generated/handlers.js';
import { VERBS } from '../../generated/registry.js';
import type { DiscernPlan, DiscernRefreshData, DiscernRefreshInput, DiscernStep } from '../../generated/types.js';
import { AGENTS } from '../engine/refresh/agents.js';
import {
  applyRefresh,
  planRefresh,
  probeTargets,
  type RefreshPlan,
  type RefreshProblem,
  type RefreshTarget,
} from '../engine/refresh/index.js';
import type { ProjectVerbContext } from './context.js';

const HINTS = VERBS.refresh.hints;
export const RETRY = 'discern refresh';

export async function refresh(input: DiscernRefreshInput, ctx: ProjectVerbContext): Promise<RefreshOutcome> {
  const plan = await planRefresh(ctx.project, { env: ctx.env });
  const dry = input.dry_run === true;
  const preview = dry ? { dry_run: true as const, plan: planOf(plan) } : {};
  const [problem] = plan.errors;
  if (problem)
    return {
      ...preview,
      data: refreshData(plan, dry ? plan.targets : []),
      refusal: refusalFor(problem, plan.errors.length),
    };
  const probe = await probeTargets(plan);
  if (!probe.ok) {
    return {
      ...preview,
      data: refreshData(plan, dry ? plan.targets : []),
      refusal: {
        error: 'write_denied',
        message: `${probe.reason}; nothing was written.`,
        next: { target: probe.path, access: 'writable' },
      },
    };
  }
  if (dry)
    return {
      dry_run: true,
      plan: planOf(plan),
      data: refreshData(plan, plan.targets),
      hints: [...plan.hints, plan.targets.length === 0 ? HINTS.current : HINTS.planned],
    };

  const applied = await applyRefresh(plan, { env: ctx.env, commonDir: ctx.project.commonDir });
  if (!applied.ok && applied.reason === 'write_denied') {
    return {
      data: refreshData(plan, []),
      refusal: { error: 'write_denied', message: applied.message, next: { target: applied.path, access: 'writable' } },
    };
  }
  if (!applied.ok) {
    const steps: DiscernStep[] = [
      ...applied.written.map((t) => step(t, 'ok')),
      step(applied.failed, 'failed'),
      ...applied.remaining.map((t) => step(t, 'skipped')),
    ];
    const data = {
      ...refreshData(plan, applied.written),
      completed: applied.written.map((t) => t.path),
      recovery: { command: RETRY, safe_to_retry: true },
    };
    const done =
      applied.written.length === 0
        ? 'nothing was written before it'
        : `${applied.written.length} of ${plan.targets.length} files were written before it (data.completed)`;
    return {
      steps,
      data,
      refusal: {
        error: 'partial_refresh',
        message: `refresh stopped at ${applied.failed.path}: ${applied.message}; ${done}.`,
        next: { recovery: `run \`${RETRY}\` again: it is safe to retry and writes only what is still out of date` },
      },
    };
  }
  const wiredServer = applied.written.some((t) => t.kind === 'mcp' && !t.removes);
  const hints = [
    ...plan.hints,
    ...(wiredServer ? [HINTS.on_path] : []),
    applied.written.length === 0 ? HINTS.current : HINTS.written,
  ];
  return {
    steps: applied.written.map((t) => step(t, 'ok')),
    data: refreshData(plan, applied.written),
    held: ['refresh-artifacts'],
    hints,
  };
}

function step(target: RefreshTarget, outcome: DiscernStep['outcome']): DiscernStep {
  return { kind: 'refresh', label: target.label, disposition: 'run', outcome, note: `${target.action} ${target.path}` };
}

function planOf(plan: RefreshPlan): DiscernPlan {
  const count = plan.targets.length;
  return {
    title:
      count === 0
        ? 'everything discern writes for the agents is current'
        : `refresh would change ${count} file${count === 1 ? '' : 's'}`,
    details: [
      `Agents: ${plan.agents.map((id) => AGENTS[id].name).join(', ') || 'none'}.`,
      ...(plan.sources.length > 0 ? [`Instruction sources: ${plan.sources.join(', ')}.`] : []),
      ...plan.skipped.map((s) => `Left alone: ${s.path} — ${s.reason}.`),
    ],
    steps: plan.targets.map((t) => ({
      kind: 'refresh',
      label: t.label,
      disposition: 'run' as const,
      note: `${t.action} ${t.path}`,
    })),
  };
}

/** The result's data: the plan's facts, with the lists of what was written drawn from `written`. */
export function refreshData(plan: RefreshPlan, written: readonly RefreshTarget[]): DiscernRefreshData {
  const kept = (kind: RefreshTarget['kind']): string[] =>
    written.filter((t) => t.kind === kind && !t.removes).map((t) => t.path);
  return {
    agents: plan.agents,
    changes: plan.targets.map((t) => ({
      path: t.path,
      ...(t.also ? { also: t.also } : {}),
      kind: t.kind,
      action: t.action,
      agents: t.agents,
    })),
    agents_written: kept('instructions'),
    mcp_wired: kept('mcp'),
    hooks_wired: kept('hooks'),
    adr_index_written: kept('adr-index'),
    skills: {
      copied: kept('skill'),
      linked: plan.skillFolders.flatMap((f) =>
        f.agents.filter((id) => AGENTS[id].skillFolders[0] !== f.folder).map((id) => `${id}: ${f.folder}`),
      ),
      pruned: written.filter((t) => t.kind === 'skill' && t.removes).map((t) => t.path),
    },
    removed: written.filter((t) => t.kind !== 'skill' && t.removes).map((t) => t.path),
    current: plan.current.map((c) => c.path),
    skipped: plan.skipped,
    errors: plan.errors.map((e) => ({ path: e.path, error: e.slug, message: e.message })),
    sources: plan.sources,
  };
}

type RefreshRefusal = NonNullable<RefreshOutcome['refusal']>;

function refusalFor(problem: RefreshProblem, count: number): RefreshRefusal {
  const more = count > 1 ? ` (${count - 1} more in data.errors)` : '';
  const message = `${problem.message}${more} Nothing was written.`;
  switch (problem.slug) {
    case 'invalid_config':
      return { error: 'invalid_config', message, next: { file: 'discern.toml', where: problem.where } };
    case 'invalid_settings_file':
      return { error: 'invalid_settings_file', message, next: { file: problem.path, where: problem.where } };
    case 'write_denied':
      return {
        error: 'write_denied',
        message,
        next: {
          target: problem.path,
          access: 'writable without leaving the project (a link on its way leads outside)',
        },
      };
    case 'read_failed':
      return { error: 'read_failed', message, next: { target: problem.path, access: 'readable' } };
  }
}
