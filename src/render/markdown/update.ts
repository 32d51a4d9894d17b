// Authored Markdown for `update`: what came in (or would, or conflicts), the overlap with this branch's own
// changes, the scopes touched and the regenerations, then the next action.
import type { DiscernUpdateResult } from '../../../generated/types.js';
import { code, table } from './blocks.js';
import { failureState, frame } from './frame.js';
import { diagnosticsSection, planSection, stepsSection } from './gate.js';

export function renderUpdate(result: DiscernUpdateResult): string {
  const data = result.data && 'behind' in result.data ? result.data : undefined;
  const evidence: (string | undefined)[] = [diagnosticsSection(result.diagnostics)];
  if (data?.conflicts && data.conflicts.length > 0) evidence.push(`## Conflicts (${data.conflicts.length})\n\n${data.conflicts.map((p) => `- ${code(p)}`).join('\n')}`);
  if (data && data.commits.length > 0) {
    evidence.push(`## Incoming commits (${data.commits_total})\n\n${data.commits.map((c) => `- ${code(c.sha.slice(0, 12))} ${c.subject}`).join('\n')}${data.commits_truncated ? `\n- … and ${data.commits_total - data.commits.length} more` : ''}`);
  }
  if (data && data.files.length > 0) {
    const rows = data.files.map((f) => [code(f.path), f.from ? `${f.status} from ${code(f.from)}` : f.status, f.added === null ? 'binary' : `+${f.added} −${f.removed ?? 0}`]);
    evidence.push(`## Incoming files (${data.files_total})\n\n${table(['File', 'Status', 'Lines'], rows)}${data.files_truncated ? `\n\n… and ${data.files_total - data.files.length} more.` : ''}`);
  }
  if (data && data.overlap_total > 0) evidence.push(`## Changed on both sides (${data.overlap_total})\n\n${data.overlap.map((p) => `- ${code(p)}`).join('\n')}`);
  evidence.push(stepsSection(result.steps), planSection(result.plan));
  const body = evidence.filter(Boolean).join('\n\n') || undefined;
  if (!result.ok || !data) {
    const issues = result.data && 'issues' in result.data ? result.data.issues.map((i) => `- ${code(i.path)}: ${i.message}`).join('\n') : undefined;
    return frame(result, { state: failureState(result, 'discern update'), evidence: [issues, body].filter(Boolean).join('\n\n') || undefined });
  }
  const summary =
    data.behind === 0
      ? 'Already up to date: nothing to merge.'
      : result.dry_run
        ? `Dry run: ${data.behind} commit${data.behind === 1 ? '' : 's'} would come in${data.fast_forward ? ' by fast-forward' : ' with a merge commit'}. Nothing was changed.`
        : `**Updated**: ${data.behind} commit${data.behind === 1 ? '' : 's'} merged${data.fast_forward ? ' by fast-forward' : ''}; the branch is at ${code((data.range.after ?? data.range.before).slice(0, 12))}.`;
  const scopes = data.scopes_incoming.length > 0 ? `Incoming scopes: ${data.scopes_incoming.map(code).join(', ')}.` : undefined;
  const regenerated = data.regenerated && data.regenerated.length > 0 ? `Regenerated and committed: ${data.regenerated.map(code).join(', ')}.` : undefined;
  return frame(result, { state: ['# discern update', summary, scopes, regenerated].filter(Boolean).join('\n\n'), evidence: body });
}
