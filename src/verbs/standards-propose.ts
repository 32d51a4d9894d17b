// Proposing loosened limits: `discern_standards` with action "propose" (a batch) and the scalar CLI command
// `discern standards propose <name> --reason <text>` (a batch of one) share this. The batch is checked against
// HEAD's committed [standards] and the trunk's, written whole and bound to HEAD; done then lets exactly those
// loosenings pass, and the owner approves them at accept (docs/decisions/0027-standards-verbs.md).
import { rm } from 'node:fs/promises';
import type { StandardsProposeOutcome } from '../../generated/handlers.js';
import type {
  DiscernPlanStep,
  DiscernStandardProposal,
  DiscernStandardsProposeInput,
  DiscernStep,
} from '../../generated/types.js';
import type { Refusal } from '../core/outcome.js';
import { configuredStandards } from '../engine/config/standards.js';
import { git } from '../engine/git/git.js';
import { readHeadIds } from '../engine/git/head.js';
import { readProofMarker } from '../engine/gate/proof-records.js';
import { planBatch, proposalsPath, writeProposals, type RequestedProposal } from '../engine/gate/standard-proposals.js';
import { compareWithTrunk } from '../engine/gate/trunk-limits.js';
import { relative } from 'node:path';
import type { ProjectVerbContext } from './context.js';
import { statePathsOf } from './gate-session.js';

type ProposeSlug = 'unknown_standard' | 'invalid_value' | 'precondition_failed' | 'proposal_failed';

export type Proposed =
  | { kind: 'refused'; refusal: Refusal<ProposeSlug>; suggestions?: string[]; steps?: DiscernStep[] }
  | {
      kind: 'planned';
      proposals: DiscernStandardProposal[];
      commit: string;
      path: string;
      plan: { title: string; details: string[]; steps: DiscernPlanStep[] };
    }
  | {
      kind: 'recorded';
      proposals: DiscernStandardProposal[];
      commit: string;
      path: string;
      steps: DiscernStep[];
      hints: string[];
    };

const COMPARE_LABEL = "compare HEAD's [standards] with the trunk's committed discern.toml";

export async function proposeBatch(
  requested: readonly RequestedProposal[],
  dryRun: boolean,
  ctx: ProjectVerbContext,
  help: string,
): Promise<Proposed> {
  const { project } = ctx;
  const trunk = project.trunk.name;
  const rerun = ctx.surface === 'mcp' ? 'discern_standards with action "propose"' : 'discern standards propose';
  const head = await readHeadIds(project.root, ctx.env, ctx.signal);
  if (head === undefined)
    return refused(
      'precondition_failed',
      'HEAD has no commit yet: a proposal is bound to a commit, so commit the loosened discern.toml first.',
      { rerun },
    );
  // The proposal is about HEAD's committed limits: an uncommitted edit of discern.toml is not what done will prove.
  const file = relative(project.root, project.configPath) || 'discern.toml';
  const committed = await git(['cat-file', '-e', `HEAD:${file}`], { cwd: project.root, env: ctx.env });
  const same =
    committed.code === 0 &&
    (await git(['diff', '--quiet', 'HEAD', '--', file], { cwd: project.root, env: ctx.env })).code === 0;
  if (!same)
    return refused(
      'precondition_failed',
      `${file} differs from HEAD's: a proposal is bound to a commit's limits, so commit discern.toml first, then propose.`,
      { rerun },
    );

  const current = configuredStandards(project.config);
  const compared = await compareWithTrunk(
    { root: project.root, env: ctx.env, signal: ctx.signal, base: trunk, baseRef: `refs/heads/${trunk}` },
    current,
  );
  if (compared.status !== 'compared') {
    return refused(
      'precondition_failed',
      `The trunk's discern.toml cannot be compared (${compared.reason}), so there is no committed limit to propose loosening.`,
      { rerun },
    );
  }
  const known = [...new Set([...current.map((s) => s.name), ...compared.trunk.map((s) => s.name)])];
  const planned = planBatch(requested, compared.breaches, known);
  if (!planned.ok) {
    if (planned.kind === 'unknown') {
      return {
        kind: 'refused',
        refusal: {
          error: 'unknown_standard',
          message: planned.message,
          next: {
            list:
              ctx.surface === 'mcp'
                ? 'discern_standards with action "measure" and dry_run: true'
                : 'discern config subsections standards',
          },
        },
        suggestions: planned.known,
      };
    }
    return refused('invalid_value', planned.message, { help });
  }
  const paths = statePathsOf(project);
  const path = proposalsPath(paths.checkoutDir);
  const compare: DiscernStep = {
    kind: 'standards-limits-check',
    label: COMPARE_LABEL,
    disposition: 'gate',
    outcome: 'ok',
    duration_s: 0,
    note: `${compared.breaches.length} loosened against ${trunk}`,
  };
  if (dryRun) {
    return {
      kind: 'planned',
      proposals: planned.proposals,
      commit: head.commit,
      path,
      plan: {
        title: `propose ${planned.proposals.length} loosened limit${planned.proposals.length === 1 ? '' : 's'} for ${head.commit.slice(0, 12)}`,
        details: planned.proposals.map(
          (p) => `${p.name}: ${p.direction === 'up' ? 'floor' : 'ceiling'} ${p.from} → ${p.to} — ${p.reason}`,
        ),
        steps: [
          { kind: 'standards-limits-check', label: COMPARE_LABEL, disposition: 'gate' },
          { kind: 'env', label: 'record the proposals bound to HEAD', disposition: 'run', note: path },
        ],
      },
    };
  }
  try {
    await writeProposals(
      path,
      { commit: head.commit, trunk, recorded_at: new Date().toISOString(), proposals: planned.proposals },
      ctx.env,
    );
  } catch (error) {
    return {
      kind: 'refused',
      steps: [
        compare,
        {
          kind: 'env',
          label: 'record the proposals bound to HEAD',
          disposition: 'run',
          outcome: 'failed',
          duration_s: 0,
          note: path,
        },
      ],
      refusal: {
        error: 'proposal_failed',
        message: `The proposals could not be recorded in ${path} (${error instanceof Error ? error.message : String(error)}); nothing was written, and any earlier batch is as it was.`,
        next: { recovery: `make ${paths.checkoutDir} writable, then propose again` },
      },
    };
  }
  // A changed proposal changes what a Proof of this commit stands on: the marker for HEAD goes, and the next done
  // proves the commit under the new batch (replaying its jobs' evidence when it has any).
  const marker = await readProofMarker(paths.proofMarker, paths.commonDir);
  if (marker.state === 'present' && marker.marker.commit === head.commit)
    await rm(paths.proofMarker, { force: true }).catch(() => undefined);
  const done = ctx.surface === 'mcp' ? 'discern_done' : '`discern done`';
  const accept =
    ctx.surface === 'mcp'
      ? 'discern_accept with approve_standard: true and confirmed: true'
      : '`discern accept <effort> --confirmed --approve-standard`';
  return {
    kind: 'recorded',
    proposals: planned.proposals,
    commit: head.commit,
    path,
    steps: [
      compare,
      {
        kind: 'env',
        label: 'record the proposals bound to HEAD',
        disposition: 'run',
        outcome: 'ok',
        duration_s: 0,
        note: path,
      },
    ],
    hints: [
      'A proposal is a justification, not approval: relay each reason to the owner, who decides when the work lands.',
      `A new commit makes the batch stale: propose again after it.`,
      `Recorded for ${head.commit.slice(0, 12)}: run ${done} — it passes the never-loosen check under this batch — and the owner approves it with ${accept}.`,
    ],
  };
}

function refused<S extends ProposeSlug>(error: S, message: string, next: Refusal<S>['next']): Proposed {
  return { kind: 'refused', refusal: { error, message, next } as Refusal<ProposeSlug> };
}

/** `discern standards propose <name> --reason <text>`: a batch of one. */
export async function standardsPropose(
  input: DiscernStandardsProposeInput,
  ctx: ProjectVerbContext,
): Promise<StandardsProposeOutcome> {
  const result = await proposeBatch(
    [{ name: input.name, reason: input.reason }],
    input.dry_run === true,
    ctx,
    '`discern help standards propose`',
  );
  switch (result.kind) {
    case 'refused':
      return {
        ...(result.steps ? { steps: result.steps } : {}),
        ...(result.suggestions ? { data: { suggestions: result.suggestions } } : {}),
        refusal: result.refusal,
      };
    case 'planned':
      return {
        dry_run: true,
        plan: result.plan,
        data: { proposals: result.proposals, proposal_commit: result.commit, proposals_path: result.path },
      };
    case 'recorded':
      return {
        steps: result.steps,
        data: { proposals: result.proposals, proposal_commit: result.commit, proposals_path: result.path },
        hints: result.hints,
      };
  }
}
