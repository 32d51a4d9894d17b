// The gate's records, each one JSON file written atomically:
//   - the Proof marker (<git-dir>/discern/gate-proof): the commit this checkout proved, with its Proof, so an
//     unchanged HEAD gets it back without running anything;
//   - the last run (<git-dir>/discern/last-gate-run): the verdict on a (tree, config), so an unchanged red
//     tree is refused instead of re-run by reflex;
//   - evidence (<git-common-dir>/discern/evidence/<key>.json), keyed by (tree, config digest, discern
//     version): a green verdict any checkout can replay for a new commit with the identical tree and config.
// Each is read through the one state reader (spec/state/{proof-marker,last-run,evidence}.schema.json): another
// discern's shape or a damaged file reads as absent and is reported, never trusted.
import { readdir, rm, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type {
  StateEvidence,
  StateLastRun,
  StateProducerVerdict,
  StateProofMarker,
} from '../../../generated/state-types.js';
import { readSealedRecord, sealedRecordOrUndefined } from '../state/state-record.js';
import { writeSealed } from '../state/seal.js';

export const RECORD_FORMAT = 1 as const;

export type ProducerVerdict = StateProducerVerdict;

export interface EvidenceKey {
  tree: string;
  configDigest: string;
  version: string;
}

export type ProofMarker = StateProofMarker;
export type LastRun = StateLastRun;
export type Evidence = StateEvidence;

export type MarkerRead =
  { state: 'missing' } | { state: 'unreadable'; detail: string } | { state: 'present'; marker: ProofMarker };

/** `commonDir`: the repository's git common dir, whose key the marker's MAC must hold under. */
export async function readProofMarker(path: string, commonDir: string): Promise<MarkerRead> {
  const read = await readSealedRecord('proof-marker', path, commonDir);
  if (read.ok) return { state: 'present', marker: read.value };
  return read.reason === 'missing' ? { state: 'missing' } : { state: 'unreadable', detail: read.detail };
}

export function writeProofMarker(path: string, marker: ProofMarker, commonDir: string): Promise<void> {
  return writeSealed('proof-marker', path, marker, commonDir);
}

/** Whether the marker proves exactly this commit under this configuration (canonical JSON) and discern version. */
export function markerIsCurrent(marker: ProofMarker, head: string, configCanonical: string, version: string): boolean {
  return marker.commit === head && marker.config_canonical === configCanonical && marker.discern_version === version;
}

export function readLastRun(path: string, commonDir: string): Promise<LastRun | undefined> {
  return sealedRecordOrUndefined('last-run', path, commonDir);
}

export function writeLastRun(path: string, run: LastRun, commonDir: string): Promise<void> {
  return writeSealed('last-run', path, run, commonDir);
}

/** node:crypto loads here, on use: the reuse path, which never reads evidence, does not pay for it. */
export async function evidencePath(dir: string, key: EvidenceKey): Promise<string> {
  const { createHash } = await import('node:crypto');
  const id = createHash('sha256').update(`${key.tree}\0${key.configDigest}\0${key.version}`).digest('hex');
  return join(dir, `${id}.json`);
}

/** The evidence store is <git-common-dir>/discern/evidence: its records seal under that repository's key. */
function storeRepository(dir: string): string {
  return dirname(dirname(dir));
}

export async function readEvidence(dir: string, key: EvidenceKey): Promise<Evidence | undefined> {
  const e = await sealedRecordOrUndefined('evidence', await evidencePath(dir, key), storeRepository(dir));
  // The key is re-checked from the content: a hash collision or a hand-edited file must not replay.
  if (
    e === undefined ||
    e.tree !== key.tree ||
    e.config_digest !== key.configDigest ||
    e.discern_version !== key.version
  )
    return undefined;
  return e;
}

export const EVIDENCE_CAPACITY = 512;

export async function writeEvidence(dir: string, evidence: Evidence): Promise<void> {
  await writeSealed(
    'evidence',
    await evidencePath(dir, {
      tree: evidence.tree,
      configDigest: evidence.config_digest,
      version: evidence.discern_version,
    }),
    evidence,
    storeRepository(dir),
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
