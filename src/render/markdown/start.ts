// Authored Markdown for `start`: where the new effort lives and what it starts from, the setup steps, the
// prospective landing authority, then the next action (work there).
import type { DiscernStartResult } from '../../../generated/types.js';
import { code } from './blocks.js';
import { failureState, frame } from './frame.js';
import { diagnosticsSection, planSection, stepsSection } from './gate.js';

export function renderStart(result: DiscernStartResult): string {
  const data = result.data && 'id' in result.data ? result.data : undefined;
  const evidence = [diagnosticsSection(result.diagnostics), stepsSection(result.steps), planSection(result.plan)].filter(Boolean).join('\n\n') || undefined;
  if (!result.ok || !data) {
    const issues = result.data && 'issues' in result.data ? result.data.issues.map((i) => `- ${code(i.path)}: ${i.message}`).join('\n') : undefined;
    return frame(result, { state: failureState(result, 'discern start'), evidence: [issues, evidence].filter(Boolean).join('\n\n') || undefined });
  }
  const lines = [
    `# discern start`,
    result.dry_run ? `Dry run: nothing was created. This is what \`discern start\` would do.` : `**Started** effort ${code(data.id)}.`,
    [
      `- Branch: ${code(data.branch)}`,
      `- Worktree: ${code(data.path)}`,
      `- From: ${code(data.from.ref)} (${code(data.from.commit.slice(0, 12))})${data.behind_trunk ? `, ${data.behind_trunk} commit${data.behind_trunk === 1 ? '' : 's'} behind the trunk` : ''}`,
      ...(data.task.title ? [`- Task: ${data.task.title}`] : []),
      ...(data.resources && data.resources.length > 0 ? [`- Resources: ${data.resources.map(code).join(', ')}`] : []),
    ].join('\n'),
  ];
  const authority = data.landing_authority;
  const authoritySection = authority
    ? `## Landing authority\n\n${
        authority.standing_scopes && authority.standing_scopes.length > 0
          ? `A change confined to ${authority.standing_scopes.map(code).join(', ')} may land without asking (${authority.source ?? 'a standing grant'}); anything else needs the owner's consent.`
          : 'Landing will need the owner\'s consent: no standing grant covers this repository\'s changes.'
      }${authority.warnings && authority.warnings.length > 0 ? `\n\n${authority.warnings.map((w) => `- ${w}`).join('\n')}` : ''}`
    : undefined;
  return frame(result, { state: lines.join('\n\n'), evidence, authority: authoritySection });
}
