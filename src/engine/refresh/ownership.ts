// Which parts of shared files are discern's. refresh writes into files their owners also edit: the `discern`
// entry of an MCP server map (.mcp.json, .cursor/mcp.json, .vscode/mcp.json, .gemini/settings.json), the
// Claude Code hook group in .claude/settings.json, and the regions of CLAUDE.md, AGENTS.md, GEMINI.md, the ADR
// index and .codex/config.toml. What refresh writes is recorded as a digest in
// <git-common-dir>/discern/refresh-ownership.json, so a later version that writes something else still knows
// the old part for its own, and a part edited by hand is told from one discern wrote. The ledger belongs to one
// clone, so a region also carries the digest of its body in its begin line, which travels with the committed
// file (isDiscernsRegion). A part that is not discern's is the user's: refresh and uninstall leave it as it is
// and say how to hand it back.
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { writeFileAtomic } from '../state/atomic-write.js';
import { stateRecordOrUndefined } from '../state/state-record.js';
import type { JsonValue } from '../wiring/jsonc.js';
import { bodyStamp } from '../wiring/regions.js';

/** What discern versions before the ledger wrote as an MCP entry: theirs whatever the ledger says. */
const EARLIER_ENTRIES: readonly JsonValue[] = [{ command: 'discern', args: ['mcp'] }];
/** The ledger's bounds (spec/state/refresh-ownership.schema.json): the newest digests of the newest keys. */
const MAX_DIGESTS = 16;
const MAX_KEYS = 64;

export type Ownership = Readonly<Record<string, readonly string[]>>;

/** A part discern wrote (or found as it would write it): where, and the digest of what it holds. */
export interface OwnedPart {
  key: string;
  digest: string;
}

/** Where the ledger is: under the git common dir, so every worktree of the repository shares it. */
export function ledgerPath(commonDir: string): string {
  return join(commonDir, 'discern', 'refresh-ownership.json');
}

/** The key of a member of a JSON file, such as `.mcp.json#mcpServers.discern`. */
export function ownershipKey(path: string, keys: readonly string[]): string {
  return `${path}#${keys.join('.')}`;
}

/** The key of discern's element in the list at `keys`, such as `.claude/settings.json#hooks.SessionStart[discern]`. */
export function groupKey(path: string, keys: readonly string[]): string {
  return `${ownershipKey(path, keys)}[discern]`;
}

/** The key of discern's region in a text file, such as `CLAUDE.md#region:instructions`. */
export function regionKey(path: string, name: string): string {
  return `${path}#region:${name}`;
}

/** sha256 of the value as canonical JSON (keys sorted), so formatting and key order do not matter. */
export function entryDigest(value: JsonValue): string {
  return createHash('sha256').update(canonical(value)).digest('hex');
}

/** sha256 of a region's text with LF line breaks, so a checkout that turns them into CRLF is not an edit. */
export function regionDigest(text: string): string {
  return entryDigest(text.replace(/\r\n/g, '\n'));
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

/** Whether the MCP entry now in the file is one discern wrote (now, earlier, or per the ledger). */
export function isDiscernsEntry(value: JsonValue, ours: readonly JsonValue[], key: string, owned: Ownership): boolean {
  return isWritten(entryDigest(value), ours, EARLIER_ENTRIES, owned[key]);
}

/** Whether a hook group that runs discern's session context is one discern wrote (now, earlier, or per the ledger). */
export function isDiscernsGroup(value: JsonValue, ours: readonly JsonValue[], key: string, owned: Ownership): boolean {
  return isWritten(entryDigest(value), ours, [], owned[key]);
}

/** What this version writes (in any of its forms), what earlier ones wrote, or what the ledger recorded. */
function isWritten(
  digest: string,
  ours: readonly JsonValue[],
  earlier: readonly JsonValue[],
  recorded: readonly string[] | undefined,
): boolean {
  return [...ours, ...earlier].some((e) => entryDigest(e) === digest) || (recorded ?? []).includes(digest);
}

/**
 * Whether the region now in a file is discern's. A region's text depends on the project (its instruction
 * sources, its decision records), so what earlier versions wrote cannot be listed as the entries' can. The
 * files that hold regions are usually committed, so the evidence has to travel with them: refresh writes the
 * digest of a region's body into its begin line (bodyStamp in wiring/regions.ts). The region is discern's when
 *   1. its body matches the digest its own begin line carries: written by discern on this clone or any other
 *      (a teammate's refresh, committed and pulled), however the inputs have changed since;
 *   2. it holds a text the ledger recorded for its key (this clone wrote it, or found it as it would write it);
 *   3. it holds what refresh would write now (`ours`);
 *   4. it holds nothing at all: emptying it is how the user hands it back; or
 *   5. its begin line carries no digest and the ledger has no record for its key: an earlier discern wrote it,
 *      before regions carried a digest and before the ledger, and nothing shows it was edited.
 * Otherwise it is the user's: its body no longer matches its digest (edited by hand, which every clone can
 * tell, a fresh one without a ledger too), or it has no digest and this clone's ledger has records that it
 * matches none of. Line breaks do not count in either digest.
 */
export function isDiscernsRegion(
  region: { text: string; inner: string; stamp?: string | undefined },
  ours: string | undefined,
  key: string,
  owned: Ownership,
): boolean {
  if (region.inner.trim() === '') return true;
  if (region.stamp !== undefined && region.stamp === bodyStamp(region.inner)) return true;
  const digest = regionDigest(region.text);
  if (ours !== undefined && digest === regionDigest(ours)) return true;
  const recorded = owned[key];
  if (recorded === undefined) return region.stamp === undefined;
  return recorded.includes(digest);
}

/**
 * Records that discern wrote these parts, keeping the newest digests of the keys written most recently, and
 * writes nothing when the ledger already says so. Called under the edit lock.
 */
export async function recordOwned(commonDir: string, parts: readonly OwnedPart[]): Promise<void> {
  if (parts.length === 0) return;
  const before = await readOwnership(commonDir);
  const entries: Record<string, readonly string[]> = {};
  // The keys written now come first, so the bound on keys lets go of the ones refresh has not written longest.
  for (const { key, digest } of parts)
    entries[key] = [digest, ...(entries[key] ?? before[key] ?? []).filter((d) => d !== digest)].slice(0, MAX_DIGESTS);
  for (const [key, digests] of Object.entries(before)) if (!(key in entries)) entries[key] = digests;
  const kept = Object.fromEntries(Object.entries(entries).slice(0, MAX_KEYS));
  if (sameEntries(before, kept)) return;
  await writeFileAtomic(ledgerPath(commonDir), `${JSON.stringify({ format: 1, entries: kept }, null, 2)}\n`);
}

function sameEntries(a: Ownership, b: Ownership): boolean {
  const keys = Object.keys(a);
  return (
    keys.length === Object.keys(b).length &&
    keys.every((k) => {
      const x = a[k] ?? [];
      const y = b[k];
      return y !== undefined && x.length === y.length && x.every((d, i) => d === y[i]);
    })
  );
}
