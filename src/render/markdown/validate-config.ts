// Authored Markdown for `validate config`: the verdict, every error and warning with its line, column and key
// (one table, so a model fixes them all in one pass), the checks, and for a valid text the stages it would run.
import type { DiscernConfigIssue, DiscernValidateConfigResult } from '../../../generated/types.js';
import { code, table } from './blocks.js';
import { failureState, frame } from './frame.js';

export function renderValidateConfig(result: DiscernValidateConfigResult): string {
  const data = result.data && 'checks' in result.data ? result.data : undefined;
  const title = 'discern validate-config';
  const what = data ? `Checked ${data.source.kind === 'inline' ? 'the inline TOML' : code(data.source.name)}${data.source.bytes !== undefined ? ` (${data.source.bytes} bytes)` : ''}${data.root ? ` for ${code(data.root)}` : ''}.` : undefined;
  const verdict = result.ok
    ? `# ${title}: valid${data && data.warnings.length > 0 ? ` with ${data.warnings.length} warning${data.warnings.length === 1 ? '' : 's'}` : ''}`
    : failureState(result, title);
  const problems = data ? [...data.errors.map((i) => row(i, 'error')), ...data.warnings.map((i) => row(i, 'warning'))] : [];
  const checks = data ? table(['Check', 'Status', 'Detail'], data.checks.map((c) => [c.name, c.status, c.detail])) : undefined;
  const stages = data?.stages?.map((s, i) => `${i + 1}. **${s.stage}**${s.parallel && s.jobs.length > 1 ? ' (parallel)' : ''}: ${s.jobs.map((j) => `${j.name} ${code(j.commands.join(' && '))}`).join(', ')}`);
  const gates = data?.scope_gates?.map((g) => `- ${g.scope}: ${code(g.commands.join(' && '))}`);
  const evidence = [
    problems.length > 0 ? `## Problems\n\n${table(['Line', 'Column', 'Key', 'Severity', 'Problem'], problems)}` : undefined,
    stages && stages.length > 0 ? `## What discern done would run\n\n${stages.join('\n')}` : data?.valid ? '## What discern done would run\n\nNo job: add the commands this project is checked with under [jobs].' : undefined,
    gates && gates.length > 0 ? `## Scope gates (when a change touches the scope)\n\n${gates.join('\n')}` : undefined,
    checks ? `## Checks\n\n${checks}` : undefined,
  ]
    .filter(Boolean)
    .join('\n\n');
  return frame(result, { state: [verdict, what].filter(Boolean).join('\n\n'), evidence });
}

function row(issue: DiscernConfigIssue, severity: string): string[] {
  return [issue.line !== undefined ? String(issue.line) : '—', issue.column !== undefined ? String(issue.column) : '—', code(issue.path), severity, issue.message];
}
