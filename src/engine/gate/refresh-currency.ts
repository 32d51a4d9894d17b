// Whether the files refresh owns a part of are current in the commit being proven: the instruction regions,
// the materialised skills, the ADR index and the agents' MCP and hook wiring. Proof for a commit whose
// generated agent files lag its configuration would prove agents get instructions the project no longer
// means. Enforced once the project has adopted refresh (some part of a file is discern's); a project that
// never ran refresh is not failed for files it never asked for.
import type { DiscernDiagnostic, DiscernFailedStage } from '../../../generated/types.js';
import type { Project } from '../project/resolve.js';
import { ignoredPaths } from '../git/ignored.js';
import { planRefresh, planUninstall, type RefreshKind, type RefreshPlan } from '../refresh/index.js';

export interface RefreshDrift {
  failedStage: DiscernFailedStage;
  message: string;
  diagnostics: DiscernDiagnostic[];
}

/** The stage a stale file of each kind fails, most specific first. */
const STAGE_OF: Record<RefreshKind, DiscernFailedStage> = {
  instructions: 'instructions',
  skill: 'skills',
  'adr-index': 'adr_index',
  mcp: 'refresh_drift',
  hooks: 'refresh_drift',
  gitattributes: 'refresh_drift',
};
const PRIORITY: readonly DiscernFailedStage[] = ['instructions', 'skills', 'adr_index', 'refresh_drift'];
const REPRODUCE = 'discern refresh --dry-run';

export async function refreshDrift(
  project: Project,
  env: Readonly<Record<string, string | undefined>>,
): Promise<RefreshDrift | undefined> {
  // Adopted means some part of a file is already discern's: exactly what uninstall would take out. A user's own
  // CLAUDE.md or .mcp.json without discern's part does not count (refresh would update it, but never did).
  const owned = await planUninstall(project);
  if (owned.targets.length === 0) return undefined;
  const plan = await planRefresh(project, { env });
  // A file the ignore rules cover is never in a commit: its currency is each checkout's own business.
  const ignored = await ignoredPaths(
    plan.targets.map((t) => t.path),
    { cwd: project.root, env },
  );
  return driftOf({ ...plan, targets: plan.targets.filter((t) => !ignored.has(t.path)) });
}

/** Pure: the verdict on a plan, for a project that has adopted refresh. */
export function driftOf(plan: RefreshPlan): RefreshDrift | undefined {
  if (plan.errors.length > 0) {
    return {
      failedStage: 'refresh_drift',
      message: `refresh cannot plan discern's agent files (${plan.errors.map((e) => `${e.path}: ${e.message}`).join('; ')}), so this commit's are unverified. Fix ${plan.errors.length === 1 ? 'it' : 'them'}, run \`discern refresh\`, commit, and run done again.`,
      diagnostics: plan.errors.map((e) => ({
        tool: 'discern',
        severity: 'error' as const,
        message: e.message,
        file: e.path,
        reproduce_cmd: REPRODUCE,
      })),
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
