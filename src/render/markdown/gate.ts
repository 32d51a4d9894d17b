// Markdown blocks the gate verbs share: the steps that ran, the diagnostics with their places and reproduce
// commands, the standards, and a dry run's plan.
import type { DiscernDiagnostic, DiscernGateStandard, DiscernPlan, DiscernStep } from '../../../generated/types.js';
import { code, table } from './blocks.js';

const DIAGNOSTICS_SHOWN = 20;

/** Diagnostics the compact human view shows before pointing at the full result. */
const DIAGNOSTICS_COMPACT = 3;

export function stepsSection(steps: readonly DiscernStep[] | undefined, compact = false): string | undefined {
  if (!steps || steps.length === 0) return undefined;
  if (compact) return compactSteps(steps);
  const rows = steps.map((s) => [
    s.label,
    s.outcome,
    s.group ?? (s.disposition === 'gate' ? 'preconditions' : ''),
    s.duration_s !== undefined ? `${s.duration_s} s` : '',
    outputCell(s),
  ]);
  return `## Steps\n\n${table(['Step', 'Outcome', 'Stage', 'Time', 'Output'], rows)}`;
}

/** The human view's summary: the counts by outcome, and only the steps that did not pass or were cancelled. */
function compactSteps(steps: readonly DiscernStep[]): string {
  const counts = new Map<string, number>();
  for (const s of steps) counts.set(s.outcome, (counts.get(s.outcome) ?? 0) + 1);
  const summary = `${steps.length} step${steps.length === 1 ? '' : 's'}: ${[...counts].map(([o, n]) => `${n} ${o}`).join(', ')}.`;
  const notable = steps.filter((s) => s.outcome === 'failed' || s.outcome === 'cancelled');
  if (notable.length === 0) return `## Steps\n\n${summary}`;
  const rows = notable.map((s) => [
    s.label,
    s.outcome,
    s.group ?? (s.disposition === 'gate' ? 'preconditions' : ''),
    s.duration_s !== undefined ? `${s.duration_s} s` : '',
    outputCell(s),
  ]);
  return `## Steps\n\n${summary} \`--render\` shows them all.\n\n${table(['Step', 'Outcome', 'Stage', 'Time', 'Output'], rows)}`;
}

function outputCell(step: DiscernStep): string {
  if (step.output_lines === undefined) return '';
  const errorLike = step.error_like_lines ? `, ${step.error_like_lines} error-like` : '';
  return `${step.output_lines} line${step.output_lines === 1 ? '' : 's'}${errorLike}`;
}

export function diagnosticsSection(
  diagnostics: readonly DiscernDiagnostic[] | undefined,
  compact = false,
): string | undefined {
  if (!diagnostics || diagnostics.length === 0) return undefined;
  const cap = compact ? DIAGNOSTICS_COMPACT : DIAGNOSTICS_SHOWN;
  const shown = diagnostics.slice(0, cap).map(diagnosticItem);
  const where = compact ? ': `--render` or the JSON result shows them' : ' in the JSON result';
  const more = diagnostics.length > cap ? `\n\n… and ${diagnostics.length - cap} more${where}.` : '';
  return `## Diagnostics\n\n${shown.join('\n\n')}${more}`;
}

function diagnosticItem(d: DiscernDiagnostic): string {
  const place = d.file ? `${code(`${d.file}${d.line ? `:${d.line}${d.col ? `:${d.col}` : ''}` : ''}`)} ` : '';
  const rule = d.rule ? ` (${d.rule})` : '';
  const lines = [
    // A message's later lines (an assertion's expected and actual) stay inside its list item.
    `- **${d.tool}** ${d.severity}: ${place}${d.message.replace(/\n/g, '\n  ')}${rule}`,
    `  - reproduce: ${code(d.reproduce_cmd)}`,
  ];
  if (d.output)
    lines.push(`  - output${d.truncated ? ' (last lines)' : ''}:\n\n${fence(d.output).replace(/^/gm, '    ')}`);
  if (d.output_path) lines.push(`  - full output: ${code(d.output_path)}`);
  return lines.join('\n');
}

function fence(text: string): string {
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const ticks = '`'.repeat(longest + 1);
  return `${ticks}text\n${text}\n${ticks}`;
}

export function standardsSection(standards: readonly DiscernGateStandard[] | undefined): string | undefined {
  if (!standards || standards.length === 0) return undefined;
  const rows = standards.map((s) => [
    s.name,
    s.value !== undefined ? String(s.value) : '—',
    `${s.direction === 'up' ? '≥' : '≤'} ${s.limit}${s.margin ? ` (margin ${s.margin})` : ''}`,
    s.measurement,
    s.verdict ?? s.reason ?? '',
  ]);
  return `## Standards\n\n${table(['Standard', 'Value', 'Limit', 'How', 'Verdict'], rows)}`;
}

export function planSection(plan: DiscernPlan | undefined): string | undefined {
  if (!plan) return undefined;
  const rows = plan.steps.map((s) => [
    s.label,
    s.disposition,
    s.group ?? (s.disposition === 'gate' ? 'preconditions' : ''),
    s.note ?? '',
  ]);
  return [
    `## Plan: ${plan.title}`,
    plan.details.map((d) => `- ${d}`).join('\n'),
    table(['Step', 'Disposition', 'Stage', 'Command or note'], rows),
  ]
    .filter((s) => s.length > 0)
    .join('\n\n');
}
