// The person's consent to one landing (docs/decisions/0049). When the surface can ask the person directly (an
// MCP client that declares elicitation), `confirmed` — the agent's word — is not taken as their consent: discern
// asks them, listing the branch, commit, trunk, the policy changes and the checks, and a decline or cancel leaves
// the landing waiting. Without such a channel, confirmed stays the reference's conversation consent, recorded as
// the agent's assertion. Standing authority (a grant, pre_authorized scopes) needs no question, unless the
// landing also changes the trunk's policy, which only the person can approve.
import type { AcceptOutcome } from '../../generated/handlers.js';
import type { DiscernAcceptData, DiscernAcceptInput, DiscernPolicyChange } from '../../generated/types.js';
import type { VerbContext } from './context.js';

export type LandingConsent = NonNullable<DiscernAcceptData['consent']>;

/** Whether this call's consent is asked of the person instead of taken from confirmed. */
export function asksThePerson(ctx: Pick<VerbContext, 'person'>, input: DiscernAcceptInput): boolean {
  return ctx.person?.via === 'elicited' && input.confirmed === true && input.grant !== true;
}

export interface ConsentQuestionFacts {
  branch: string;
  head: string;
  trunk: string;
  /** The Proof line: the checks that passed. */
  proofLine: string;
  policyChanges: readonly DiscernPolicyChange[];
  changedPaths: number;
}

/** The question's text: every fact the person decides on, one per line. */
export function consentQuestion(f: ConsentQuestionFacts): { title: string; message: string } {
  const lines = [
    `An agent asks to land ${f.branch} at ${f.head.slice(0, 12)} on ${f.trunk}.`,
    `Changed paths: ${f.changedPaths}.`,
    `Checks: ${f.proofLine}`,
    ...(f.policyChanges.length > 0
      ? [`It changes ${f.trunk}'s policy (discern.toml):`, ...f.policyChanges.map((c) => `  - ${c.sentence ?? c.key}`)]
      : []),
    'Approve only if you want this exact commit on the trunk.',
  ];
  return { title: `Land ${f.branch} at ${f.head.slice(0, 12)} on ${f.trunk}`, message: lines.join('\n') };
}

/**
 * Asks the person; approved gives the consent to record (source elicited, naming the client), anything else the
 * awaiting_consent refusal saying what the answer was.
 */
export async function askForConsent(
  ctx: Pick<VerbContext, 'person'>,
  facts: ConsentQuestionFacts,
  target: string,
): Promise<{ ok: true; consent: LandingConsent } | { ok: false; refusal: NonNullable<AcceptOutcome['refusal']> }> {
  const person = ctx.person;
  if (person === undefined) throw new Error('askForConsent needs a person channel');
  const answer = await person.ask(consentQuestion(facts));
  const client = person.client ?? { name: 'unknown', version: 'unknown' };
  if (answer === 'approved') return { ok: true, consent: { source: person.via, client } };
  const why =
    answer === 'declined'
      ? 'the person declined it'
      : answer === 'cancelled'
        ? 'the person dismissed the question without answering'
        : `${client.name} could not ask the person (the question failed or went unanswered)`;
  return {
    ok: false,
    refusal: {
      error: 'awaiting_consent',
      message: `Landing ${facts.branch} at ${facts.head.slice(0, 12)} was put to the person through ${client.name}, and ${why}: nothing landed and it waits in the landing queue. Call discern_accept for ${target} with confirmed: true again when they want it asked again.`,
      next: {},
    },
  };
}
