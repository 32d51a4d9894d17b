// One desk per repository: `<git-common-dir>/discern/desk.lock` holds the open desk's pid (a lease lock, see
// lease-lock.ts). A second desk while that process lives is refused; a lock whose process is gone is taken over.
// The lease is renewed while the desk is open, so only another machine sharing the repository (where the pid
// cannot be probed) ever falls back to its expiry.
import { join } from 'node:path';
import { acquireLease, startRenewal } from '../../../engine/state/lease-lock.js';

const LEASE_MS = 60_000;
const RENEW_MS = 20_000;

export type DeskLock =
  { ok: true; release: () => void } | { ok: false; pid: number | undefined; since: string | undefined };

export function deskLockPath(commonDir: string): string {
  return join(commonDir, 'discern', 'desk.lock');
}

export function takeDeskLock(commonDir: string, checkout: string): DeskLock {
  const attempt = acquireLease(deskLockPath(commonDir), { leaseMs: LEASE_MS, holder: { verb: 'desk', checkout } });
  if (!('acquired' in attempt)) return { ok: false, pid: attempt.held?.pid, since: attempt.held?.acquired_at };
  const lease = attempt.acquired;
  const stop = startRenewal(lease, RENEW_MS);
  let released = false;
  return {
    ok: true,
    // Synchronous, so the exit paths that cannot wait (a signal, a crash) still free the lock.
    release: () => {
      if (released) return;
      released = true;
      stop();
      try {
        lease.release();
      } catch {
        // Unremovable (the directory went away): the next desk finds this process gone and takes it over.
      }
    },
  };
}
