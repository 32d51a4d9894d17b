// The gate's records, each one JSON file written atomically:
//   - the Proof marker (<git-dir>/discern/gate-proof): the commit this checkout proved, with its Proof, so an
//     unchanged HEAD gets it back without running anything;
//   - the last run (<git-dir>/discern/last-gate-run): the verdict on a (tree, config), so an unchanged red
//     tree is refused instead of re-run by reflex;
//   - evidence (<git-common-dir>/discern/evidence/<key>.json), keyed by (tree, config digest, discern
//     version): a green verdict any checkout can replay for a new commit with the identical tree and config.
// Every reader checks the shape it gets: another discern version or a damaged file reads as absent.
import { readdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { DiscernFailedStage, DiscernGateStandard, DiscernProofSummary } from '../../../generated/types.js';
import { readJsonFile, writeFileAtomic } from '../state/atomic-write.js';

export const RECORD_FORMAT = 1;

export interface ProducerVerdict {
  label: string;
  outcome: 'ok' | 'failed' | 'cancelled' | 'skipped';
  duration_ms: number;
}

export interface EvidenceKey {
  tree: string;
  configDigest: string;
  version: string;
}

export interface ProofMarker {
  format: number;
  commit: string;
  tree: string;
  config_digest: string;
  /** The configuration's identity in full (canonical JSON): compared without hashing on the reuse path. */
  config_canonical: string;
  discern_version: string;
  mode: 'strict' | 'report';
  recorded_at: string;
  handle?: string;
  proof: DiscernProofSummary;
  markdown: string;
  /** The scopes the proven change activates, returned again when the Proof is reused. */
  scopes_changed?: string[];
  producers: ProducerVerdict[];
  standards: DiscernGateStandard[];
  /** The checkpoint declarations the Proof was recorded with (checkpoints/store.ts declarationsIdentity): a
   *  changed one makes the marker stale. Absent in markers written before checkpoints: no declarations. */
  checkpoint_declarations?: string;
}

export interface LastRun {
  format: number;
  commit: string;
  tree: string;
  config_digest: string;
  discern_version: string;
  verdict: 'green' | 'red';
  failed_stage: DiscernFailedStage | null;
  /** What the run's plan ran, standards aside: a red verdict stands only for the same plan. */
  plan?: string[];
  /** A red run's verdict per producer (failed, passed, or skipped after the failure): what an emergency
   *  integration lists as failed or never run (docs/decisions/0029-emergency-integration.md). */
  producers?: ProducerVerdict[];
  at: string;
  handle?: string;
}

export interface Evidence {
  format: number;
  tree: string;
  config_digest: string;
  discern_version: string;
  /** The commit the gate actually ran on. */
  commit: string;
  recorded_at: string;
  producers: ProducerVerdict[];
  standards: DiscernGateStandard[];
}

export type MarkerRead =
  { state: 'missing' } | { state: 'unreadable'; detail: string } | { state: 'present'; marker: ProofMarker };

export async function readProofMarker(path: string): Promise<MarkerRead> {
  const read = await readJsonFile<ProofMarker>(path);
  if (!read.ok) return read.reason === 'missing' ? { state: 'missing' } : { state: 'unreadable', detail: read.detail };
  const m = read.value;
  if (
    !isRecord(m) ||
    m.format !== RECORD_FORMAT ||
    typeof m.commit !== 'string' ||
    typeof m.config_canonical !== 'string' ||
    !isRecord(m.proof)
  ) {
    return { state: 'unreadable', detail: `${path} is not a Proof marker this discern can read` };
  }
  return { state: 'present', marker: m };
}

export function writeProofMarker(path: string, marker: ProofMarker): Promise<void> {
  return writeFileAtomic(path, `${JSON.stringify(marker, null, 2)}\n`);
}

/** Whether the marker proves exactly this commit under this configuration (canonical JSON) and discern version. */
export function markerIsCurrent(marker: ProofMarker, head: string, configCanonical: string, version: string): boolean {
  return marker.commit === head && marker.config_canonical === configCanonical && marker.discern_version === version;
}

export async function readLastRun(path: string): Promise<LastRun | undefined> {
  const read = await readJsonFile<LastRun>(path);
  if (!read.ok || !isRecord(read.value) || read.value.format !== RECORD_FORMAT || typeof read.value.tree !== 'string')
    return undefined;
  return read.value;
}

export function writeLastRun(path: string, run: LastRun): Promise<void> {
  return writeFileAtomic(path, `${JSON.stringify(run, null, 2)}\n`);
}

/** node:crypto loads here, on use: the reuse path, which never reads evidence, does not pay for it. */
export async function evidencePath(dir: string, key: EvidenceKey): Promise<string> {
  const { createHash } = await import('node:crypto');
  const id = createHash('sha256').update(`${key.tree}\0${key.configDigest}\0${key.version}`).digest('hex');
  return join(dir, `${id}.json`);
}

export async function readEvidence(dir: string, key: EvidenceKey): Promise<Evidence | undefined> {
  const read = await readJsonFile<Evidence>(await evidencePath(dir, key));
  if (!read.ok || !isRecord(read.value)) return undefined;
  const e = read.value;
  // The key is re-checked from the content: a hash collision or a hand-edited file must not replay.
  if (
    e.format !== RECORD_FORMAT ||
    e.tree !== key.tree ||
    e.config_digest !== key.configDigest ||
    e.discern_version !== key.version ||
    typeof e.commit !== 'string'
  )
    return undefined;
  return e;
}

export const EVIDENCE_CAPACITY = 512;

export async function writeEvidence(dir: string, evidence: Evidence): Promise<void> {
  await writeFileAtomic(
    await evidencePath(dir, {
      tree: evidence.tree,
      configDigest: evidence.config_digest,
      version: evidence.discern_version,
    }),
    `${JSON.stringify(evidence, null, 2)}\n`,
  );
  await pruneEvidence(dir, EVIDENCE_CAPACITY);
}

/**
 * Keeps the store bounded: past capacity (plus some slack, so pruning is rare) the least recently written
 * records go. Losing one only costs a re-run of that tree.
 */
export async function pruneEvidence(dir: string, capacity: number): Promise<number> {
  const names = (await readdir(dir).catch(() => [] as string[])).filter((n) => n.endsWith('.json'));
  if (names.length <= capacity + Math.ceil(capacity / 8)) return 0;
  const aged = await Promise.all(
    names.map(async (name) => ({ name, mtime: (await stat(join(dir, name)).catch(() => ({ mtimeMs: 0 }))).mtimeMs })),
  );
  aged.sort((a, b) => a.mtime - b.mtime);
  const doomed = aged.slice(0, aged.length - capacity);
  await Promise.all(doomed.map((d) => rm(join(dir, d.name), { force: true })));
  return doomed.length;
}

function isRecord<T>(value: T): value is T & Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
