// Authored Markdown for `checkpoints`, and the checkpoint-question sections done and accept share: each question
// with its id, mode, state and matched files, so an agent can answer it (or relay it) without another call.
import type { DiscernAcceptResult, DiscernCheckpointDrop, DiscernCheckpointQuestion, DiscernCheckpointsResult, DiscernCheckpointUnmet } from '../../../generated/types.js';
import { code } from './blocks.js';
import { failureState, frame } from './frame.js';

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

export function renderCheckpoints(result: DiscernCheckpointsResult): string {
  const data = result.data && 'checkpoints' in result.data ? result.data : undefined;
  if (!result.ok || !data) {
    const issues = result.data && 'issues' in result.data ? result.data.issues.map((i) => `- ${code(i.path)}: ${i.message}`).join('\n') : undefined;
    return frame(result, { state: failureState(result, 'discern checkpoints'), evidence: issues });
  }
  const firing = data.checkpoints.filter((c) => c.preview.holds);
  const waiting = firing.filter((c) => c.mode === 'stop' && (c.open_question?.state === 'awaiting_declaration' || c.open_question?.state === 'reopened'));
  const head = data.revision.head ? code(data.revision.head.slice(0, 12)) : 'no commit yet';
  const governs = data.revision.config === 'merge-base' ? `the discern.toml at the merge-base${data.revision.base ? ` ${code(data.revision.base.slice(0, 12))}` : ''}` : 'the working discern.toml (the merge-base\'s could not be read)';
  const summary =
    data.checkpoints.length === 0
      ? `No checkpoint governs HEAD (${head}) under ${governs}.`
      : `${data.checkpoints.length} checkpoint${data.checkpoints.length === 1 ? '' : 's'} govern${data.checkpoints.length === 1 ? 's' : ''} HEAD (${head}) under ${governs}: ${firing.length} fire${firing.length === 1 ? 's' : ''}, ${waiting.length} stop question${waiting.length === 1 ? '' : 's'} await${waiting.length === 1 ? 's' : ''} a declaration.`;
  const items = data.checkpoints.map((c) => {
    const lines = [`### ${code(c.id)} — ${c.mode}${c.preview.holds ? ', fires' : ''}`, '', c.question, '', `- Trigger: ${c.trigger}`, `- Obligation: ${c.obligation}`, `- On HEAD: ${c.preview.why ?? (c.preview.holds ? 'fires' : 'does not fire')}`];
    if (c.preview.matched && c.preview.matched.length > 0) lines.push(`- Matched: ${c.preview.matched.map(code).join(', ')}${(c.preview.matched_total ?? 0) > c.preview.matched.length ? ` and ${(c.preview.matched_total ?? 0) - c.preview.matched.length} more` : ''}`);
    if (c.preview.vetoed_by) lines.push(`- Vetoed by: ${c.preview.vetoed_by.map(code).join(', ')}`);
    if (c.open_question) {
      const d = c.open_question.declaration;
      lines.push(`- Question: ${c.open_question.state.replace(/_/g, ' ')}${d ? ` (declared ${d.conclusion}${d.why ? `: ${d.why}` : ''} at ${d.declared_at}${d.current ? '' : ', for earlier contents'})` : ''}${c.open_question.variance_required ? '; landing needs the owner\'s variance' : ''}`);
    }
    if (c.preview.when_pending) lines.push(`- While pending: ${c.preview.when_pending}`);
    if (c.teach) lines.push(`- To answer well: ${c.teach}`);
    if (c.reference) lines.push(`- Reference: ${c.reference}`);
    if (c.question_file) lines.push(`- Question file: ${code(c.question_file)}`);
    return lines.join('\n');
  });
  const ungoverned = data.ungoverned && data.ungoverned.length > 0 ? `## Not governing this change\n\n${data.ungoverned.map((u) => `- ${code(u.id)}: ${u.reason}`).join('\n')}` : undefined;
  const evidence = [items.length > 0 ? `## Checkpoints\n\n${items.join('\n\n')}` : undefined, ungoverned, dropsSection(data.drops)].filter(Boolean).join('\n\n') || undefined;
  return frame(result, { state: `# discern checkpoints\n\n${summary}`, evidence });
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
