// Continuations of waits that ran out of budget: `<git-common-dir>/discern/continuations/<C1 handle>.json`,
// kept 7 days and at most 512 (the oldest go first), so `resume` continues the same watch — the same
// condition, the trunk tip it started from, the last tip it saw.
import { readdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { readJsonFile, writeFileAtomic } from '../state/atomic-write.js';
import { newHandle } from '../state/handles.js';

export const CONTINUATION_FORMAT = 1;
const RETENTION_MS = 7 * 24 * 60 * 60 * 1000;
const MAX_RECORDS = 512;

export interface Continuation {
  format: typeof CONTINUATION_FORMAT;
  handle: string;
  condition: 'green' | 'landed' | 'trunk-moved';
  /** The effort as the caller named it (green, landed). */
  target?: string;
  effort?: string;
  branch?: string;
  trunk: string;
  trunk_start: string;
  last_tip?: string;
  created_at: string;
}

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
  const read = await readJsonFile<Continuation>(join(continuationsDir(commonDir), `${handle}.json`));
  if (!read.ok || read.value?.format !== CONTINUATION_FORMAT) return undefined;
  if (Date.now() - Date.parse(read.value.created_at) > RETENTION_MS) return undefined;
  return read.value;
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
