// done --ci on a commit whose Proof note verifies, when the trunk's policy trusts verified notes
// ([repository] trust_notes, docs/decisions/0051): the note's verdict stands in for a second run of the gate.
// Only the owner's policy turns it on — the trunk tip's discern.toml, read by verify — and a note that does not
// verify changes nothing: the gate runs, and the result says why the note was not taken.
import type { DoneOutcome } from '../../generated/handlers.js';
import { VERBS } from '../../generated/registry.js';
import { verifyCommit } from '../engine/verification/verify-commit.js';
import { policyFacts } from './policy-facts.js';
import type { ProjectVerbContext } from './context.js';

export type TrustedNote = { outcome: DoneOutcome } | { notTaken: string };

/** `trunkRef`: the trunk as git is given it, a fetched `refs/remotes/origin/main` on a hosted CI checkout. */
export async function trustedNote(ctx: ProjectVerbContext, trunkRef: string): Promise<TrustedNote> {
  const verified = await verifyCommit({ ...policyFacts(ctx), trunkRef }, 'HEAD');
  const hint = VERBS.done.hints.note_not_trusted;
  if (verified.kind !== 'judged') return { notTaken: hint.replace('{error}', verified.reason) };
  if (!verified.trustNotes)
    return { notTaken: hint.replace('{error}', "the trunk's own discern.toml does not set trust_notes") };
  const { verdict } = verified;
  if (verdict.failure !== undefined) return { notTaken: hint.replace('{error}', verdict.failure.error) };
  const signature = verdict.data.signature;
  const keyid = signature?.keyid ?? '';
  return {
    outcome: {
      data: {
        mode: 'report',
        gate_ran: false,
        failed_stage: null,
        scopes_changed: [],
        completion: { kind: 'diagnostic', pending_reasons: [] },
        producer_executions: {},
        trusted_note: {
          commit: verified.commit,
          ref: verdict.data.note?.ref ?? '',
          keyid,
          ...(signature?.principals ? { principals: signature.principals } : {}),
          ...(verdict.data.note?.line ? { line: verdict.data.note.line } : {}),
        },
      },
      held: ['gate-finish'],
      hints: [
        VERBS.done.hints.trusted_note.replace('{commit}', verified.commit.slice(0, 12)).replace('{keyid}', keyid),
      ],
    },
  };
}
