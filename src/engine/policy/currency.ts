// Whether the trunk's policy is still the one a Proof was judged under. The trunk's commit is read from the ref
// files (no git process): while it is the commit the marker names, the policy is unchanged. When the trunk has
// moved, its discern.toml is read once and its policy digest compared, so a landing that left discern.toml's
// policy alone keeps every other effort's Proof current.
import { knownValidIn } from '../config/known-valid.js';
import { join } from 'node:path';
import { git } from '../git/git.js';
import { localBranchTip } from '../git/local-branch.js';
import { trunkConfigCommand } from '../gate/trunk-limits.js';
import { trunkPolicyFrom, type TrunkPolicy } from './trunk-policy.js';

type Env = Readonly<Record<string, string | undefined>>;

export interface PolicyFacts {
  root: string;
  commonDir: string;
  trunk: string;
  env: Env;
  signal?: AbortSignal;
}

/** The trunk's policy now, with the commit it was read at. */
export async function readTrunkPolicy(f: PolicyFacts): Promise<{ tip: string | undefined; policy: TrunkPolicy }> {
  const run = { cwd: f.root, env: f.env, ...(f.signal ? { signal: f.signal } : {}) };
  const tip = await localBranchTip(f.commonDir, f.trunk, run);
  const shown = await git(trunkConfigCommand(tip ?? `refs/heads/${f.trunk}`), run);
  return { tip, policy: await trunkPolicyFrom(shown, f.trunk, trunkKnownValid(f.commonDir)) };
}

export function trunkKnownValid(commonDir: string): ReturnType<typeof knownValidIn> {
  return knownValidIn(join(commonDir, 'discern', 'config-valid'));
}
