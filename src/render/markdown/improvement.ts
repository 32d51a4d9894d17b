// Authored Markdown for `improvement`: the score and weak categories, the next improvement with its evidence,
// the categories, the rules that do not pass, what needs reading, the owner's decisions, and the next action
// last (the registered one on a failure).
import type { DiscernImprovementAction, DiscernImprovementAudit, DiscernImprovementResult } from '../../../generated/types.js';
import { code, table } from './blocks.js';
import { failureState, frame } from './frame.js';

export function renderImprovement(result: DiscernImprovementResult): string {
  const data = result.data && 'categories' in result.data ? result.data : undefined;
  if (!data) {
    const suggestions = result.data && 'suggestions' in result.data && result.data.suggestions ? `Categories: ${result.data.suggestions.map(code).join(', ')}.` : undefined;
    return frame(result, { state: failureState(result, 'discern improvement'), evidence: suggestions });
  }
  const scope = data.category !== undefined ? ` (${code(data.category)} only)` : '';
  const summary = [
    `Score ${data.score}/100${scope}${data.min_score !== undefined ? `; minimum ${data.min_score}` : ''}.`,
    data.weak.length > 0 ? `Weak: ${data.weak.map(code).join(', ')}.` : 'No weak category.',
    data.open_reviews > 0 ? `${data.open_reviews} item${data.open_reviews === 1 ? '' : 's'} to review.` : undefined,
  ]
    .filter(Boolean)
    .join(' ');
  const state = result.ok ? `# discern improvement: ${data.score}/100\n\n${summary}` : `${failureState(result, 'discern improvement')}\n\n${summary}`;
  return frame(result, { state, evidence: evidence(data), ownerAttention: decisions(data) });
}

function evidence(data: DiscernImprovementAudit): string {
  const next = data.next_action;
  const nextSection = next
    ? `## Next improvement: ${next.title}\n\n${code(next.id)} (${next.kind}, ${next.category}): ${next.why}${next.against ? `\n\nAgainst: ${code(next.against)}.` : ''}`
    : '## Next improvement\n\nEvery rule passes.';
  const rows = data.categories.map((c) => {
    const tally = (s: string): number => c.rules.filter((r) => r.status === s).length;
    return [`${c.title} (${c.name})`, `${c.score}${c.weak ? ' (weak)' : ''}`, String(c.weight), `${tally('pass')} pass, ${tally('partial')} partial, ${tally('fail')} fail`];
  });
  const failing = data.categories.flatMap((c) => c.rules.filter((r) => r.status !== 'pass').map((r) => `- ${code(r.id)} ${r.status}: ${r.evidence.detail}${r.fix ? ` Fix: ${r.fix}` : ''}`));
  const reviews = data.categories.flatMap((c) => c.reviews.map((r) => `- ${r.subject} (${code(r.rule)}): ${r.reason}`));
  const later = (data.recommendations ?? []).map((a) => `- ${code(a.id)} (${a.kind}): ${a.action}`);
  return [
    nextSection,
    `## Categories\n\n${table(['Category', 'Score', 'Weight', 'Rules'], rows)}`,
    failing.length > 0 ? `## Rules that do not pass\n\n${failing.join('\n')}` : undefined,
    reviews.length > 0 ? `## To review\n\n${reviews.join('\n')}` : undefined,
    later.length > 0 ? `## After that\n\n${later.join('\n')}` : undefined,
  ]
    .filter(Boolean)
    .join('\n\n');
}

/** The improvements that are the owner's choice to make. */
function decisions(data: DiscernImprovementAudit): string | undefined {
  const all: DiscernImprovementAction[] = [...(data.next_action ? [data.next_action] : []), ...(data.recommendations ?? [])].filter((a) => a.kind === 'decide');
  return all.length > 0 ? `The owner's choice:\n\n${all.map((a) => `- ${a.title} (${code(a.id)})`).join('\n')}` : undefined;
}
