// Authored Markdown for refresh, the skills commands and uninstall: what was written (or would be, or is
// current) file by file, what was left alone and why, then the next action.
import type { DiscernRefreshResult, DiscernSkillsEjectResult, DiscernSkillsListResult, DiscernUninstallResult } from '../../../generated/types.js';
import { code, table } from './blocks.js';
import { failureState, frame } from './frame.js';
import { stepsSection } from './gate.js';

const ACTION = { create: 'created', update: 'updated', delete: 'removed' } as const;
const WOULD = { create: 'create', update: 'update', delete: 'remove' } as const;

export function renderRefresh(result: DiscernRefreshResult): string {
  const data = result.data && 'changes' in result.data ? result.data : undefined;
  const evidence: (string | undefined)[] = [];
  if (data) {
    if (data.errors.length > 1) evidence.push(`## Cannot refresh (${data.errors.length})\n\n${data.errors.map((e) => `- ${code(e.path)} (\`${e.error}\`): ${e.message}`).join('\n')}`);
    if (data.changes.length > 0) {
      const written = new Set(result.dry_run ? data.changes.map((c) => c.path) : [...data.agents_written, ...data.mcp_wired, ...data.hooks_wired, ...data.adr_index_written, ...data.skills.copied, ...data.skills.pruned, ...data.removed]);
      const rows = data.changes.map((c) => [code(c.path) + (c.also ? ` (also ${c.also.map(code).join(', ')})` : ''), c.kind, result.dry_run ? `would ${WOULD[c.action as keyof typeof WOULD] ?? c.action}` : written.has(c.path) ? (ACTION[c.action as keyof typeof ACTION] ?? c.action) : `${WOULD[c.action as keyof typeof WOULD] ?? c.action} (not written)`, c.agents.join(', ')]);
      evidence.push(`## Files (${data.changes.length})\n\n${table(['File', 'Part', 'Change', 'Agents'], rows)}`);
    }
    if (data.current.length > 0) evidence.push(`## Already current (${data.current.length})\n\n${data.current.map((p) => `- ${code(p)}`).join('\n')}`);
    if (data.skipped.length > 0) evidence.push(`## Left alone (${data.skipped.length})\n\n${data.skipped.map((s) => `- ${code(s.path)}: ${s.reason}`).join('\n')}`);
    if (data.skills.linked.length > 0) evidence.push(`Skills shared with another agent's folder: ${data.skills.linked.map(code).join(', ')}.`);
  }
  // A preview's plan lists the same files as the table above, so only its details are shown.
  evidence.push(stepsSection(result.steps));
  const body = evidence.filter(Boolean).join('\n\n') || undefined;
  if (!result.ok || !data) return frame(result, { state: failureState(result, 'discern refresh'), evidence: body });
  const agents = [
    data.agents.length > 0 ? `Agents: ${data.agents.map(code).join(', ')}.` : 'No agents are configured.',
    data.sources.length > 0 ? `Instruction sources: ${data.sources.map(code).join(', ')}.` : undefined,
  ].filter(Boolean).join(' ');
  const summary = result.dry_run
    ? data.changes.length === 0
      ? 'Dry run: everything is current; refresh would write nothing.'
      : `Dry run: refresh would change ${data.changes.length} file${data.changes.length === 1 ? '' : 's'}. Nothing was written.`
    : (result.steps ?? []).length === 0
      ? 'Everything is current: nothing was written.'
      : `**Refreshed**: ${(result.steps ?? []).length} file${(result.steps ?? []).length === 1 ? '' : 's'} written.`;
  return frame(result, { state: ['# discern refresh', summary, agents].join('\n\n'), evidence: body });
}

export function renderSkills(result: DiscernSkillsListResult | DiscernSkillsEjectResult): string {
  if (result.verb === 'skills eject') {
    const data = result.data && 'name' in result.data ? result.data : undefined;
    if (!result.ok) {
      const suggestions = data?.suggestions && data.suggestions.length > 0 ? `Built-in skills: ${data.suggestions.map(code).join(', ')}.` : undefined;
      return frame(result, { state: failureState(result, 'discern skills eject'), evidence: [suggestions, stepsSection(result.steps)].filter(Boolean).join('\n\n') || undefined });
    }
    return frame(result, { state: `# discern skills eject\n\n**Ejected** ${code(data?.name ?? '')} to ${code(data?.path ?? '')}: the project's copy now, materialised by refresh instead of the built-in.` });
  }
  const data = result.data && 'skills' in result.data ? result.data : undefined;
  if (!result.ok || !data) return frame(result, { state: failureState(result, 'discern skills list') });
  const rows = data.skills.map((s) => [
    code(s.name),
    s.source === 'authored' ? `authored (${code(s.path ?? '')})${s.replaces_builtin ? ', replaces the built-in' : ''}` : 'built-in',
    s.excluded ? 'excluded' : s.copies.map((c) => `${code(c.path)} ${c.state}`).join('; '),
    s.description,
  ]);
  const folders = data.folders.length > 0 ? `Skills folders: ${data.folders.map((f) => `${code(f.folder)} (${f.agents.join(', ')})`).join(', ')}.` : 'No agent reads skills: none are materialised.';
  const problems = data.problems.length > 0 ? `## Cannot read (${data.problems.length})\n\n${data.problems.map((p) => `- ${code(p.path)}: ${p.message}`).join('\n')}` : undefined;
  const ignored = data.ignored.length > 0 ? `Folders in ${code(data.skills_dir)} without a SKILL.md (not skills): ${data.ignored.map(code).join(', ')}.` : undefined;
  return frame(result, {
    state: [`# discern skills list`, `${data.skills.length} skill${data.skills.length === 1 ? '' : 's'}; the project's own are in ${code(data.skills_dir)}.`, folders].join('\n\n'),
    evidence: [table(['Skill', 'Source', 'Copies', 'Description'], rows), problems, ignored].filter(Boolean).join('\n\n'),
  });
}

export function renderUninstall(result: DiscernUninstallResult): string {
  const data = result.data && 'stripped' in result.data ? result.data : undefined;
  const evidence: (string | undefined)[] = [];
  if (data) {
    if (data.stripped.length > 0) evidence.push(`## ${result.dry_run ? 'Would strip' : 'Stripped'} (${data.stripped.length})\n\n${data.stripped.map((s) => `- ${code(s.path)} (${s.kind})`).join('\n')}`);
    if (data.removed.length > 0) evidence.push(`## ${result.dry_run ? 'Would remove' : 'Removed'} (${data.removed.length})\n\n${data.removed.map((p) => `- ${code(p)}`).join('\n')}`);
    if (data.left.length > 0) evidence.push(`## Could not strip (${data.left.length})\n\n${data.left.map((l) => `- ${code(l.path)}: ${l.reason}`).join('\n')}`);
  }
  evidence.push(stepsSection(result.steps));
  const body = evidence.filter(Boolean).join('\n\n') || undefined;
  if (!result.ok || !data) return frame(result, { state: failureState(result, 'discern uninstall'), evidence: body });
  const count = data.stripped.length + data.removed.length;
  const summary = result.dry_run ? `Dry run: ${count} file${count === 1 ? '' : 's'} would change. Nothing was changed.` : count === 0 ? 'Nothing discern wrote was found.' : `**Uninstalled**: ${count} file${count === 1 ? '' : 's'} changed.`;
  return frame(result, { state: ['# discern uninstall', summary].join('\n\n'), evidence: body });
}
