// A second done (or a done beside a prepare) in a checkout where another attempt holds the operation lock:
// refused as incomplete, naming the running attempt, its lease expiry and its progress handle, so the caller
// reads that run back instead of starting another gate on the same evidence. Two done started together can
// meet before the winner has opened its journal: the loser waits a moment for that record (a bounded wait).
import type { DoneOutcome } from '../../generated/handlers.js';
import type { DiscernDoneData } from '../../generated/types.js';
import { runningOperations } from '../engine/journal/index.js';
import type { HolderInfo } from '../engine/state/lease-lock.js';
import { readBack, type DoneRun } from './done-facts.js';

/** The holder opens its journal just after taking the lock: a call landing in between waits that long for it. */
const RECORD_WAIT_MS = 2000;
const RECORD_POLL_MS = 50;

/** The progress handle of the attempt holding the lock, once its journal record is there (a bounded wait). */
async function holderHandle(run: DoneRun, holder: HolderInfo | null): Promise<string | undefined> {
  if (holder === null) return undefined;
  const deadline = Date.now() + RECORD_WAIT_MS;
  for (;;) {
    const running = await runningOperations(run.paths.repositoryDir, run.ctx.project.root).catch(() => []);
    // Only the holder's own record names it: another run in the checkout (a test) is not the attempt.
    const theirs = running.find((r) => r.record.pid === holder.pid && r.record.verb === holder['verb']);
    // No record after the wait: the holder runs without a journal (it is advisory), or has just finished.
    if (theirs !== undefined || Date.now() > deadline || run.ctx.signal.aborted) return theirs?.record.handle;
    await new Promise((resolve) => setTimeout(resolve, RECORD_POLL_MS));
  }
}

export async function attemptPending(
  run: DoneRun,
  holder: HolderInfo | null,
  base: Pick<DiscernDoneData, 'mode' | 'scopes_changed'>,
): Promise<DoneOutcome> {
  const handle = await holderHandle(run, holder);
  const verb = typeof holder?.['verb'] === 'string' ? holder['verb'] : 'done';
  const since = holder?.acquired_at ? ` since ${holder.acquired_at}` : '';
  const reason = `another ${verb} is running in this checkout${holder ? ` (pid ${holder.pid}${since})` : ''}`;
  const progress = readBack(run.ctx, handle);
  return {
    data: {
      ...base,
      gate_ran: false,
      failed_stage: null,
      completion: {
        kind: 'pending',
        pending_reasons: [reason],
        pending: [
          {
            kind: 'attempt',
            reason,
            ...(typeof holder?.['attempt'] === 'string' ? { attempt_id: holder['attempt'] } : {}),
            ...(handle ? { handle } : {}),
            ...(holder?.expires_at ? { expires_at: holder.expires_at } : {}),
            next_action: `read it with ${progress}`,
          },
        ],
      },
    },
    refusal: {
      error: 'incomplete',
      message: `${verb === 'done' ? 'The evidence is already being gathered' : 'This checkout is busy'}: ${reason}. Its lease is renewed while it runs, and a dead run's claim is taken over by the next call.`,
      next: { wait: `read the running attempt with \`${progress}\` and let it finish` },
    },
  };
}
