// The repository's start lock (<git-common-dir>/discern/locks/start.lock): held while a start picks a name and
// creates its branch and worktree, so two agents starting at once never claim the same name. It is held for
// seconds; a holder that died is taken over (lease-lock.ts), and a live one is waited for up to a minute.
import { join } from 'node:path';
import { acquireLease } from '../state/lease-lock.js';

const LEASE_MS = 120_000;
const WAIT_MS = 60_000;
const POLL_MS = 50;

export async function withStartLock<T>(commonDir: string, body: () => Promise<T>): Promise<T | 'busy'> {
  const path = join(commonDir, 'discern', 'locks', 'start.lock');
  const deadline = Date.now() + WAIT_MS;
  for (;;) {
    const attempt = acquireLease(path, { leaseMs: LEASE_MS, holder: { verb: 'start' } });
    if ('acquired' in attempt) {
      try {
        return await body();
      } finally {
        attempt.acquired.release();
      }
    }
    if (Date.now() > deadline) return 'busy';
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}
