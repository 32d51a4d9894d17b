// A child process that takes leases and slots on command (see child-pool.ts), for the concurrency tests.
import { acquireLease, type Lease } from '../../../src/engine/state/lease-lock.js';
import { acquireSlot, type Slot } from '../../../src/engine/state/slots.js';
import { serve } from './child-serve.js';

const leases = new Map<string, Lease>();
const slots = new Map<string, Slot>();

serve(
  {
    acquire(c) {
      const result = acquireLease(String(c['path']), {
        leaseMs: Number(c['leaseMs']),
        holder: (c['holder'] as Record<string, unknown>) ?? {},
      });
      if ('acquired' in result) {
        leases.set(String(c['path']), result.acquired);
        return { acquired: true, token: result.acquired.token };
      }
      return { acquired: false, held: result.held };
    },
    renew(c) {
      return leases.get(String(c['path']))?.renew() ?? null;
    },
    release(c) {
      const lease = leases.get(String(c['path']));
      leases.delete(String(c['path']));
      return lease?.release() ?? null;
    },
    async slot(c) {
      const got = await acquireSlot(String(c['dir']), Number(c['capacity']), {
        leaseMs: Number(c['leaseMs'] ?? 60_000),
        holder: { worker: process.pid },
      });
      slots.set(String(got.slot.index), got.slot);
      return { index: got.slot.index, waitedMs: got.waitedMs };
    },
    releaseSlot(c) {
      const slot = slots.get(String(c['index']));
      slots.delete(String(c['index']));
      return slot?.release() ?? null;
    },
    /** Leave without releasing anything, as a crashed process would. */
    vanish() {
      setImmediate(() => process.exit(0));
      return true;
    },
  },
  () => {
    for (const lease of leases.values()) lease.release();
    for (const slot of slots.values()) slot.release();
  },
);
