// The person's approval of one emergency plan (docs/decisions/0049): asked by the MCP client when it declares
// elicitation — the agent then never holds the approval token — or at the terminal where the owner runs the
// `--approve` command the preview prints. Otherwise the token goes to the agent as the reference has it, and the
// exception records consent `conversation`: the agent's word.
import type { EmergencyPlan } from '../engine/acceptance/emergency-plan.js';
import type { PersonChannel } from './context.js';

export type EmergencyConsent =
  | { consent: 'conversation' }
  | { consent: 'terminal' }
  | { consent: 'elicited'; client: { name: string; version: string } };

/** Every fact of the plan, one per line: what lands, on what, why, and what does not pass. */
export function emergencyQuestion(plan: EmergencyPlan): { title: string; message: string } {
  const { failed, never_ran: neverRan, stale } = plan.checks;
  const list = (label: string, names: readonly string[]): string[] =>
    names.length > 0 ? [`${label}: ${names.join(', ')}`] : [];
  return {
    title: `Land ${plan.repair.branch} at ${plan.repair.head.slice(0, 12)} on ${plan.trunk.name} as an emergency exception`,
    message: [
      `An agent asks to land ${plan.repair.branch} at ${plan.repair.head.slice(0, 12)} on ${plan.trunk.name} (now ${plan.trunk.tip.slice(0, 12)}) WITHOUT passing Proof.`,
      `Reason given: ${plan.reason}`,
      ...list('Failed', failed),
      ...list('Never ran', neverRan),
      ...list('Stale', stale),
      'It lands as an exception record, never as Proof. Approve only if the trunk must take this repair now.',
    ].join('\n'),
  };
}

export async function askEmergencyApproval(
  person: PersonChannel,
  plan: EmergencyPlan,
): Promise<{ ok: true; consent: EmergencyConsent } | { ok: false; why: string }> {
  const answer = await person.ask(emergencyQuestion(plan));
  if (answer === 'approved')
    return {
      ok: true,
      consent:
        person.via === 'elicited'
          ? { consent: 'elicited', client: person.client ?? { name: 'unknown', version: 'unknown' } }
          : { consent: 'terminal' },
    };
  const where = person.via === 'elicited' ? `through ${person.client?.name ?? 'the client'}` : 'at the terminal';
  return {
    ok: false,
    why:
      answer === 'declined'
        ? `the person asked ${where} declined it`
        : answer === 'cancelled'
          ? `the person asked ${where} dismissed the question without answering`
          : `the person could not be asked ${where}`,
  };
}

export function declinedPlanMessage(plan: EmergencyPlan, summary: string, why: string, mcp: boolean): string {
  const again = mcp ? 'call discern_accept with action "emergency" and the same reason' : 'run the same command';
  return `The emergency landing of ${plan.repair.branch} at ${plan.repair.head.slice(0, 12)} onto ${plan.trunk.name} (${summary}) was not approved: ${why}. Nothing changed. When the owner wants it asked again, ${again}.`;
}
