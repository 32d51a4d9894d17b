// The transaction of an emergency landing, one JSON file per landing id under
// <git-common-dir>/discern/emergency/, written before the first effect and advanced after each (the
// acceptance_step vocabulary, as ordinary landings: docs/decisions/0017). A finished landing keeps its file,
// marked completed, so recover and a repeated confirmed call answer with the same outcome instead of failing. It lives apart from the ordinary
// transactions (discern/acceptance/<effort>.json) on purpose: an ordinary accept resumes what it finds there
// and writes a Proof note, which an emergency landing must never get.
import { readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { StateEmergencyTransaction } from '../../../generated/state-types.js';
import { writeFileAtomic } from '../state/atomic-write.js';
import { stateRecordOrUndefined } from '../state/state-record.js';
import { LANDING_ID } from './emergency-approval.js';

export const EMERGENCY_FORMAT = 1 as const;

/** An owner-approved emergency landing (spec/state/emergency-transaction.schema.json). */
export type EmergencyTransaction = StateEmergencyTransaction;

export function emergencyDir(commonDir: string): string {
  return join(commonDir, 'discern', 'emergency');
}

export const emergencyTransactions = {
  async read(commonDir: string, landingId: string): Promise<EmergencyTransaction | undefined> {
    // The id comes from the caller (recover): only the shape discern issues may name a file.
    if (!LANDING_ID.test(landingId)) return undefined;
    const tx = await stateRecordOrUndefined(
      'emergency-transaction',
      join(emergencyDir(commonDir), `${landingId}.json`),
    );
    return tx !== undefined && tx.landing_id === landingId ? tx : undefined;
  },
  /** Every landing on record, finished ones included (they are few: each is an owner-approved exception). */
  async all(commonDir: string): Promise<EmergencyTransaction[]> {
    const names = await readdir(emergencyDir(commonDir)).catch(() => [] as string[]);
    const out: EmergencyTransaction[] = [];
    for (const name of names.filter((n) => n.endsWith('.json')).sort()) {
      const tx = await emergencyTransactions.read(commonDir, name.slice(0, -'.json'.length));
      if (tx) out.push(tx);
    }
    return out;
  },
  write(commonDir: string, tx: EmergencyTransaction): Promise<void> {
    return writeFileAtomic(join(emergencyDir(commonDir), `${tx.landing_id}.json`), `${JSON.stringify(tx, null, 2)}\n`);
  },
  /** Interrupted landings: records not completed. */
  async pending(commonDir: string): Promise<EmergencyTransaction[]> {
    return (await emergencyTransactions.all(commonDir)).filter((t) => t.completed_at === undefined);
  },
  remove(commonDir: string, landingId: string): Promise<void> {
    return rm(join(emergencyDir(commonDir), `${landingId}.json`), { force: true });
  },
};
