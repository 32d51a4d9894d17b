// The gate's preconditions, checked in order before any project job runs and stopping at the first that
// fails: no replace ref standing in for HEAD, no untrusted git filter driver (done), the merge check (a linked
// worktree's branch contains the trunk), the standards never-loosen check, the tracked-artifacts guard, and a
// write probe of discern's state directory. Each is a read-only step (disposition gate) with diagnostics when it
// fails.
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { DiscernPlanStep, DiscernStepKind } from '../../../generated/types.js';
import { git, gitComplaint, type GitResult } from '../git/git.js';
import { replaceRefNames } from '../git/ref-store.js';
import { compareWithTrunk, trunkConfigRead } from './trunk-limits.js';
import { proposalCoverage, proposalsPath, readProposals } from './standard-proposals.js';
import { brokenMapLinks } from './map-integrity.js';
import { refreshDrift } from './refresh-currency.js';
import { DEFAULT_MAP_DIR } from '../config/defaults.js';
import { shellQuote } from '../process/shell-quote.js';
import { untrustedFilters } from './filters-check.js';
import type { PreconditionContext, PreconditionOutcome, PreconditionReads } from './precondition-types.js';

export type { PreconditionContext, PreconditionOutcome, PreconditionReads } from './precondition-types.js';

type Check = {
  kind: DiscernStepKind;
  label: string;
  run: (ctx: PreconditionContext, outcome: PreconditionOutcome) => Promise<PreconditionOutcome['failure'] | undefined>;
};

const MERGE: Check = {
  kind: 'merge-check',
  label: 'branch contains the trunk',
  async run(ctx) {
    const result = await (ctx.reads?.containsBase ?? containsBase(ctx));
    if (result.code === 0) return undefined;
    // update merges the trunk by default; a fetched policy base is named.
    const update = ctx.baseRef === `refs/heads/${ctx.base}` ? 'discern update' : `discern update --from ${ctx.base}`;
    const why =
      result.code === 1
        ? `this branch does not contain ${ctx.base}'s latest commits`
        : `git could not compare it with ${ctx.base}: ${gitComplaint(result)}`;
    return {
      failedStage: 'merge',
      error: 'gate_failed',
      message: `The merge check failed: ${why}. Bring it in with \`${update}\` (it stops cleanly on a conflict), then run done again.`,
      diagnostics: [
        {
          tool: 'git',
          severity: 'error',
          message: `HEAD does not contain ${ctx.base}; Proof must cover the trunk it will land on.`,
          reproduce_cmd: `git merge-base --is-ancestor ${ctx.baseRef} HEAD`,
        },
      ],
    };
  },
};

/**
 * No replace ref stands in for what Proof will name: HEAD, its tree, or a commit between the base and HEAD. With
 * one, the jobs would see the stand-in's content while Proof names the real commit, and a fresh clone (replace refs
 * are not fetched) would get the real, untested one. Other replacements (history grafts) are left alone.
 */
const REPLACE_REFS: Check = {
  kind: 'replace-refs-check',
  label: 'no replace ref stands in for the commits Proof names',
  async run(ctx) {
    const o = { cwd: ctx.root, env: { ...ctx.env, GIT_NO_REPLACE_OBJECTS: '1' }, signal: ctx.signal };
    const listed = await (ctx.reads?.replaceRefs ?? replaceRefs(ctx));
    const replaced = listed.filter((name) => /^[0-9a-f]{40,64}$/.test(name));
    if (replaced.length === 0) return undefined;
    const [ids, range] = await Promise.all([
      git(['rev-parse', 'HEAD', 'HEAD^{tree}'], o),
      git(['rev-list', `${ctx.baseRef}..HEAD`], o),
    ]);
    const named = new Set([...ids.stdout.split('\n'), ...range.stdout.split('\n')].filter((x) => x.length > 0));
    const standIns = replaced.filter((name) => named.has(name));
    if (standIns.length === 0) return undefined;
    return {
      failedStage: 'replaced_objects',
      error: 'gate_failed',
      message: `${standIns.length === 1 ? 'A replace ref stands' : `${standIns.length} replace refs stand`} in for what Proof would name (${standIns.map((n) => `refs/replace/${n}`).join(', ')}): the jobs would test the replacement's content while Proof names the real commit, which a fresh clone gets. Delete ${standIns.length === 1 ? 'it' : 'them'} with \`git replace -d <name>\` and run done again.`,
      diagnostics: standIns.map((name) => ({
        tool: 'git',
        severity: 'error' as const,
        message: `refs/replace/${name} replaces ${name.slice(0, 12)}, which HEAD is or contains since ${ctx.base}`,
        reproduce_cmd: 'git replace -l',
      })),
    };
  },
};

/** No git filter driver rewrites what the jobs see unless its command is trusted (filter-trust.ts). */
const FILTERS: Check = {
  kind: 'filters-check',
  label: 'every git filter driver the files use is trusted by its command',
  run: (ctx) => untrustedFilters(ctx, ctx.reads?.indexFlags),
};

const STANDARDS: Check = {
  kind: 'standards-limits-check',
  label: "no standard loosened against the trunk's config",
  async run(ctx, outcome) {
    const compared = await compareWithTrunk(
      { ...ctx, ...(ctx.reads?.trunkConfig ? { shown: ctx.reads.trunkConfig } : {}) },
      ctx.standards,
    );
    if (compared.status === 'unverified') {
      // An unreadable trunk config continues loudly (an advisory), it does not fail the gate.
      outcome.standardsLimits = { status: 'unverified', trunk: ctx.base, reason: compared.reason };
      return undefined;
    }
    if (compared.status === 'parse_failed') {
      outcome.standardsLimits = { status: 'parse_failed', trunk: ctx.base, reason: compared.reason };
      return {
        failedStage: 'standards',
        error: 'gate_failed',
        message: `The trunk's discern.toml cannot be compared: ${compared.reason}.`,
        diagnostics: [
          {
            tool: 'discern',
            severity: 'error',
            message: `${ctx.base}:discern.toml — ${compared.reason}`,
            reproduce_cmd: `git show ${ctx.base}:discern.toml`,
            file: 'discern.toml',
          },
        ],
      };
    }
    const breaches = compared.breaches;
    if (breaches.length === 0) {
      outcome.standardsLimits = { status: 'verified', trunk: ctx.base };
      return undefined;
    }
    const loosened = breaches.map((b) => b.sentence);
    outcome.standardsLimits = { status: 'loosened', trunk: ctx.base, loosened };
    const diagnostics = loosened.map((m) => ({
      tool: 'discern',
      severity: 'error' as const,
      message: m,
      file: 'discern.toml',
      reproduce_cmd: `git diff ${ctx.base} -- discern.toml`,
    }));
    // A batch of proposals recorded for this very commit, matching every breach exactly, lets them pass: the
    // owner decides at accept (docs/decisions/0027-standards-verbs.md).
    const head =
      ctx.head ?? (await git(['rev-parse', 'HEAD'], { cwd: ctx.root, env: ctx.env, signal: ctx.signal })).stdout.trim();
    const coverage = proposalCoverage(await readProposals(proposalsPath(ctx.stateDir)), head, breaches);
    if (coverage.status === 'current' && coverage.uncovered.length === 0 && coverage.unmatched.length === 0) {
      outcome.standardProposals = coverage.proposals;
      return undefined;
    }
    if (coverage.status === 'stale') {
      return {
        failedStage: 'standards',
        error: 'proposal_stale',
        message: `discern.toml loosens ${loosened.join('; ')}, and the standards proposal recorded for it is bound to ${coverage.commit.slice(0, 12)}, not to HEAD ${head.slice(0, 12)}: a proposal covers the commit it was made on. Propose again for this commit (the same reasons if they still hold), then run done again.`,
        diagnostics,
      };
    }
    const gap =
      coverage.status === 'current'
        ? ` The proposal recorded for this commit does not match it (${[...coverage.uncovered.map((b) => `${b.name} is not covered`), ...coverage.unmatched.map((p) => `${p.name} ${p.from} → ${p.to} is not what this branch sets`)].join('; ')}): propose the whole batch again.`
        : ' If the loosening is justified, propose it for the owner: `discern standards propose <name> --reason <why>` (MCP: discern_standards with action "propose"), and the owner approves it when the work lands.';
    return {
      failedStage: 'standards',
      error: 'gate_failed',
      message: `discern.toml loosens ${loosened.length === 1 ? 'a standard' : `${loosened.length} standards`} the trunk holds: ${loosened.join('; ')}. Restore the trunk's definitions; loosening one — or changing how it is measured — is the owner's change on the trunk.${gap}`,
      diagnostics,
    };
  },
};

const TRACKED_ARTIFACTS: Check = {
  kind: 'tracked-artifacts-check',
  label: 'no tracked file is covered by the ignore rules',
  async run(ctx) {
    const listed = await (ctx.reads?.ignoredTracked ?? ignoredTracked(ctx));
    if (listed.code !== 0) throw new Error(`git ls-files failed: ${gitComplaint(listed)}`);
    const paths = listed.stdout.split('\0').filter((p) => p.length > 0);
    if (paths.length === 0) return undefined;
    const shown = paths.slice(0, 20);
    return {
      failedStage: 'tracked_artifacts',
      error: 'gate_failed',
      message: `${paths.length} tracked file${paths.length === 1 ? ' is' : 's are'} covered by the ignore rules (${shown.slice(0, 3).join(', ')}${paths.length > 3 ? ', …' : ''}): build output committed by mistake, or an ignore rule too wide. Untrack them with \`git rm --cached <path>\`, or narrow .gitignore, and commit.`,
      diagnostics: shown.map((file) => ({
        tool: 'git',
        severity: 'error' as const,
        message: `${file} is tracked, but the ignore rules cover it`,
        file,
        reproduce_cmd: 'git ls-files --cached --ignored --exclude-standard',
      })),
    };
  },
};

const WRITE_PROBE: Check = {
  kind: 'job',
  label: "discern's state directory is writable",
  async run(ctx) {
    const probe = join(ctx.stateDir, `.write-probe-${process.pid}`);
    try {
      await mkdir(ctx.stateDir, { recursive: true });
      await writeFile(probe, 'probe\n');
      await rename(probe, `${probe}.renamed`);
      await rm(`${probe}.renamed`, { force: true });
      return undefined;
    } catch (error) {
      await rm(probe, { force: true }).catch(() => undefined);
      const code = (error as NodeJS.ErrnoException).code ?? 'error';
      return {
        failedStage: 'write_denied',
        error: 'write_denied',
        message: `discern cannot write its state directory ${ctx.stateDir} (${code}), so it could not record the run; nothing ran.`,
        diagnostics: [
          {
            tool: 'discern',
            severity: 'error',
            message: `${ctx.stateDir} is not writable (${code})`,
            reproduce_cmd: `touch ${shellQuote(join(ctx.stateDir, 'probe'))}`,
          },
        ],
        target: ctx.stateDir,
      };
    }
  },
};

const MAP_INTEGRITY: Check = {
  kind: 'map-integrity-check',
  label: "the map's links resolve",
  async run(ctx) {
    const broken = await brokenMapLinks(ctx, ctx.mapDir ?? DEFAULT_MAP_DIR);
    if (broken.length === 0) return undefined;
    const shown = broken.slice(0, 20);
    return {
      failedStage: 'map_integrity',
      error: 'gate_failed',
      message: `${broken.length} link${broken.length === 1 ? '' : 's'} in the map point${broken.length === 1 ? 's' : ''} at nothing this commit tracks (${shown
        .slice(0, 3)
        .map((b) => `${b.page}:${b.line} → ${b.target}`)
        .join(
          ', ',
        )}${broken.length > 3 ? ', …' : ''}). Fix or remove ${broken.length === 1 ? 'it' : 'them'}, commit, and run done again.`,
      diagnostics: shown.map((b) => ({
        tool: 'discern',
        severity: 'error' as const,
        message: `link to ${b.target} resolves to nothing tracked`,
        file: b.page,
        line: b.line,
        reproduce_cmd: 'git ls-files',
      })),
    };
  },
};

const REFRESH_CURRENCY: Check = {
  kind: 'tracked-refresh-check',
  label: "discern's agent files are current (instructions, skills, ADR index, wiring)",
  async run(ctx) {
    if (!ctx.project) return undefined;
    const drift = await refreshDrift(ctx.project, ctx.env);
    return drift ? { ...drift, error: 'gate_failed' } : undefined;
  },
};

export function preconditionChecks(options: {
  mergeCheck: boolean;
  standards: boolean;
  trackedArtifacts: boolean;
  currency?: boolean;
  filters?: boolean;
}): Check[] {
  return [
    REPLACE_REFS,
    ...(options.filters ? [FILTERS] : []),
    ...(options.mergeCheck ? [MERGE] : []),
    ...(options.standards ? [STANDARDS] : []),
    ...(options.trackedArtifacts ? [TRACKED_ARTIFACTS] : []),
    ...(options.currency ? [MAP_INTEGRITY, REFRESH_CURRENCY] : []),
    WRITE_PROBE,
  ];
}

function replaceRefs(ctx: PreconditionContext): Promise<string[]> {
  return replaceRefNames(ctx.commonDir, { cwd: ctx.root, env: ctx.env, signal: ctx.signal });
}

function containsBase(ctx: PreconditionContext): Promise<GitResult> {
  return git(['merge-base', '--is-ancestor', ctx.baseRef, 'HEAD'], { cwd: ctx.root, env: ctx.env, signal: ctx.signal });
}

function ignoredTracked(ctx: PreconditionContext): Promise<GitResult> {
  return git(['ls-files', '-z', '--cached', '--ignored', '--exclude-standard'], {
    cwd: ctx.root,
    env: ctx.env,
    signal: ctx.signal,
  });
}

/**
 * Starts the git reads of `checks` at once (those in `started` the caller already began), so they run together (and beside whatever the caller does before the
 * checks) instead of one after another. The checks still judge in order and stop at the first failure; a read
 * whose check never runs is discarded.
 */
export function startPreconditionReads(
  checks: readonly Check[],
  ctx: PreconditionContext,
  started: PreconditionReads = {},
): PreconditionReads {
  const reads: PreconditionReads = {};
  if (checks.includes(REPLACE_REFS)) reads.replaceRefs = started.replaceRefs ?? replaceRefs(ctx);
  if (checks.includes(MERGE)) reads.containsBase = started.containsBase ?? containsBase(ctx);
  if (checks.includes(STANDARDS)) reads.trunkConfig = started.trunkConfig ?? trunkConfigRead(ctx);
  if (checks.includes(TRACKED_ARTIFACTS)) reads.ignoredTracked = started.ignoredTracked ?? ignoredTracked(ctx);
  if (checks.includes(FILTERS) && started.indexFlags) reads.indexFlags = started.indexFlags;
  if (checks.includes(FILTERS) && !reads.trunkConfig && started.trunkConfig) reads.trunkConfig = started.trunkConfig;
  for (const read of Object.values(reads)) (read as Promise<unknown>).catch(() => undefined);
  return reads;
}

export async function runPreconditions(
  checks: readonly Check[],
  ctx: PreconditionContext,
): Promise<PreconditionOutcome> {
  const outcome: PreconditionOutcome = { steps: [] };
  for (const check of checks) {
    const started = Date.now();
    const failure = await check.run(ctx, outcome);
    outcome.steps.push({
      kind: check.kind,
      label: check.label,
      disposition: 'gate',
      outcome: failure ? 'failed' : 'ok',
      duration_s: Math.round((Date.now() - started) / 1000),
      ...(check === STANDARDS && outcome.standardsLimits
        ? { note: `${outcome.standardsLimits.status} against ${ctx.base}` }
        : {}),
    });
    if (failure) {
      outcome.failure = failure;
      return outcome;
    }
  }
  return outcome;
}

export function preconditionPlanSteps(checks: readonly Check[], base: string): DiscernPlanStep[] {
  return checks.map((c) => ({
    kind: c.kind,
    label: c.label,
    disposition: 'gate',
    ...(c === MERGE || c === STANDARDS ? { note: `against ${base}` } : {}),
  }));
}
