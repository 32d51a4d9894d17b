// The trunk's policy at accept (docs/decisions/0047). Authority — [acceptance] pre_authorized and the [scopes]
// it names — comes from the discern.toml committed at the trunk's tip, never from the effort's; and an effort
// whose discern.toml edits that policy (drops or edits a job, loosens a gate setting, widens authority) lands
// only with the owner's approval of those changes: approve_policy with confirmed (or with the CLI grant).
import { withVariables } from '../engine/config/substitutions.js';
import type { AcceptOutcome } from '../../generated/handlers.js';
import type { DiscernAcceptInput, DiscernConfig, DiscernPolicyChange } from '../../generated/types.js';
import { decodeToml } from '../engine/config/toml.js';
import { gateConfig } from '../engine/gate/gate-config.js';
import { git } from '../engine/git/git.js';
import type { CompiledScope } from '../engine/scopes/index.js';
import { effortPolicyChanges as effortChanges, needsPolicyApproval } from '../engine/policy/compare.js';
import { readTrunkPolicy, trunkKnownValid, type PolicyFacts } from '../engine/policy/currency.js';
import { trunkPolicyFrom } from '../engine/policy/trunk-policy.js';
import { trunkConfigCommand } from '../engine/gate/trunk-limits.js';
import { touchesPolicyFile } from '../engine/policy/policy-files.js';
import { readPolicyFileChanges } from '../engine/policy/policy-files-read.js';

export interface Governing {
  /** The trunk's commit the policy was read at. */
  tip: string | undefined;
  digest: string;
  config: DiscernConfig;
  scopes: readonly CompiledScope[];
  preAuthorized: readonly string[];
}

export async function governingPolicy(
  facts: PolicyFacts,
): Promise<{ ok: true; governing: Governing } | { ok: false; refusal: AcceptOutcome }> {
  const { tip, policy } = await readTrunkPolicy(facts);
  if (policy.state === 'absent')
    return {
      ok: false,
      refusal: {
        refusal: {
          error: 'precondition_failed',
          message: `${facts.trunk} has no discern.toml, so no policy of the owner's says what a change must pass or who may land it. A first configuration lands only by the owner's own act: \`discern setup accept\` in the main checkout.`,
          next: { rerun: 'discern setup accept' },
        },
      },
    };
  if (policy.state === 'unreadable')
    return {
      ok: false,
      refusal: {
        refusal: {
          error: 'invalid_config',
          message: `The trunk's policy cannot be read: ${policy.reason}. Nothing can be judged against it; fix discern.toml on ${facts.trunk} first.`,
          next: { file: 'discern.toml', where: `${facts.trunk}:discern.toml` },
        },
      },
    };
  const compiled = gateConfig(policy.config);
  if (!compiled.ok) {
    const [first] = compiled.issues;
    return {
      ok: false,
      refusal: {
        data: { issues: compiled.issues },
        refusal: {
          error: 'invalid_config',
          message: `${facts.trunk}:discern.toml: \`${first.path}\` ${first.message}; fix it on ${facts.trunk} first.`,
          next: { file: 'discern.toml', where: `${facts.trunk}:discern.toml, key \`${first.path}\`` },
        },
      },
    };
  }
  return {
    ok: true,
    governing: {
      tip,
      digest: policy.digest,
      config: policy.config,
      scopes: compiled.gate.scopes,
      preAuthorized: policy.config.acceptance?.pre_authorized ?? [],
    },
  };
}

/**
 * How the effort's committed discern.toml at head changes the governing policy: its own edits since the merge-base
 * with the trunk, judged against the trunk's tip (compare.ts).
 */
export async function effortPolicyChanges(
  governing: Governing,
  cwd: string,
  env: Readonly<Record<string, string | undefined>>,
  head: string,
  trunkRef: string,
  /** The paths the effort changes since its merge-base: a policy file among them is read and judged too. */
  changed: readonly string[],
): Promise<DiscernPolicyChange[]> {
  const run = { cwd, env };
  const mergeBase = await git(['merge-base', trunkRef, head], run);
  const base = mergeBase.code === 0 ? mergeBase.stdout.trim() : null;
  const [atHead, atBase, files] = await Promise.all([
    committedConfig(run, head),
    base !== null ? committedConfig(run, base) : Promise.resolve({}),
    touchesPolicyFile(changed) ? readPolicyFileChanges(run, { trunk: trunkRef, base, head }) : [],
  ]);
  return [...effortChanges(governing.config, atBase, atHead), ...files];
}

/** A commit's discern.toml as TOML decodes it; without a readable one it sets no rule at all. */
async function committedConfig(
  run: { cwd: string; env: Readonly<Record<string, string | undefined>> },
  commit: string,
): Promise<DiscernConfig> {
  const shown = await git(['cat-file', 'blob', `${commit}:discern.toml`], run);
  if (shown.code !== 0) return {};
  const decoded = decodeToml(Buffer.from(shown.stdout, 'utf8'), `${commit.slice(0, 12)}:discern.toml`);
  return decoded.ok ? withVariables((decoded.value ?? {}) as DiscernConfig).config : {};
}

export type PolicyApproval =
  { ok: true; approved: boolean } | { ok: false; required: DiscernPolicyChange[]; message: string };

export function policyApproval(
  input: DiscernAcceptInput,
  changes: readonly DiscernPolicyChange[],
  effort: { id: string; branch: string },
  head: string,
  trunk: string,
  mcp: boolean,
  /** The person is asked before the landing (accept-consent.ts): their answer approves the changes it lists. */
  personAsked = false,
): PolicyApproval {
  const required = needsPolicyApproval(changes);
  if (required.length === 0) return { ok: true, approved: false };
  if (personAsked) return { ok: true, approved: true };
  if (input.approve_policy === true && (input.confirmed === true || input.grant === true))
    return { ok: true, approved: true };
  const listed = required.map((c) => c.sentence ?? c.key).join('; ');
  const call = mcp
    ? 'discern_accept again with approve_policy: true and confirmed: true'
    : `\`discern accept ${effort.id} --confirmed --approve-policy\``;
  return {
    ok: false,
    required,
    message: `Landing ${effort.branch} at ${head.slice(0, 12)} changes the policy ${trunk}'s discern.toml sets, which only the owner can approve (no grant or pre_authorized scope covers it): ${listed}. Relay each change to the owner; if they approve, call ${call}. Otherwise restore ${trunk}'s rules on the branch, commit, and run done again.`,
  };
}

/** The policy a landing was decided under, and the changes to it the landing carries. */
export interface LandingPolicy {
  digest: string;
  tip: string | undefined;
  changes: DiscernPolicyChange[];
  approved: boolean;
}

/** The dry run's lines about policy changes: how many, and how many the owner would have to approve. */
export function policyDetails(changes: readonly DiscernPolicyChange[]): string[] {
  if (changes.length === 0) return [];
  const approval = needsPolicyApproval(changes).length;
  return [
    `${changes.length} policy change${changes.length === 1 ? '' : 's'} to the trunk's discern.toml${approval > 0 ? `, ${approval} needing the owner's approval (approve_policy)` : ''}`,
  ];
}

/**
 * Why the trunk's policy at `trunkNow` is not the one the landing was decided under, or undefined when it is.
 * The same commit needs no read; a moved trunk is read once and its digest compared.
 */
export async function policyMovedSince(
  decided: LandingPolicy | undefined,
  trunkNow: string,
  facts: PolicyFacts,
): Promise<string | undefined> {
  if (decided === undefined || decided.tip === trunkNow) return undefined;
  const run = { cwd: facts.root, env: facts.env, ...(facts.signal ? { signal: facts.signal } : {}) };
  const shown = await git(trunkConfigCommand(trunkNow), run);
  const now = await trunkPolicyFrom(shown, facts.trunk, trunkKnownValid(facts.commonDir));
  if (now.state !== 'unreadable' && now.digest === decided.digest) return undefined;
  return `${facts.trunk} moved to ${trunkNow.slice(0, 12)} while this landing was decided, and its discern.toml's policy changed with it.`;
}

/** A landing's result with the policy changes it carried and whether the owner approved them. */
export function withPolicy(outcome: AcceptOutcome, policy: LandingPolicy): AcceptOutcome {
  if (policy.changes.length === 0 || outcome.data === undefined || 'issues' in outcome.data) return outcome;
  return {
    ...outcome,
    data: {
      ...outcome.data,
      policy_changes: policy.changes,
      ...(policy.approved ? { policy_approved: true } : {}),
    },
  };
}
