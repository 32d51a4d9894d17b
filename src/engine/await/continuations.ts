// Continuations of waits that ran out of budget: `<git-common-dir>/discern/continuations/<C1 handle>.json`,
// kept 7 days and at most 512 (the oldest go first), so `resume` continues the same watch — the same
// condition, the trunk tip it started from, the last tip it saw.
import { readdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { StateContinuation } from '../../../generated/state-types.js';
import { writeFileAtomic } from '../state/atomic-write.js';
import { stateRecordOrUndefined } from '../state/state-record.js';
import { newHandle } from '../state/handles.js';

export const CONTINUATION_FORMAT = 1 as const;
const RETENTION_MS = 7 * 24 * 60 * 60 * 1000;
const MAX_RECORDS = 512;

export type Continuation = StateContinuation;

export function continuationsDir(commonDir: string): string {
  return join(commonDir, 'discern', 'continuations');
}

export async function saveContinuation(
  commonDir: string,
  record: Omit<Continuation, 'format' | 'handle' | 'created_at'>,
  handle = newHandle('C1'),
): Promise<Continuation> {
  const dir = continuationsDir(commonDir);
  const full: Continuation = { format: CONTINUATION_FORMAT, handle, created_at: new Date().toISOString(), ...record };
  await writeFileAtomic(join(dir, `${handle}.json`), `${JSON.stringify(full, null, 2)}\n`);
  await prune(dir).catch(() => undefined);
  return full;
}

export async function readContinuation(commonDir: string, handle: string): Promise<Continuation | undefined> {
  const record = await stateRecordOrUndefined('continuation', join(continuationsDir(commonDir), `${handle}.json`));
  if (record === undefined || record.handle !== handle) return undefined;
  if (Date.now() - Date.parse(record.created_at) > RETENTION_MS) return undefined;
  return record;
}

/** A continuation no one will be handed (its watch was met): it must not take a place others need. */
export async function removeContinuation(commonDir: string, handle: string): Promise<void> {
  await rm(join(continuationsDir(commonDir), `${handle}.json`), { force: true }).catch(() => undefined);
}

async function prune(dir: string): Promise<void> {
  const names = (await readdir(dir)).filter((n) => n.endsWith('.json'));
  const dated = await Promise.all(
    names.map(async (name) => ({ name, at: (await stat(join(dir, name)).catch(() => undefined))?.mtimeMs ?? 0 })),
  );
  dated.sort((a, b) => b.at - a.at);
  const now = Date.now();
  for (const [i, f] of dated.entries()) {
    if (i >= MAX_RECORDS || now - f.at > RETENTION_MS) await rm(join(dir, f.name), { force: true });
  }
}
