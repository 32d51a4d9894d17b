// Whether a Proof marker's recorded policy is the trunk's policy now, on done's reuse path: while the trunk's
// commit (read from the ref files) is the one the marker names, nothing more is read. Only when the trunk has
// moved does the policy reader load (currency.ts, with the trunk's config and its TOML decoder).
import { localBranchTip } from '../git/local-branch.js';
import type { PolicyFacts } from './currency.js';

export async function policyStillCurrent(
  recorded: { policy_digest?: string; policy_trunk_tip?: string },
  f: PolicyFacts,
): Promise<boolean> {
  if (recorded.policy_digest === undefined) return false;
  const run = { cwd: f.root, env: f.env, ...(f.signal ? { signal: f.signal } : {}) };
  const tip = await localBranchTip(f.commonDir, f.trunk, run);
  if (tip !== undefined && tip === recorded.policy_trunk_tip) return true;
  const { readTrunkPolicy } = await import('./currency.js');
  const now = await readTrunkPolicy(f);
  return now.policy.state !== 'unreadable' && now.policy.digest === recorded.policy_digest;
}
