// refresh: plan every file discern owns a part of for the project's agents (engine/refresh/plan.ts), refuse
// when a file cannot be read or parsed or a target cannot be written (nothing written), return the plan under
// dry_run, else write the changed files (engine/refresh/apply.ts). A second run finds everything current and
// writes nothing. A damaged install whose built-in templates are missing answers templates_not_found.
import type { RefreshOutcome } from '../../generated/handlers.js';
import { VERBS } from '../../generated/registry.js';
import type { DiscernPlan, DiscernRefreshData, DiscernRefreshInput, DiscernStep } from '../../generated/types.js';
import { AGENTS } from '../engine/refresh/agents.js';
import {
  applyRefresh,
  planRefresh,
  probeTargets,
  probeWiredCommand,
  type RefreshPlan,
  type RefreshProblem,
  type RefreshTarget,
} from '../engine/refresh/index.js';
import type { ProjectVerbContext } from './context.js';
import { damagedInstall } from './damaged-install.js';
import { notesPushCommand } from '../engine/git/remotes.js';
import { applyRefspecs, configuredRefspecs, planRefspecs, type RefspecChange } from '../engine/notes/fetched-notes.js';

const HINTS = VERBS.refresh.hints;
export const RETRY = 'discern refresh';

export async function refresh(input: DiscernRefreshInput, ctx: ProjectVerbContext): Promise<RefreshOutcome> {
  // The wired command is started once, so the plan sets Codex's start-up limit from it and says if it fails.
  const { probe: started } = await probeWiredCommand(ctx.project, ctx.env);
  const dry = input.dry_run === true;
  let plan: RefreshPlan;
  let notes: Awaited<ReturnType<typeof planNotesFetch>>;
  try {
    [plan, notes] = await Promise.all([
      planRefresh(ctx.project, { env: ctx.env, ...(started ? { probe: started } : {}) }),
      planNotesFetch(ctx.project, { cwd: ctx.project.root, env: ctx.env }),
    ]);
  } catch (error) {
    const damaged = damagedInstall(error, ctx, dry ? `${RETRY} --dry-run` : RETRY, 'discern_refresh');
    if (damaged === undefined) throw error;
    return { refusal: { error: 'templates_not_found', ...damaged } };
  }
  const preview = dry ? { dry_run: true as const, plan: planOf(plan, notes) } : {};
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
      plan: planOf(plan, notes),
      data: { ...refreshData(plan, plan.targets), ...notesData(notes, notes?.changes ?? []) },
      hints: [
        ...plan.hints,
        plan.targets.length === 0 && (notes?.changes.length ?? 0) === 0 ? HINTS.current : HINTS.planned,
      ],
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
  // The files are written; the notes refspecs follow (git's config, not a file discern writes a part of).
  const refspecs = notes ? await applyRefspecs(notes.changes, { cwd: ctx.project.root, env: ctx.env }) : undefined;
  const notesSteps = [
    ...(refspecs?.done ?? []).map((c) => refspecStep(c, 'ok')),
    ...(refspecs?.failed ? [refspecStep(refspecs.failed.change, 'failed')] : []),
  ];
  if (refspecs?.failed) {
    return {
      steps: [...applied.written.map((t) => step(t, 'ok')), ...notesSteps],
      data: {
        ...refreshData(plan, applied.written),
        ...notesData(notes, refspecs.done),
        completed: applied.written.map((t) => t.path),
        recovery: { command: RETRY, safe_to_retry: true },
      },
      refusal: {
        error: 'partial_refresh',
        message: `refresh wrote every file, then could not ${refspecs.failed.change.action} the notes refspec ${refspecs.failed.change.refspec} of remote ${refspecs.failed.change.remote}: ${refspecs.failed.reason}.`,
        next: { recovery: `run \`${RETRY}\` again: it is safe to retry and changes only what is still out of date` },
      },
    };
  }
  const wiredServer = applied.written.some((t) => t.kind === 'mcp' && !t.removes);
  const addedFetch = (refspecs?.done ?? []).some((c) => c.action === 'add');
  const hints = [
    ...plan.hints,
    ...(wiredServer ? [HINTS.restart] : []),
    ...(addedFetch && notes?.push ? [HINTS.notes_fetch.replace('{push}', notes.push)] : []),
    applied.written.length === 0 && notesSteps.length === 0 ? HINTS.current : HINTS.written,
  ];
  return {
    steps: [...applied.written.map((t) => step(t, 'ok')), ...notesSteps],
    data: { ...refreshData(plan, applied.written), ...notesData(notes, refspecs?.done ?? []) },
    held: ['refresh-artifacts'],
    hints,
  };
}

interface NotesFetchPlan {
  mode: 'local' | 'fetch';
  changes: RefspecChange[];
  push?: string;
}

/** What the notes refspecs should become ([repository] proof_notes); undefined when there is no remote. */
async function planNotesFetch(
  project: ProjectVerbContext['project'],
  run: { cwd: string; env: ProjectVerbContext['env'] },
): Promise<NotesFetchPlan | undefined> {
  const mode = project.config.repository?.proof_notes ?? 'local';
  const { remotes, configured } = await configuredRefspecs(project.commonDir, run);
  if (remotes.length === 0) return undefined;
  const first = remotes[0] as string;
  return {
    mode,
    changes: planRefspecs(mode, remotes, configured),
    push: notesPushCommand(first, project.trunk.name),
  };
}

function notesData(
  notes: NotesFetchPlan | undefined,
  changes: readonly RefspecChange[],
): Pick<DiscernRefreshData, 'notes_fetch'> {
  if (notes === undefined) return {};
  return {
    notes_fetch: {
      mode: notes.mode,
      changes: changes.map((c) => ({ remote: c.remote, refspec: c.refspec, action: c.action })),
      ...(notes.push ? { push: notes.push } : {}),
    },
  };
}

function refspecStep(change: RefspecChange, outcome: DiscernStep['outcome']): DiscernStep {
  return {
    kind: 'git',
    label: `${change.action === 'add' ? 'fetch' : 'stop fetching'} the notes of remote ${change.remote}`,
    disposition: 'run',
    outcome,
    note: `${change.action} remote.${change.remote}.fetch ${change.refspec}`,
  };
}

function step(target: RefreshTarget, outcome: DiscernStep['outcome']): DiscernStep {
  return { kind: 'refresh', label: target.label, disposition: 'run', outcome, note: `${target.action} ${target.path}` };
}

function planOf(plan: RefreshPlan, notes: NotesFetchPlan | undefined): DiscernPlan {
  const count = plan.targets.length;
  const refspecs = notes?.changes ?? [];
  return {
    title:
      count === 0 && refspecs.length === 0
        ? 'everything discern writes for the agents is current'
        : `refresh would change ${count} file${count === 1 ? '' : 's'}${refspecs.length > 0 ? ` and ${refspecs.length} notes refspec${refspecs.length === 1 ? '' : 's'}` : ''}`,
    details: [
      `Agents: ${plan.agents.map((id) => AGENTS[id].name).join(', ') || 'none'}.`,
      ...(plan.sources.length > 0 ? [`Instruction sources: ${plan.sources.join(', ')}.`] : []),
      ...plan.skipped.map((s) => `Left alone: ${s.path} — ${s.reason}.`),
    ],
    steps: [
      ...plan.targets.map((t) => ({
        kind: 'refresh' as const,
        label: t.label,
        disposition: 'run' as const,
        note: `${t.action} ${t.path}`,
      })),
      ...refspecs.map((c) => {
        const { outcome: _planned, ...planned } = refspecStep(c, 'ok');
        return planned;
      }),
    ],
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
