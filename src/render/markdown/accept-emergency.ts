// Authored Markdown for accept's emergency integration: the plan the owner must review (trunk, repair, reason,
// the checks that failed, never ran or are stale) and how to approve it; once landed, the exception line — said
// plainly to be no Proof — and what was cleaned up.
import type { DiscernAcceptData } from '../../../generated/types.js';
import { code } from './blocks.js';

type Emergency = NonNullable<DiscernAcceptData['emergency']>;

function checkLine(title: string, items: readonly string[]): string {
  return `- ${title}: ${items.length > 0 ? items.map(code).join(', ') : 'none'}`;
}

/** The plan itself: what the owner approves. */
export function emergencyPlanSection(e: Emergency): string {
  return [
    '## Emergency plan',
    [
      `- Trunk: ${code(e.trunk.name)} at ${code(e.trunk.tip.slice(0, 12))}`,
      `- Repair: ${code(e.repair.branch)} (${code(e.repair.effort)}) at ${code(e.repair.head.slice(0, 12))}`,
      `- Reason: ${e.reason}`,
      checkLine('Failed', e.checks.failed),
      checkLine('Never ran', e.checks.never_ran),
      checkLine('Stale', e.checks.stale),
      ...(e.landing_id ? [`- Landing id: ${code(e.landing_id)}`] : []),
    ].join('\n'),
  ].join('\n\n');
}

/** What the owner is asked, when the plan waits for approval. */
export function emergencyOwnerAttention(e: Emergency): string | undefined {
  if (e.approval_token === undefined) return undefined;
  const receipt = e.preparation?.receipt;
  const problem = e.token_problem ? `The approval given was not accepted (${e.token_problem.kind}): ${e.token_problem.why}.\n\n` : '';
  return `${problem}Land ${code(e.repair.branch)} at ${code(e.repair.head.slice(0, 12))} on ${code(e.trunk.name)} **without passing Proof**? It lands as a recorded exception. To approve this exact plan, tell the agent to call again with \`confirmed: true\` and \`approval_token: ${e.approval_token}\`${receipt ? ` (and \`preparation_receipt: ${receipt}\`)` : ''} (valid until ${e.expires_at ?? 'it expires'}), or run \`discern accept ${e.repair.effort} --emergency --reason "${e.reason.replace(/"/g, '\\"')}" --confirmed --approval-token ${e.approval_token}${receipt ? ` --preparation-receipt ${receipt}` : ''}\`.`;
}

/** The state of a landed exception. */
export function emergencyLandedLines(data: DiscernAcceptData, e: Emergency): string[] {
  const lines = [`**Landed as an emergency exception** ${code(e.repair.branch)} on ${code(e.trunk.name)} at ${code(e.repair.head.slice(0, 12))}${data.landing?.recovery_performed ? ', finishing an interrupted landing' : ''}. This is not Proof.`];
  if (e.line) lines.push(`> ${e.line}`);
  lines.push(
    [
      `- Reason: ${e.reason}`,
      checkLine('Failed', e.checks.failed),
      checkLine('Never ran', e.checks.never_ran),
      checkLine('Stale', e.checks.stale),
      `- Exception record: ${e.record ? `${code(e.record.ref)} on ${code(e.record.commit.slice(0, 12))}` : 'not written'}`,
      ...(data.landing ? [`- Worktree ${data.landing.worktree_removed ? 'removed' : 'kept'}; branch ${data.landing.branch_deleted ? 'deleted' : 'kept'}`] : []),
      ...(data.root ? [`- Surviving checkout: ${code(data.root)}`] : []),
    ].join('\n'),
  );
  return lines;
}

/** Checkpoint preparation: the questions served, the declarations, the receipt or what it still needs. */
export function emergencyPreparationSection(e: Emergency): string | undefined {
  const p = e.preparation;
  if (p === undefined) return undefined;
  if (!p.evaluated) {
    return ['## Checkpoint preparation (dry run)', [`- Would evaluate: ${(p.would_evaluate ?? []).length > 0 ? (p.would_evaluate ?? []).map(code).join(', ') : 'no checkpoint defined'}`, `- Would record met: ${(p.would_record ?? []).length > 0 ? (p.would_record ?? []).map(code).join(', ') : 'none'}`].join('\n')].join('\n\n');
  }
  const lines = [
    `- Stop question fires: ${p.required ? 'yes — the preview and the confirmed call need a current preparation_receipt' : 'no — no preparation is needed'}`,
    ...(p.questions ?? []).map((q) => `- ${code(q.id)} (${q.mode}, ${q.state.replace(/_/g, ' ')}): ${q.question}`),
    ...((p.recorded ?? []).length > 0 ? [`- Recorded now: met ${(p.recorded ?? []).map(code).join(', ')}`] : []),
    ...((p.unmet ?? []).length > 0 ? [`- Declared unmet (blocks an emergency landing): ${(p.unmet ?? []).map((u) => `${code(u.id)} (${u.why})`).join(', ')}`] : []),
    ...(p.receipt_problem ? [`- Receipt not accepted (${p.receipt_problem.kind}): ${p.receipt_problem.why}`] : []),
    ...(p.receipt ? [`- Preparation receipt: ${code(p.receipt)}`] : []),
  ];
  return ['## Checkpoint preparation', lines.join('\n')].join('\n\n');
}
