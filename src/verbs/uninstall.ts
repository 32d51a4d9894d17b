// uninstall: take out every part discern wrote for the agents — instruction regions, `discern` MCP entries and
// the Codex region, the hook, materialised skills, the ADR index region, the .gitattributes region — whatever [project] agents says now,
// leaving every other byte as it was; a file that held only discern's part is removed. A part that cannot be
// read, parsed or written is left where it is and reported (data.left and an uninstall-strip-incomplete
// advisory); the rest is still stripped.
import type { UninstallOutcome } from '../../generated/handlers.js';
import { VERBS } from '../../generated/registry.js';
import type { DiscernStep, DiscernUninstallData, DiscernUninstallInput } from '../../generated/types.js';
import { applyRefresh, planUninstall, type RefreshTarget } from '../engine/refresh/index.js';
import { writeDenied } from '../engine/refresh/files.js';
import type { ProjectVerbContext } from './context.js';

const HINTS = VERBS.uninstall.hints;

export async function uninstall(input: DiscernUninstallInput, ctx: ProjectVerbContext): Promise<UninstallOutcome> {
  const plan = await planUninstall(ctx.project);
  const left = [
    ...plan.errors.map((e) => ({ path: e.path, reason: e.message })),
    ...plan.skipped.map((s) => ({ path: s.path, reason: s.reason })),
  ];
  const targets: RefreshTarget[] = [];
  for (const target of plan.targets) {
    const denied = await writeDenied(plan.root, target.path);
    if (denied === undefined) targets.push(target);
    else left.push({ path: target.path, reason: denied });
  }
  const [first, ...rest] = left.map((l) => `${l.path}: ${l.reason}`);
  const advisories =
    first !== undefined
      ? [
          {
            kind: 'uninstall-strip-incomplete' as const,
            evidence: [first, ...rest] as [string, ...string[]],
            next_action: HINTS.incomplete,
          },
        ]
      : [];
  const dataOf = (done: readonly RefreshTarget[]): DiscernUninstallData => ({
    stripped: done.filter((t) => t.action !== 'delete').map((t) => ({ path: t.path, kind: t.kind, action: t.action })),
    removed: done.filter((t) => t.action === 'delete').map((t) => t.path),
    left,
  });
  if (input.dry_run === true) {
    return {
      dry_run: true,
      plan: {
        title:
          targets.length === 0
            ? 'nothing discern wrote is in the project'
            : `uninstall would change ${targets.length} file${targets.length === 1 ? '' : 's'}`,
        details: left.map((l) => `Cannot strip ${l.path}: ${l.reason}`),
        steps: targets.map((t) => ({
          kind: 'refresh',
          label: t.label,
          disposition: 'run' as const,
          note: `${t.action} ${t.path}`,
        })),
      },
      data: dataOf(targets),
      advisories,
      hints: [targets.length === 0 ? HINTS.nothing : HINTS.planned],
    };
  }
  const applied = await applyRefresh({ root: plan.root, targets }, { env: ctx.env, commonDir: ctx.project.commonDir });
  const step = (t: RefreshTarget, outcome: DiscernStep['outcome']): DiscernStep => ({
    kind: 'refresh',
    label: t.label,
    disposition: 'run',
    outcome,
    note: `${t.action} ${t.path}`,
  });
  if (!applied.ok && applied.reason === 'partial') {
    return {
      steps: [
        ...applied.written.map((t) => step(t, 'ok')),
        step(applied.failed, 'failed'),
        ...applied.remaining.map((t) => step(t, 'skipped')),
      ],
      data: dataOf(applied.written),
      advisories,
      refusal: {
        error: 'apply_failed',
        message: `uninstall stopped at ${applied.failed.path}: ${applied.message}.`,
        next: { recovery: 'run `discern uninstall` again: it strips only what is still there' },
      },
    };
  }
  if (!applied.ok) {
    // Every target was probed just before; a denial now means something changed under us.
    return {
      data: dataOf([]),
      advisories,
      refusal: { error: 'apply_failed', message: applied.message, next: { recovery: 'run `discern uninstall` again' } },
    };
  }
  const hints = [
    ...(applied.written.length > 0 ? [HINTS.done] : left.length === 0 ? [HINTS.nothing] : []),
    ...(left.length > 0 ? [HINTS.incomplete] : []),
  ];
  return { steps: applied.written.map((t) => step(t, 'ok')), data: dataOf(applied.written), advisories, hints };
}
