// Which entries in shared files are discern's: refresh writes its MCP server entry into files their owners also
// edit (.mcp.json, .cursor/mcp.json, .vscode/mcp.json, .gemini/settings.json). An entry equal to what this or
// an earlier discern wrote is discern's to replace or remove; any other `discern` entry is the user's own
// (another path, arguments, environment) and is left as it is. What refresh writes is recorded as a digest in
// <git-common-dir>/discern/refresh-ownership.json, so a later version that writes another entry still knows
// the old one for its own.
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { writeFileAtomic } from '../state/atomic-write.js';
import { stateRecordOrUndefined } from '../state/state-record.js';
import type { JsonValue } from '../wiring/jsonc.js';

/** What discern versions before the ledger wrote: theirs whatever the ledger says. */
const EARLIER_ENTRIES: readonly JsonValue[] = [{ command: 'discern', args: ['mcp'] }];

export type Ownership = Readonly<Record<string, readonly string[]>>;

function ledgerPath(commonDir: string): string {
  return join(commonDir, 'discern', 'refresh-ownership.json');
}

export function ownershipKey(path: string, keys: readonly string[]): string {
  return `${path}#${keys.join('.')}`;
}

/** sha256 of the value as canonical JSON (keys sorted), so formatting and key order do not matter. */
export function entryDigest(value: JsonValue): string {
  return createHash('sha256').update(canonical(value)).digest('hex');
}

function canonical(value: JsonValue): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value !== null && typeof value === 'object')
    return `{${Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical(value[k] as JsonValue)}`)
      .join(',')}}`;
  return JSON.stringify(value);
}

export async function readOwnership(commonDir: string): Promise<Ownership> {
  const entries = (await stateRecordOrUndefined('refresh-ownership', ledgerPath(commonDir)))?.entries ?? {};
  const owned: Record<string, readonly string[]> = {};
  for (const [key, digests] of Object.entries(entries)) if (digests !== undefined) owned[key] = digests;
  return owned;
}

/** Whether the entry now in the file is one discern wrote (now, earlier, or per the ledger). */
export function isDiscernsEntry(value: JsonValue, ours: JsonValue, key: string, owned: Ownership): boolean {
  const digest = entryDigest(value);
  return (
    digest === entryDigest(ours) ||
    EARLIER_ENTRIES.some((e) => entryDigest(e) === digest) ||
    (owned[key] ?? []).includes(digest)
  );
}

/** Records that discern wrote `value` at `key`, keeping the newest digests. Called under the edit lock. */
export async function recordOwned(
  commonDir: string,
  written: readonly { key: string; value: JsonValue }[],
): Promise<void> {
  if (written.length === 0) return;
  const entries: Record<string, string[]> = {};
  for (const [key, digests] of Object.entries(await readOwnership(commonDir))) entries[key] = [...digests];
  for (const { key, value } of written) {
    const digest = entryDigest(value);
    entries[key] = [digest, ...(entries[key] ?? []).filter((d) => d !== digest)].slice(0, 16);
  }
  await writeFileAtomic(ledgerPath(commonDir), `${JSON.stringify({ format: 1, entries }, null, 2)}\n`);
}
