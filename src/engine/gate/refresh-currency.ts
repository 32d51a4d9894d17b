// Whether the files refresh owns a part of are current in the commit being proven: the instruction regions,
// the materialised skills, the ADR index and the agents' MCP and hook wiring. Proof for a commit whose
// generated agent files lag its configuration would prove agents get instructions the project no longer
// means. Enforced once the project has adopted refresh (some part of a file is discern's); a project that
// never ran refresh is not failed for files it never asked for.
import type { DiscernDiagnostic, DiscernFailedStage } from '../../../generated/types.js';
import type { Project } from '../project/resolve.js';
import { planRefresh, type RefreshKind, type RefreshPlan } from '../refresh/index.js';

export interface RefreshDrift {
  failedStage: DiscernFailedStage;
  message: string;
  diagnostics: DiscernDiagnostic[];
}

/** The stage a stale file of each kind fails, most specific first. */
const STAGE_OF: Record<RefreshKind, DiscernFailedStage> = { instructions: 'instructions', skill: 'skills', 'adr-index': 'adr_index', mcp: 'refresh_drift', hooks: 'refresh_drift' };
const PRIORITY: readonly DiscernFailedStage[] = ['instructions', 'skills', 'adr_index', 'refresh_drift'];
const REPRODUCE = 'discern refresh --dry-run';

export async function refreshDrift(project: Project, env: Readonly<Record<string, string | undefined>>): Promise<RefreshDrift | undefined> {
  return driftOf(await planRefresh(project, { env }));
}

/** Pure: the verdict on a plan. */
export function driftOf(plan: RefreshPlan): RefreshDrift | undefined {
  const adopted = plan.current.length > 0 || plan.targets.some((t) => t.action !== 'create');
  if (!adopted) return undefined;
  if (plan.errors.length > 0) {
    return {
      failedStage: 'refresh_drift',
      message: `refresh cannot plan discern's agent files (${plan.errors.map((e) => `${e.path}: ${e.message}`).join('; ')}), so this commit's are unverified. Fix ${plan.errors.length === 1 ? 'it' : 'them'}, run \`discern refresh\`, commit, and run done again.`,
      diagnostics: plan.errors.map((e) => ({ tool: 'discern', severity: 'error' as const, message: e.message, file: e.path, reproduce_cmd: REPRODUCE })),
    };
  }
  if (plan.targets.length === 0) return undefined;
  const stages = new Set(plan.targets.map((t) => STAGE_OF[t.kind]));
  const failedStage = PRIORITY.find((s) => stages.has(s)) ?? 'refresh_drift';
  const paths = plan.targets.map((t) => t.path);
  return {
    failedStage,
    message: `${paths.length} file${paths.length === 1 ? '' : 's'} discern generates ${paths.length === 1 ? 'is' : 'are'} not current in this commit (${paths.slice(0, 3).join(', ')}${paths.length > 3 ? ', …' : ''}). Run \`discern refresh\`, commit the result, and run done again.`,
    diagnostics: plan.targets.slice(0, 20).map((t) => ({
      tool: 'discern',
      severity: 'error' as const,
      message: `${t.kind} ${t.action === 'create' ? 'missing' : t.action === 'delete' ? 'should be removed' : 'out of date'}`,
      file: t.path,
      reproduce_cmd: REPRODUCE,
    })),
  };
}
