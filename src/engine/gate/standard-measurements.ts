// The last green measurement of each standard in this checkout (<git-dir>/discern/standard-measurements.json),
// and the replay rule: a standard whose definition is unchanged and whose `inputs` globs cover the same blobs
// as when it was measured gets that value again instead of running its command.
import { createHash } from 'node:crypto';
import type { StandardDefinition } from '../config/standards.js';
import { git, gitComplaint } from '../git/git.js';
import { compilePattern } from '../scopes/index.js';
import { writeFileAtomic } from '../state/atomic-write.js';
import { stateRecordOrUndefined } from '../state/state-record.js';
import { canonicalJson } from './config-digest.js';

export interface Measurement {
  value: number;
  definition_digest: string;
  inputs_digest: string;
  commit: string;
  measured_at: string;
}

interface MeasurementFile {
  format: 1;
  standards: Record<string, Measurement>;
}

/** What determines the value: the command and how its metric is turned into a value (not the limit). */
export function definitionDigest(def: StandardDefinition): string {
  return createHash('sha256')
    .update(canonicalJson({ commands: def.commands, metric: def.metric, per: def.per ?? null, scale: def.scale }))
    .digest('hex');
}

/** A digest of the committed blobs the `inputs` globs select at HEAD. */
export async function inputsDigest(
  inputs: readonly string[],
  cwd: string,
  env: Readonly<Record<string, string | undefined>>,
  listing?: string,
): Promise<string | undefined> {
  const matchers = inputs.map(compilePattern);
  if (matchers.some((m) => !m.ok)) return undefined;
  const text = listing ?? (await lsTree(cwd, env));
  const hash = createHash('sha256');
  for (const entry of text.split('\0')) {
    const tab = entry.indexOf('\t');
    if (tab < 0) continue;
    const path = entry.slice(tab + 1);
    if (matchers.some((m) => m.ok && m.test(path))) hash.update(`${entry}\0`);
  }
  return hash.digest('hex');
}

export async function lsTree(cwd: string, env: Readonly<Record<string, string | undefined>>): Promise<string> {
  const result = await git(['ls-tree', '-r', '-z', '--full-tree', 'HEAD'], { cwd, env });
  if (result.code !== 0) throw new Error(`git ls-tree failed: ${gitComplaint(result)}`);
  return result.stdout;
}

export async function readMeasurements(path: string): Promise<Record<string, Measurement>> {
  const file = await stateRecordOrUndefined('standard-measurements', path);
  const standards: Record<string, Measurement> = {};
  for (const [name, m] of Object.entries(file?.standards ?? {})) if (m !== undefined) standards[name] = m;
  return standards;
}

export async function recordMeasurements(path: string, updates: Record<string, Measurement>): Promise<void> {
  const current = await readMeasurements(path);
  const file: MeasurementFile = { format: 1, standards: { ...current, ...updates } };
  await writeFileAtomic(path, `${JSON.stringify(file, null, 2)}\n`);
}

/** The standards whose last green value can be replayed, with that value. */
export async function replayableStandards(
  standards: readonly StandardDefinition[],
  measurements: Readonly<Record<string, Measurement>>,
  cwd: string,
  env: Readonly<Record<string, string | undefined>>,
): Promise<Map<string, Measurement>> {
  const out = new Map<string, Measurement>();
  const candidates = standards.filter(
    (s) => s.inputs !== undefined && s.measure === 'gate' && measurements[s.name] !== undefined,
  );
  if (candidates.length === 0) return out;
  const listing = await lsTree(cwd, env);
  for (const def of candidates) {
    const last = measurements[def.name] as Measurement;
    if (last.definition_digest !== definitionDigest(def)) continue;
    const digest = await inputsDigest(def.inputs ?? [], cwd, env, listing);
    if (digest !== undefined && digest === last.inputs_digest) out.set(def.name, last);
  }
  return out;
}
