// The checkpoint-question sections done and accept share (the questions, declarations and drops blocks): each
// question with its id, mode, state and matched files, so an agent can answer it (or relay it) without another call.
import type { DiscernAcceptResult, DiscernCheckpointDrop, DiscernCheckpointQuestion, DiscernCheckpointUnmet } from '../../../generated/types.js';
import { code } from './blocks.js';

export function questionsSection(title: string, questions: readonly DiscernCheckpointQuestion[] | undefined): string | undefined {
  if (!questions || questions.length === 0) return undefined;
  return `## ${title} (${questions.length})\n\n${questions.map(questionItem).join('\n\n')}`;
}

function questionItem(q: DiscernCheckpointQuestion): string {
  // An advise question needs no declaration: its state only matters once one was made.
  const state = q.mode === 'advise' && q.declaration === undefined ? 'advise' : `${q.mode}, ${q.state.replace(/_/g, ' ')}`;
  const lines = [`- **${code(q.id)}** (${state}): ${q.question}`, `  - why it fires: ${q.why}`];
  if (q.matched.length > 0) lines.push(`  - matched: ${q.matched.map(code).join(', ')}${q.matched_total > q.matched.length ? ` and ${q.matched_total - q.matched.length} more` : ''}`);
  if (q.declaration) lines.push(`  - declared ${q.declaration.conclusion}${q.declaration.why ? ` (${q.declaration.why})` : ''} at ${q.declaration.declared_at}${q.declaration.current ? '' : ' — for earlier contents of these files'}`);
  if (q.teach) lines.push(`  - to answer well: ${q.teach}`);
  if (q.reference) lines.push(`  - reference: ${q.reference}`);
  return lines.join('\n');
}

export function declarationsSection(met: readonly string[] | undefined, unmet: readonly DiscernCheckpointUnmet[] | undefined): string | undefined {
  const lines = [
    ...(met ?? []).map((id) => `- ${code(id)}: met`),
    ...(unmet ?? []).map((u) => `- ${code(u.id)}: unmet (${u.mode}) — ${u.why}`),
  ];
  return lines.length > 0 ? `## Checkpoint declarations\n\n${lines.join('\n')}` : undefined;
}

export function dropsSection(drops: readonly DiscernCheckpointDrop[] | undefined): string | undefined {
  if (!drops || drops.length === 0) return undefined;
  return `## Checkpoint evidence dropped\n\n${drops.map((d) => `- ${d.kind}${d.checkpoint ? ` (${code(d.checkpoint)})` : ''}: ${d.reason}`).join('\n')}`;
}

type AcceptData = Extract<NonNullable<DiscernAcceptResult['data']>, { revision?: unknown }>;

/** accept's checkpoint evidence: the questions waiting (the effort's, or the kept composition's) and the unmet ones. */
export function acceptCheckpointSections(data: AcceptData | undefined): string | undefined {
  if (!data) return undefined;
  const judgment = data.integration_judgment;
  const composed = judgment
    ? [`## Kept composition\n\nThe trunk moved: ${code(judgment.composition.commit.slice(0, 12))} composes ${code(judgment.composition.head.slice(0, 12))} with ${code(judgment.composition.trunk.slice(0, 12))} in ${code(judgment.composition.path ?? '')}. Name ${code(judgment.composition.receipt)} as \`composition_receipt\` with the answers.`, questionsSection('Questions about the composed result', judgment.awaiting)]
    : [];
  const unmet = data.variances_required ?? judgment?.variances_required;
  const sections = [
    ...composed,
    questionsSection('Checkpoint questions awaiting a declaration', data.checkpoints?.outstanding),
    questionsSection('Advise checkpoints', data.checkpoints?.advise),
    unmet && unmet.length > 0 ? `## Declared unmet (${unmet.length})\n\n${unmet.map((u) => `- ${code(u.id)}: ${u.why}`).join('\n')}` : undefined,
    dropsSection(data.checkpoints?.drops),
  ].filter(Boolean);
  return sections.length > 0 ? sections.join('\n\n') : undefined;
}

/** The owner's decision an unmet stop checkpoint asks for. */
export function varianceOwnerAttention(data: AcceptData | undefined): string | undefined {
  const unmet = data?.variances_required ?? data?.integration_judgment?.variances_required;
  if (!unmet || unmet.length === 0) return undefined;
  const receipt = data?.integration_judgment?.composition.receipt;
  const naming = receipt ? ` naming \`composition_receipt: "${receipt}"\`` : '';
  return `Land despite ${unmet.length === 1 ? 'a stop checkpoint' : `${unmet.length} stop checkpoints`} declared unmet (${unmet.map((u) => code(u.id)).join(', ')})? To accept the variance, give your rationale; the agent calls again with \`variance\` (your rationale) and \`confirmed: true\`${naming}, or run \`discern accept ${data?.revision?.effort ?? '<target>'} --grant --variance "<rationale>"${receipt ? ` --composition-receipt ${receipt}` : ''}\`.`;
}
