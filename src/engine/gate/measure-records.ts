// Records the values of a green measurement on a clean, committed tree as the standards' replay and pin
// baseline (<git-dir>/discern/standard-measurements.json), as done records its own. A failure to record costs
// only a re-measure later, so it is swallowed.
import type { GateRun } from './execute.js';
import {
  definitionDigest,
  inputsDigest,
  lsTree,
  recordMeasurements,
  type Measurement,
} from './standard-measurements.js';

export async function recordMeasured(
  path: string,
  gateRun: GateRun,
  commit: string,
  root: string,
  env: Readonly<Record<string, string | undefined>>,
): Promise<void> {
  const updates: Record<string, Measurement> = {};
  let listing: string | undefined;
  for (const r of gateRun.runs) {
    const def = r.producer.standard;
    if (!def || !r.standard?.ok || r.outcome !== 'ok') continue;
    listing ??= await lsTree(root, env).catch(() => undefined);
    const digest = def.inputs && listing !== undefined ? await inputsDigest(def.inputs, root, env, listing) : undefined;
    updates[def.name] = {
      value: r.standard.value,
      definition_digest: definitionDigest(def),
      inputs_digest: digest ?? '',
      commit,
      measured_at: new Date().toISOString(),
    };
  }
  if (Object.keys(updates).length > 0) await recordMeasurements(path, updates).catch(() => undefined);
}
