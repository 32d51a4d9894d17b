// The checkpoint-question sections done and accept share (the questions, declarations and drops blocks): each
// question with its id, mode, state and matched files, so an agent can answer it (or relay it) without another call.
import type {
  DiscernCheckpointDrop,
  DiscernCheckpointQuestion,
  DiscernCheckpointUnmet,
} from '../../../generated/types.js';
import { code } from './blocks.js';

export function questionsSection(
  title: string,
  questions: readonly DiscernCheckpointQuestion[] | undefined,
): string | undefined {
  if (!questions || questions.length === 0) return undefined;
  return `## ${title} (${questions.length})\n\n${questions.map(questionItem).join('\n\n')}`;
}

function questionItem(q: DiscernCheckpointQuestion): string {
  // An advise question needs no declaration: its state only matters once one was made.
  const state =
    q.mode === 'advise' && q.declaration === undefined ? 'advise' : `${q.mode}, ${q.state.replace(/_/g, ' ')}`;
  const lines = [`- **${code(q.id)}** (${state}): ${q.question}`, `  - why it fires: ${q.why}`];
  if (q.matched.length > 0)
    lines.push(
      `  - matched: ${q.matched.map(code).join(', ')}${q.matched_total > q.matched.length ? ` and ${q.matched_total - q.matched.length} more` : ''}`,
    );
  if (q.declaration)
    lines.push(
      `  - declared ${q.declaration.conclusion}${q.declaration.why ? ` (${q.declaration.why})` : ''} at ${q.declaration.declared_at}${q.declaration.current ? '' : ' — for earlier contents of these files'}`,
    );
  if (q.teach) lines.push(`  - to answer well: ${q.teach}`);
  if (q.reference) lines.push(`  - reference: ${q.reference}`);
  return lines.join('\n');
}

export function declarationsSection(
  met: readonly string[] | undefined,
  unmet: readonly DiscernCheckpointUnmet[] | undefined,
): string | undefined {
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
