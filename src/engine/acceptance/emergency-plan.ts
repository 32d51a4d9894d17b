// The plan of an emergency integration, made from facts and running nothing: the trunk and its tip, the repair
// revision, the reason, and the checks that fail, never ran or are stale on it. It is refused when it is not an
// emergency (the repair is green: land it ordinarily), when it lands nothing, when the repair does not include
// the actual trunk (it would move the trunk backwards or sideways), or when it carries another effort's
// unlanded work (an exception covers one repair, never a sibling riding along).
import type { DiscernConfig } from '../../../generated/types.js';
import { configIdentity } from '../gate/canonical-json.js';
import { configDigest } from '../gate/config-digest.js';
import type { GateConfig } from '../gate/gate-config.js';
import { DEFAULT_BRANCH_PREFIX } from '../config/defaults.js';
import { git } from '../git/git.js';
import { classify } from '../scopes/index.js';
import type { ApprovedPlan } from './emergency-approval.js';
import { classifyChecks, plannedChecks, readCheckRecords, type EvidenceRow } from './emergency-checks.js';
import type { Effort } from './efforts.js';
import { changedPaths } from './queue-view.js';
import { submissions, type AcceptancePaths } from './records.js';

type Env = Readonly<Record<string, string | undefined>>;

export interface EmergencyPlan extends ApprovedPlan {
  repair: ApprovedPlan['repair'] & { path: string };
  evidence: EvidenceRow[];
}

export type PlanProblem =
  | { kind: 'nothing_to_land' | 'trunk_not_included' | 'green' | 'nothing_fails'; message: string }
  | { kind: 'other_efforts'; message: string; others: string[] };

export interface PlanFacts {
  run: { cwd: string; env: Env };
  trunk: string;
  effort: Effort;
  head: string;
  reason: string;
  gate: GateConfig;
  config: DiscernConfig;
  version: string;
  /** Every effort of the repository (the repair's among them). */
  efforts: readonly Effort[];
  paths: AcceptancePaths;
}

export async function planEmergency(
  facts: PlanFacts,
): Promise<{ ok: true; plan: EmergencyPlan } | { ok: false; problem: PlanProblem }> {
  const { run, trunk, effort, head } = facts;
  const tip = (await git(['rev-parse', '--verify', '--quiet', `refs/heads/${trunk}`], run)).stdout.trim();
  const isAncestor = async (a: string, b: string): Promise<boolean> =>
    (await git(['merge-base', '--is-ancestor', a, b], run)).code === 0;
  if (tip === '' || (await isAncestor(head, tip))) {
    return {
      ok: false,
      problem: {
        kind: 'nothing_to_land',
        message: `${effort.branch} at ${head.slice(0, 12)} is already on ${trunk}: there is nothing to land`,
      },
    };
  }
  if (!(await isAncestor(tip, head))) {
    return {
      ok: false,
      problem: {
        kind: 'trunk_not_included',
        message: `${effort.branch} at ${head.slice(0, 12)} does not include ${trunk}'s tip ${tip.slice(0, 12)}: an emergency landing fast-forwards the trunk to the repair, so the repair must be built on the actual trunk. Run \`discern update\` in its worktree (${effort.path}), commit, then ask again`,
      },
    };
  }

  const changed = await changedPaths(run, trunk, head);
  const scopes = classify(
    changed.map((path) => ({ path })),
    facts.gate.scopes,
  ).scopes;
  const records = await readCheckRecords(effort.gitDir, facts.paths.commonDir);
  const classified = classifyChecks({
    head,
    planned: plannedChecks(facts.gate, scopes),
    configCanonical: configIdentity(facts.config, trunk),
    configDigest: configDigest(facts.config, trunk),
    version: facts.version,
    ...records,
  });
  if (classified.green) {
    return {
      ok: false,
      problem: {
        kind: 'green',
        message: `${effort.branch} at ${head.slice(0, 12)} is green: it needs no exception. Land it with ordinary acceptance (no action), which records its Proof`,
      },
    };
  }
  const { checks } = classified;
  if (checks.failed.length + checks.never_ran.length + checks.stale.length === 0) {
    return {
      ok: false,
      problem: {
        kind: 'nothing_fails',
        message: `nothing fails, is missing or stale on ${effort.branch} at ${head.slice(0, 12)}, yet it has no Proof: run done in its worktree (${effort.path}) for Proof, then land it ordinarily`,
      },
    };
  }

  const others = await unlandedWorkInside(facts, tip, isAncestor);
  if (others.length > 0) {
    return {
      ok: false,
      problem: {
        kind: 'other_efforts',
        others,
        message: `${effort.branch} at ${head.slice(0, 12)} carries other efforts' unlanded work (${others.join('; ')}): an emergency landing covers one repair only. Rebuild the repair on ${trunk} without it, then ask again`,
      },
    };
  }
  return {
    ok: true,
    plan: {
      trunk: { name: trunk, tip },
      repair: { effort: effort.id, branch: effort.branch, path: effort.path, head },
      reason: facts.reason,
      checks,
      evidence: classified.evidence,
    },
  };
}

/**
 * Other efforts' work the repair contains: the tip of another effort's branch (its worktree's, or a branch under
 * the effort prefix no worktree holds) or another submission's commit, off the trunk and inside the repair.
 */
async function unlandedWorkInside(
  facts: PlanFacts,
  tip: string,
  isAncestor: (a: string, b: string) => Promise<boolean>,
): Promise<string[]> {
  const { run, effort, head } = facts;
  const candidates = new Map<string, string>();
  for (const other of facts.efforts) {
    if (other.id === effort.id || other.branch === effort.branch) continue;
    const at = (await git(['rev-parse', '--verify', '--quiet', `refs/heads/${other.branch}`], run)).stdout.trim();
    if (at !== '') candidates.set(`${at}\0${other.id}`, `effort ${other.id} (${other.branch} at ${at.slice(0, 12)})`);
  }
  for (const s of await submissions.all(facts.paths)) {
    if (s.effort === effort.id) continue;
    candidates.set(`${s.head}\0${s.effort}`, `the submission of ${s.effort} (${s.head.slice(0, 12)})`);
  }
  const prefix = facts.config.repository?.branch_prefix ?? DEFAULT_BRANCH_PREFIX;
  const listed = await git(['for-each-ref', '--format=%(objectname) %(refname)', `refs/heads/${prefix}`], run);
  for (const line of listed.stdout.split('\n').filter(Boolean)) {
    const [at = '', ref = ''] = line.split(' ');
    const branch = ref.slice('refs/heads/'.length);
    if (branch === effort.branch || facts.efforts.some((e) => e.branch === branch)) continue;
    candidates.set(`${at}\0${branch}`, `branch ${branch} (${at.slice(0, 12)})`);
  }
  const found: string[] = [];
  for (const [key, description] of candidates) {
    const at = key.split('\0')[0] ?? '';
    if (at === '' || at === tip) continue;
    if ((await isAncestor(at, head)) && !(await isAncestor(at, tip))) found.push(description);
  }
  return found.sort();
}
