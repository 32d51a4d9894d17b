// Authored Markdown for `standards` and `standards propose`: the verdict (measured, pinned, or proposed), then
// the standards, pins and proposals, the diagnostics and steps; proposals put the owner's decision in its own
// section; the next action last.
import type { DiscernStandardProposal, DiscernStandardsData, DiscernStandardsProposeResult, DiscernStandardsResult } from '../../../generated/types.js';
import { code, table } from './blocks.js';
import { failureState, frame } from './frame.js';
import { diagnosticsSection, planSection, standardsSection, stepsSection } from './gate.js';

export function renderStandards(result: DiscernStandardsResult | DiscernStandardsProposeResult): string {
  const data = result.data && !('issues' in result.data) ? result.data : undefined;
  const title = `discern ${result.verb}`;
  const measure = data && 'action' in data && data.action === 'measure' ? (data as DiscernStandardsData) : undefined;
  const proposals = data?.proposals;
  const pinned = measure?.pinned && measure.pinned.length > 0 ? `## ${result.dry_run ? 'Would pin (from the last green values)' : 'Pinned'}\n\n${table(['Standard', 'From', 'To', 'Measured'], measure.pinned.map((p) => [p.name, String(p.from), String(p.to), String(p.measured)]))}` : undefined;
  const skipped = measure?.pin_skipped && measure.pin_skipped.length > 0 ? `## Left as they are\n\n${measure.pin_skipped.map((s) => `- ${s.name}: ${s.reason}`).join('\n')}` : undefined;
  const evidence = [
    diagnosticsSection(result.diagnostics),
    standardsSection(measure?.standards),
    pinned,
    skipped,
    proposals && proposals.length > 0 ? proposalsSection(proposals) : undefined,
    stepsSection(result.steps),
    planSection(result.plan),
  ]
    .filter(Boolean)
    .join('\n\n');
  if (!result.ok) {
    const issues = result.data && 'issues' in result.data ? result.data.issues.map((i) => `- ${code(i.path)}: ${i.message}`).join('\n') : '';
    const known = data?.suggestions && data.suggestions.length > 0 ? `Standards: ${data.suggestions.map(code).join(', ')}.` : '';
    const handle = measure?.handle ? `Progress handle: ${code(measure.handle)}.` : '';
    const stage = measure?.failed_stage ? `Failed stage: ${code(measure.failed_stage)}.` : '';
    return frame(result, { state: [failureState(result, title), stage, handle].filter(Boolean).join('\n\n'), evidence: [known, issues, evidence].filter(Boolean).join('\n\n') || undefined });
  }
  const lines = [`# ${title}`];
  if (result.dry_run) lines.push(`Dry run: nothing ran and nothing was written. The plan below is what \`${title}\` would do.`);
  else if (proposals && proposals.length > 0) lines.push(`**Proposed** — ${proposals.length} loosened limit${proposals.length === 1 ? '' : 's'} recorded for ${code((data?.proposal_commit ?? '').slice(0, 12))}.`);
  else if (measure) {
    const count = measure.standards?.length ?? 0;
    const pinnedCount = measure.pinned?.length ?? 0;
    lines.push(`**Green** — ${count} standard${count === 1 ? '' : 's'} measured${measure.forced ? ' on a dirty tree (force): nothing recorded' : ''}${measure.pin_commit ? `; ${pinnedCount} limit${pinnedCount === 1 ? '' : 's'} pinned in ${code(measure.pin_commit.slice(0, 12))}` : ''}.`);
    if (measure.proof) lines.push(`> ${measure.proof.line}`);
    if (measure.handle) lines.push(`Progress handle ${code(measure.handle)}.`);
  }
  const owner = proposals && proposals.length > 0 && !result.dry_run ? `Landing this work loosens ${proposals.map((p) => `${code(p.name)} (${p.from} → ${p.to})`).join(', ')}: only the owner approves it, at accept. Relay each reason.` : undefined;
  return frame(result, { state: lines.join('\n\n'), evidence: evidence || undefined, ownerAttention: owner });
}

function proposalsSection(proposals: readonly DiscernStandardProposal[]): string {
  return `## Proposals\n\n${table(['Standard', 'Kind', 'Trunk', 'Branch', 'Reason'], proposals.map((p) => [p.name, p.direction === 'up' ? 'floor' : 'ceiling', String(p.from), String(p.to), p.reason]))}`;
}
