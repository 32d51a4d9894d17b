// Authored Markdown for `enter` and the worktree commands: what happened to the effort's worktree, branch and
// resources (or why it refused, with the commits at stake), the steps, then the next action.
import type { DiscernResult } from '../../../generated/types.js';
import { code } from './blocks.js';
import { failureState, frame } from './frame.js';
import { diagnosticsSection, planSection, stepsSection } from './gate.js';

type WorktreeResult = Extract<DiscernResult, { verb: 'enter' | 'worktree teardown' | 'worktree drop' | 'worktree park' | 'worktree setup' | 'worktree ensure' | 'worktree rename' | 'worktree prune' }>;

export function renderWorktree(result: WorktreeResult): string {
  const title = `discern ${result.verb}`;
  const data = (result.data && !('issues' in result.data) ? result.data : undefined) as Record<string, unknown> | undefined;
  const lines: string[] = [];
  if (data && typeof data['effort'] === 'string') {
    lines.push(`- Effort ${code(String(data['effort']))} on ${code(String(data['branch']))}`, `- Worktree ${code(String(data['path']))}`);
    const previous = data['previous'] as { effort: string } | undefined;
    if (previous) lines.push(`- Was ${code(previous.effort)}`);
    if (data['worktree_removed'] !== undefined) lines.push(`- Worktree ${data['worktree_removed'] ? 'removed' : 'kept'}`);
    if (data['branch_deleted'] !== undefined) lines.push(`- Branch ${data['branch_deleted'] ? 'deleted' : `kept${data['branch_kept_reason'] ? `: ${String(data['branch_kept_reason'])}` : ''}`}`);
    if (typeof data['dropped_tip'] === 'string') lines.push(`- Last commit of the dropped branch: ${code(data['dropped_tip'])}`);
    for (const key of ['resources_destroyed', 'resources_created'] as const) {
      const list = data[key] as string[] | undefined;
      if (list && list.length > 0) lines.push(`- Resources ${key === 'resources_destroyed' ? 'destroyed' : 'created'}: ${list.map(code).join(', ')}`);
    }
  }
  if (data && Array.isArray(data['worktrees_pruned'])) {
    const show = (label: string, list: unknown): void => {
      const items = list as string[];
      lines.push(`- ${label}: ${items.length === 0 ? 'none' : items.map(code).join(', ')}`);
    };
    show('Worktrees forgotten', data['worktrees_pruned']);
    show('Records cleared', data['records_cleared']);
    show('Effort branches without a worktree (kept)', data['branches_without_worktree']);
  }
  const commits = data?.['unlanded_commits'] as { sha: string; subject: string }[] | undefined;
  const atStake = commits && commits.length > 0 ? `## Commits the trunk does not contain (${String(data?.['unlanded_total'] ?? commits.length)})\n\n${commits.map((c) => `- ${code(c.sha.slice(0, 12))} ${c.subject}`).join('\n')}` : undefined;
  const evidence = [diagnosticsSection(result.diagnostics), atStake, stepsSection(result.steps), planSection(result.plan)].filter(Boolean).join('\n\n') || undefined;
  const facts = lines.length > 0 ? lines.join('\n') : undefined;
  if (!result.ok) return frame(result, { state: [failureState(result, title), facts].filter(Boolean).join('\n\n'), evidence });
  return frame(result, { state: [`# ${title}`, result.dry_run ? 'Dry run: nothing changed.' : undefined, facts].filter(Boolean).join('\n\n'), evidence });
}
