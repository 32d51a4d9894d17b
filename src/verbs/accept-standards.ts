// The owner's approval of loosened standards at accept (docs/decisions/0027-standards-verbs.md). A revision whose
// Proof passed the never-loosen check under recorded proposals lands only when the call says the owner approved
// them in this conversation: approve_standard with confirmed. Otherwise acceptance refuses with
// awaiting_standard_approval, naming each proposal and its reason; queueing needs no approval (it lands nothing).
import type { AcceptOutcome } from '../../generated/handlers.js';
import type { DiscernAcceptInput, DiscernProofSummary, DiscernStandardProposal } from '../../generated/types.js';

/** A call that asks for approval in a way that cannot stand: the refusal message, else undefined. */
export function approvalArgumentProblem(input: DiscernAcceptInput): string | undefined {
  if (input.approve_policy === true) {
    if (input.action === 'queue')
      return 'action "queue" only records the submission: it takes no approval. Use ordinary acceptance (no action) to approve policy changes.';
    if (input.confirmed !== true && input.grant !== true)
      return "approve_policy records the owner's approval of the policy changes given in this conversation, so it needs confirmed: true as well (at the CLI, --grant also stands for the owner).";
  }
  if (input.approve_standard !== true) return undefined;
  if (input.action === 'queue')
    return 'action "queue" only records the submission: it takes no approval. Use ordinary acceptance (no action) to approve loosened standards.';
  if (input.confirmed !== true)
    return "approve_standard records the owner's approval given in this conversation, so it needs confirmed: true as well.";
  return undefined;
}

export type StandardApproval =
  | { ok: true; approvals: DiscernStandardProposal[] }
  | { ok: false; required: DiscernStandardProposal[]; message: string };

export function standardApproval(
  input: DiscernAcceptInput,
  proof: DiscernProofSummary,
  effort: { id: string; branch: string },
  head: string,
  mcp: boolean,
): StandardApproval {
  const proposals = proof.standard_proposals ?? [];
  if (proposals.length === 0) return { ok: true, approvals: [] };
  if (input.approve_standard === true && input.confirmed === true) return { ok: true, approvals: proposals };
  const listed = proposals
    .map((p) => `${p.name} ${p.direction === 'up' ? 'floor' : 'ceiling'} ${p.from} → ${p.to} ("${p.reason}")`)
    .join('; ');
  const call = mcp
    ? 'discern_accept again with approve_standard: true and confirmed: true'
    : `\`discern accept ${effort.id} --confirmed --approve-standard\``;
  return {
    ok: false,
    required: proposals,
    message: `Landing ${effort.branch} at ${head.slice(0, 12)} loosens ${proposals.length === 1 ? 'a standard' : `${proposals.length} standards`} the trunk holds, under proposals only the owner can approve: ${listed}. Relay each limit and reason to the owner; if they approve, call ${call}. Otherwise restore the trunk's limits on the branch, commit, and run done again.`,
  };
}

/** A landing's result with the approvals it carried. */
export function withApprovals(outcome: AcceptOutcome, approvals: readonly DiscernStandardProposal[]): AcceptOutcome {
  if (approvals.length === 0 || outcome.data === undefined || 'issues' in outcome.data) return outcome;
  return { ...outcome, data: { ...outcome.data, standard_approvals: [...approvals] } };
}
