// Authored Markdown for `await`: whether the condition held, what was observed, and how to continue.
import type { DiscernAwaitResult } from '../../../generated/types.js';
import { code } from './blocks.js';
import { failureState, frame } from './frame.js';

export function renderAwait(result: DiscernAwaitResult): string {
  const data = result.data && 'met' in result.data ? result.data : undefined;
  if (!result.ok || !data) {
    const issues = result.data && 'issues' in result.data ? result.data.issues.map((i) => `- ${code(i.path)}: ${i.message}`).join('\n') : undefined;
    return frame(result, { state: failureState(result, 'discern await'), evidence: issues });
  }
  const subject = data.condition === 'trunk-moved' ? code(data.trunk) : code(data.effort ?? data.branch ?? '');
  const happened = data.condition === 'trunk-moved' ? 'moved' : data.condition === 'green' ? 'is green' : 'landed';
  const awaited = data.condition === 'trunk-moved' ? 'to move' : data.condition === 'green' ? 'to be green' : 'to land';
  const verdict = data.met
    ? `**Met**: ${subject} ${happened}.`
    : data.cancelled
      ? `**Cancelled** while waiting for ${subject} ${awaited}: nothing changed.`
      : `**Not yet**: waited ${Math.round(data.elapsed_ms / 1000)} s for ${subject} ${awaited}. Resume handle ${code(data.resume ?? '')}.`;
  const o = data.observed;
  const facts = [
    o.trunk_start ? `- ${data.trunk} when the watch began: ${code(o.trunk_start.slice(0, 12))}` : undefined,
    o.trunk_head ? `- ${data.trunk} now: ${code(o.trunk_head.slice(0, 12))}` : undefined,
    o.tip ? `- ${data.branch ?? 'branch'} tip: ${code(o.tip.slice(0, 12))}${o.landed ? ' (on the trunk)' : ''}` : undefined,
    o.proof_status ? `- Proof: ${o.proof_status}` : undefined,
    `- Budget: ${data.timeout_s} s (${data.timeout_basis})`,
  ].filter(Boolean);
  return frame(result, { state: ['# discern await', verdict].join('\n\n'), evidence: `## Observed\n\n${facts.join('\n')}` });
}
