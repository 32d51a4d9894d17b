// What status shows of emergency integration (docs/decisions/0029): the exception record on the trunk's tip —
// shown as an exception, never as Proof — and emergency landings interrupted before they finished. Both cost
// nothing when there is nothing to read: no exceptions ref, no emergency directory.
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { DiscernStatusData } from '../../../generated/types.js';
import { emergencyDir, emergencyTransactions } from '../acceptance/emergency-records.js';
import { EXCEPTIONS_REF, readExceptionNote } from '../notes/exception-note.js';

type Env = Readonly<Record<string, string | undefined>>;

export async function emergencyLandings(
  commonDir: string,
  trunk: string,
  run: { cwd: string; env: Env },
): Promise<Pick<DiscernStatusData, 'landed_exception' | 'emergency_pending'>> {
  const [exception, pending] = await Promise.all([
    landedException(commonDir, trunk, run),
    existsSync(emergencyDir(commonDir)) ? emergencyTransactions.pending(commonDir) : [],
  ]);
  return {
    ...(exception ? { landed_exception: exception } : {}),
    ...(pending.length > 0
      ? {
          emergency_pending: pending.map((t) => ({
            landing_id: t.landing_id,
            effort: t.effort,
            branch: t.branch,
            step: t.step,
          })),
        }
      : {}),
  };
}

async function landedException(
  commonDir: string,
  trunk: string,
  run: { cwd: string; env: Env },
): Promise<DiscernStatusData['landed_exception']> {
  const loose = existsSync(join(commonDir, ...EXCEPTIONS_REF.split('/')));
  const packed =
    loose || (await readFile(join(commonDir, 'packed-refs'), 'utf8').catch(() => '')).includes(` ${EXCEPTIONS_REF}\n`);
  if (!packed && !existsSync(join(commonDir, 'reftable'))) return undefined;
  const note = await readExceptionNote(run, `refs/heads/${trunk}`);
  if (note === undefined) return undefined;
  const p = note.payload;
  return {
    commit: p.subject.commit,
    ref: EXCEPTIONS_REF,
    landing_id: p.landing_id,
    line: p.presentation.line,
    reason: p.reason,
  };
}
