// A named lock for the whole repository (<git-common-dir>/discern/locks/<name>.lock), held around work that two
// discern processes must not interleave: start picking a name and creating its worktree, accept moving the
// trunk and cleaning up. A holder that died is taken over (lease-lock.ts); a live one is waited for.
import { dirname, join } from 'node:path';
import { acquireLease, startRenewal } from './lease-lock.js';
import { asWriteDenied } from './write-denied.js';

const LEASE_MS = 60_000;
/** Renewed well inside the lease, so a long body (a gate run) never lets it lapse while its holder lives. */
const RENEW_MS = 20_000;
const POLL_MS = 50;

export async function withRepositoryLock<T>(
  commonDir: string,
  name: 'start' | 'accept' | 'edit',
  waitMs: number,
  body: () => Promise<T>,
): Promise<T | 'busy'> {
  const path = join(commonDir, 'discern', 'locks', `${name}.lock`);
  const deadline = Date.now() + waitMs;
  for (;;) {
    let attempt: ReturnType<typeof acquireLease>;
    try {
      attempt = acquireLease(path, { leaseMs: LEASE_MS, holder: { verb: name } });
    } catch (error) {
      // Nothing has changed yet: a lock the file system will not take is a write_denied, never a crash.
      throw asWriteDenied(error, dirname(path)) ?? error;
    }
    if ('acquired' in attempt) {
      const stop = startRenewal(attempt.acquired, RENEW_MS);
      try {
        return await body();
      } finally {
        stop();
        attempt.acquired.release();
      }
    }
    if (Date.now() > deadline) return 'busy';
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}
