// The landing queue, a view derived from the submissions: pre-authorized rows first (in grant order), then rows
// awaiting the owner in submission order; each row says whether it can land now. Pure: readiness and
// authority facts are read by the caller.
import type { DiscernQueueFailure, DiscernQueueRow } from '../../../generated/types.js';
import type { Submission, UnhonouredRecord } from './records.js';

export interface QueueFacts {
  authority: 'pre-authorized' | 'awaiting-owner';
  authoritySource?: 'effort-grant' | 'standing-grant';
  grantedAt?: string;
  /** Undefined when ready; else why it waits. */
  waiting?: string;
  /** Its submission or grant file, shown but not honoured (records.ts unhonoured). */
  unhonoured?: UnhonouredRecord[];
  /** Its head composed with the trunk failed the gate: red until the head changes or a landing composes it green. */
  red?: { composedWith: string; failures: QueueFailure[]; handle?: string };
}

/** A row as status, accept and a dry run publish it. */
export type QueueRow = DiscernQueueRow;
type QueueFailure = DiscernQueueFailure;

export function orderQueue(rows: readonly { submission: Submission; facts: QueueFacts }[]): QueueRow[] {
  // A submission that is not honoured is listed last: it is not in the queue until it is re-submitted.
  const key = (r: { submission: Submission; facts: QueueFacts }): [number, string, string] => [
    r.facts.unhonoured?.some((u) => u.kind === 'submission') ? 2 : r.facts.authority === 'pre-authorized' ? 0 : 1,
    r.facts.authority === 'pre-authorized'
      ? (r.facts.grantedAt ?? r.submission.submitted_at)
      : r.submission.submitted_at,
    r.submission.effort,
  ];
  return [...rows]
    .sort((a, b) => {
      const [ka, kb] = [key(a), key(b)];
      return ka[0] - kb[0] || ka[1].localeCompare(kb[1]) || ka[2].localeCompare(kb[2]);
    })
    .map((r, i) => ({
      effort: r.submission.effort,
      branch: r.submission.branch,
      path: r.submission.path,
      head: r.submission.head,
      submitted_at: r.submission.submitted_at,
      authority: r.facts.authority,
      ...(r.facts.authoritySource ? { authority_source: r.facts.authoritySource } : {}),
      ...(r.facts.grantedAt ? { granted_at: r.facts.grantedAt } : {}),
      position: i + 1,
      readiness: r.facts.red !== undefined ? 'red' : r.facts.waiting === undefined ? 'ready' : 'waiting',
      ...(r.facts.waiting !== undefined ? { reason: r.facts.waiting } : {}),
      ...(r.facts.unhonoured?.length ? { unhonoured: r.facts.unhonoured } : {}),
      ...(r.facts.red
        ? {
            composed_with: r.facts.red.composedWith,
            failures: r.facts.red.failures,
            ...(r.facts.red.handle ? { handle: r.facts.red.handle } : {}),
          }
        : {}),
    }));
}
