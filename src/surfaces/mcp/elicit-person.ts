// The person behind an MCP client that declares elicitation (form mode): discern asks them through the client,
// in a form the agent does not fill. On the 2025-era protocol this server speaks it is `elicitation/create`
// (docs/decisions/0049 says why the 2026-07-28 input-required form waits).
import type { ClientCapabilities, ElicitResult, Implementation } from '@modelcontextprotocol/server';
import type { PersonAnswer, PersonChannel, PersonQuestion } from '../../verbs/context.js';

/** A person waits as long as they take: ten minutes, then the question counts as unanswered. */
const ANSWER_TIMEOUT_MS = 600_000;

type Elicit = (
  params: {
    mode: 'form';
    message: string;
    requestedSchema: {
      type: 'object';
      properties: Record<string, { type: 'boolean'; title: string; description: string; default: boolean }>;
      required: string[];
    };
  },
  options: { timeout: number; signal: AbortSignal },
) => Promise<ElicitResult>;

/** Form elicitation is declared as `elicitation: {}` (2025-06-18) or with a `form` member (2025-11-25). */
export function declaresFormElicitation(capabilities: ClientCapabilities | undefined): boolean {
  const declared = capabilities?.elicitation as Record<string, unknown> | undefined;
  if (declared === undefined || declared === null || typeof declared !== 'object') return false;
  return Object.keys(declared).length === 0 || declared['form'] !== undefined;
}

export function elicitingPerson(
  elicit: Elicit,
  client: Implementation | undefined,
  signal: AbortSignal,
): PersonChannel {
  return {
    via: 'elicited',
    client: { name: client?.name ?? 'unknown', version: client?.version ?? 'unknown' },
    async ask(question: PersonQuestion): Promise<PersonAnswer> {
      let answer: ElicitResult;
      try {
        answer = await elicit(
          {
            mode: 'form',
            message: question.message,
            requestedSchema: {
              type: 'object',
              properties: {
                approve: { type: 'boolean', title: question.title, description: 'Check to approve.', default: false },
              },
              required: ['approve'],
            },
          },
          { timeout: ANSWER_TIMEOUT_MS, signal },
        );
      } catch {
        return 'unavailable';
      }
      if (answer.action === 'cancel') return 'cancelled';
      if (answer.action !== 'accept') return 'declined';
      return answer.content?.['approve'] === true ? 'approved' : 'declined';
    },
  };
}
