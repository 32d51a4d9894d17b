// The code of "resource not found" is the negotiated revision's. Revisions up to 2025-11-25 name -32002; the
// 2026-07-28 revision names -32602 (Invalid params) and asks clients to accept -32002 as well (SEP-2164). The SDK
// answers -32602 on every revision, so on the earlier ones discern's outgoing not-found answers are given -32002.
// An answer is a not-found when it is the SDK's: -32602 whose data is exactly `{ uri }`. An invalid URI carries a
// `reason` as well, and stays -32602, as every revision has it.
import type { JSONRPCMessage } from '@modelcontextprotocol/server';

/** The first revision whose resource not found is -32602. */
const NOT_FOUND_IS_INVALID_PARAMS_FROM = '2026-07-28';

export function notFoundCode(revision: string | undefined): number {
  // Revisions are dates, so their text orders as they do. No revision yet: the SDK's default, an earlier one.
  return revision !== undefined && revision >= NOT_FOUND_IS_INVALID_PARAMS_FROM ? -32602 : -32002;
}

/** The message as the negotiated revision has it. */
export function withRevisionCodes(message: JSONRPCMessage, revision: string | undefined): JSONRPCMessage {
  if (!('error' in message) || message.error.code !== -32602) return message;
  const data = message.error.data;
  const onlyUri =
    typeof data === 'object' &&
    data !== null &&
    Object.keys(data).length === 1 &&
    typeof (data as { uri?: unknown }).uri === 'string';
  if (!onlyUri) return message;
  const code = notFoundCode(revision);
  return code === message.error.code ? message : { ...message, error: { ...message.error, code } };
}

interface Sending {
  send(message: JSONRPCMessage, options?: unknown): Promise<void>;
}

/** Every message the server sends passes through withRevisionCodes. */
export function reviseOutgoing(transport: Sending, revision: () => string | undefined): void {
  const send = transport.send.bind(transport);
  transport.send = (message, options) => send(withRevisionCodes(message, revision()), options);
}
