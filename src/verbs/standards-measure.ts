// standards, action "measure": the selected standards' commands run now, with the checkout's operation lock and
// a journaled progress handle (announced first, as for done and test), on a clean committed tree unless force.
// Each value is judged against its limit; a regressed one fails the call at the standards stage. A green run on a
// clean tree records the values as the replay and pin baseline; with pin, standards-pin.ts takes over.
import { randomBytes } from 'node:crypto';
import type { StandardsAdvisoryKind, StandardsOutcome } from '../../generated/handlers.js';
import { VERBS } from '../../generated/registry.js';
import type {
  DiscernAdvisory,
  DiscernResult,
  DiscernStandardsData,
  DiscernStandardsInput,
  DiscernStep,
} from '../../generated/types.js';
import { buildEnvelope } from '../core/envelope.js';
import { readHeadIds, type HeadIds } from '../engine/git/head.js';
import { readWorkingState } from '../engine/git/porcelain-status.js';
import { readDirtySet } from '../engine/gate/dirty-set.js';
import { executeGate } from '../engine/gate/execute.js';
import { gateConfig, type GateConfig } from '../engine/gate/gate-config.js';
import { judgeStandardRun } from '../engine/gate/judge-standard-run.js';
import { recordMeasured } from '../engine/gate/measure-records.js';
import { planSteps, type GatePlan } from '../engine/gate/plan.js';
import { reportGateRun } from '../engine/gate/report.js';
import { definitionDigest, readMeasurements } from '../engine/gate/standard-measurements.js';
import { verdictOf } from '../engine/gate/standard-verdict.js';
import { measureSettings, planStandards, selectStandards } from '../engine/gate/standards-plan.js';
import { compareWithTrunk, type TrunkComparison } from '../engine/gate/trunk-limits.js';
import type { ProjectVerbContext } from './context.js';
import {
  openJournal,
  producerLabels,
  releaseOperationLock,
  runListener,
  lineSink,
  runOutput,
  statePathsOf,
  takeOperationLock,
  testSlotAcquirer,
  type Journal,
} from './gate-session.js';
import { pinAfterGreen } from './standards-pin.js';
import { projectSecrets } from '../engine/jobs/project-secrets.js';

type Advisory = DiscernAdvisory & { kind: StandardsAdvisoryKind };

const LIMITS_LABEL = "compare [standards] with the trunk's committed discern.toml";

export async function measureStandards(
  input: DiscernStandardsInput,
  ctx: ProjectVerbContext,
): Promise<StandardsOutcome> {
  const { project } = ctx;
  const mcp = ctx.surface === 'mcp';
  const rerun = mcp ? 'discern_standards' : 'discern standards';
  const configured = gateConfig(project.config);
  if (!configured.ok) {
    const [first] = configured.issues;
    return {
      data: { issues: configured.issues },
      refusal: {
        error: 'invalid_config',
        message: `discern.toml has ${configured.issues.length === 1 ? 'a problem' : `${configured.issues.length} problems`} the standards cannot be measured with: ${configured.issues.map((i) => `\`${i.path}\` (${i.message})`).join('; ')}.`,
        next: { file: 'discern.toml', where: `key \`${first.path}\`` },
      },
    };
  }
  const gate = configured.gate;
  const selected = selectStandards(gate.catalog.standards, input.names);
  if (!selected.ok) {
    return {
      data: { action: 'measure', suggestions: selected.known },
      refusal: {
        error: 'unknown_standard',
        message: `${selected.unknown.map((n) => `\`${n}\``).join(', ')} ${selected.unknown.length === 1 ? 'is' : 'are'} not configured.${selected.known.length > 0 ? ` Standards: ${selected.known.join(', ')}.` : ' discern.toml has no [standards] table.'}`,
        next: { list: mcp ? 'discern_standards with dry_run: true' : 'discern standards --dry-run' },
      },
    };
  }
  const pin = input.pin === true;
  const [state, head] = await Promise.all([
    readWorkingState(project.root, ctx.env, ctx.signal),
    readHeadIds(project.root, ctx.env, ctx.signal),
  ]);
  const force = input.force === true;
  if ((head === undefined || state.unborn) && !force) {
    return {
      refusal: {
        error: 'dirty_worktree',
        message:
          'HEAD has no commit yet: a measurement describes a commit, so commit first (force measures the working tree as it is).',
        next: { rerun, standalone: mcp ? 'discern_standards with force: true' : 'discern standards --force' },
      },
    };
  }
  if (state.changed > 0 && !force) {
    return {
      refusal: {
        error: 'dirty_worktree',
        message: `The worktree has ${state.changed} uncommitted change${state.changed === 1 ? '' : 's'}${state.untracked > 0 ? ` (${state.untracked} untracked)` : ''}: a measurement describes a commit, so commit (or stash) them first${pin ? '' : ', or measure the working tree as it is with force'}.`,
        next: { rerun, standalone: mcp ? 'discern_standards with force: true' : 'discern standards --force' },
      },
    };
  }
  if (pin && (state.detached || state.branch === null)) {
    return {
      refusal: {
        error: 'detached_head',
        message:
          'HEAD is detached: pin commits the tightened limits on a branch, so check out the branch this work belongs to.',
        next: { rerun: mcp ? 'discern_standards with pin: true' : 'discern standards --pin' },
      },
    };
  }

  const trunk = project.trunk.name;
  const compared = await compareWithTrunk(
    { root: project.root, env: ctx.env, signal: ctx.signal, base: trunk, baseRef: `refs/heads/${trunk}` },
    gate.standards,
  );
  const limits = limitsData(compared, trunk);
  const advisories: Advisory[] =
    compared.status === 'unverified'
      ? [
          {
            kind: 'standards-limits-unverified',
            evidence: [compared.reason],
            next_action: `Commit discern.toml on ${trunk} so its [standards] limits can be held; until then a branch may loosen them unnoticed.`,
          },
        ]
      : [];
  const plan = planStandards(selected.producers, gate.settings);
  const base: DiscernStandardsData = {
    action: 'measure',
    standards_limits: limits,
    ...(force && state.changed > 0 ? { forced: true } : {}),
  };

  if (input.dry_run === true) return dryRun(plan, gate, base, pin, ctx, head);
  if (selected.producers.length === 0) {
    return {
      data: { ...base, failed_stage: null, standards: [] },
      hints: [
        mcp
          ? 'No standards are configured: add a [standards.<name>] table to discern.toml (direction, limit, run).'
          : 'No standards are configured: add one with `discern config set-standard <name> --direction up --limit <n> --run <command>`.',
      ],
    };
  }

  const paths = statePathsOf(project);
  const attempt = `A-${randomBytes(6).toString('hex')}`;
  const probe = {
    root: project.root,
    env: ctx.env,
    signal: ctx.signal,
    base: trunk,
    baseRef: `refs/heads/${trunk}`,
    mergeCheck: false,
    standards: [],
    stateDir: paths.checkoutDir,
  };
  const lock = await takeOperationLock(
    paths,
    { verb: 'standards', attempt, head: head?.commit ?? '', checkout: project.root },
    probe,
  );
  if ('busy' in lock) {
    const holder = lock.busy;
    const verb = typeof holder?.['verb'] === 'string' ? holder['verb'] : 'another operation';
    return {
      data: { ...base },
      refusal: {
        error: 'incomplete',
        message: `This checkout is busy: ${verb} is running here${holder ? ` (pid ${holder.pid})` : ''}. Measuring beside it would compete for the same tree.`,
        next: { wait: `let it finish (\`${mcp ? 'discern_progress' : 'discern progress'}\` reads it)` },
      },
    };
  }
  if ('denied' in lock) {
    const f = lock.denied.failure;
    return {
      steps: lock.denied.steps,
      diagnostics: f.diagnostics,
      data: { ...base },
      refusal: {
        error: 'write_denied',
        message: f.message,
        next: { target: f.target ?? paths.checkoutDir, access: 'writable' },
      },
    };
  }

  let journal: Journal | undefined;
  try {
    journal = await openJournal(paths, 'standards', project, state.branch, ctx.surface);
  } catch {
    journal = undefined; // advisory: the run goes ahead, it just cannot be read back
  }
  const lines = lineSink(gate.settings, ctx);
  const listener = runListener(journal, ctx.progress, producerLabels(plan), lines);
  if (journal)
    listener({
      type: 'phase',
      phase: 'announce',
      message: `${journal.handle} — read it back with ${journal.readBack}`,
    });
  let outcome: StandardsOutcome | undefined;
  try {
    const handleData = journal ? { handle: journal.handle } : {};
    const limitsStep: DiscernStep = {
      kind: 'standards-limits-check',
      label: LIMITS_LABEL,
      disposition: 'gate',
      outcome: 'ok',
      duration_s: 0,
      note: `${limits.status} against ${trunk}`,
    };
    const clean = state.changed === 0;
    const output = runOutput(paths, journal?.handle ?? attempt);
    const gateRun = await executeGate({
      plan,
      cwd: project.root,
      env: ctx.env,
      signal: ctx.signal,
      settings: measureSettings(gate.settings),
      secrets: projectSecrets(project),
      outputDir: output.dir,
      listener,
      streamLines: lines !== undefined,
      readDirty: () => readDirtySet(project.root, ctx.env),
      ...(clean ? { initialDirty: new Set<string>() } : {}),
      generated: gate.generated,
      judgeStandard: (producer, result) => judgeStandardRun(producer, result, project.root, ctx.env),
      ...withSlot(
        testSlotAcquirer(paths, gate.settings.concurrentTestRuns, {
          verb: 'standards',
          checkout: project.root,
          ...handleData,
        }),
      ),
    });
    await output.housekept;
    const report = await reportGateRun(plan, gateRun, project.root, new Map());
    const steps = [limitsStep, ...report.steps];
    const capAdvisory: Advisory[] = gateRun.capUnavailable
      ? [
          {
            kind: 'execution-cap-unavailable',
            evidence: [gateRun.capUnavailable],
            next_action: 'Make the test-slot directory writable, or set [gate] concurrent_test_runs = 0.',
          },
        ]
      : [];
    const all = [...advisories, ...capAdvisory];
    const data: DiscernStandardsData = {
      ...base,
      ...handleData,
      failed_stage: gateRun.failedStage,
      standards: report.standards,
    };
    const facts = {
      steps,
      ...(report.diagnostics.length > 0 ? { diagnostics: report.diagnostics } : {}),
      ...(gateRun.waitedMs > 0 ? { waited_ms: gateRun.waitedMs } : {}),
      ...(all.length > 0 ? { advisories: all } : {}),
    };
    if (gateRun.cancelled) {
      outcome = {
        ...facts,
        data,
        refusal: {
          error: 'apply_failed',
          message: 'The measurement was cancelled: its commands were stopped and nothing was recorded.',
          next: { recovery: `run ${rerun} again when you want the values` },
        },
      };
      return outcome;
    }
    if (gateRun.failedStage !== null) {
      const first = report.diagnostics.find((d) => d.severity === 'error') ?? report.diagnostics[0];
      const red = report.standards.filter((s) => s.verdict === 'regressed' || s.value === undefined).map((s) => s.name);
      outcome = {
        ...facts,
        data,
        refusal: {
          error: 'gate_failed',
          message: `${gateRun.failedStage === 'standards' ? `Red at the standards stage${red.length > 0 ? ` (${red.join(', ')})` : ''}` : `The measurement failed at ${gateRun.failedStage}`}${first ? `: ${first.message}` : '.'}${pin ? ' Nothing was pinned: pin waits until every standard is green.' : ''}`,
          next: { rerun },
        },
      };
      return outcome;
    }
    const now = await readHeadIds(project.root, ctx.env);
    const unmoved = head !== undefined && now?.commit === head.commit;
    // Only a green run on the clean, committed HEAD is a baseline worth replaying or pinning from.
    if (clean && unmoved && head !== undefined)
      await recordMeasured(paths.standardMeasurements, gateRun, head.commit, project.root, ctx.env);
    if (pin && head !== undefined) {
      outcome = await pinAfterGreen({ ctx, gate, head, state, steps, data, advisories: all, ...handleData });
      return outcome;
    }
    outcome = { ...facts, data, hints: measuredHints(data, ctx, force && !clean) };
    return outcome;
  } finally {
    releaseOperationLock(lock);
    if (journal) {
      const state2 =
        outcome === undefined || ctx.signal.aborted
          ? 'cancelled'
          : outcome.refusal === undefined
            ? 'completed'
            : 'failed';
      const result: DiscernResult | undefined = outcome
        ? buildEnvelope({ verb: 'standards', policy: VERBS.standards.policy }, outcome)
        : undefined;
      const account = [
        outcome?.refusal
          ? outcome.refusal.message
          : state2 === 'cancelled'
            ? 'The measurement stopped before it finished.'
            : 'The standards were measured.',
      ];
      listener({ type: 'phase', phase: 'finished', state: state2, message: account[0] ?? state2 });
      await journal.finish({ outcome: state2, ...(result ? { result } : {}), account });
    }
  }
}

function limitsData(compared: TrunkComparison, trunk: string): NonNullable<DiscernStandardsData['standards_limits']> {
  if (compared.status !== 'compared') return { status: compared.status, trunk, reason: compared.reason };
  if (compared.breaches.length === 0) return { status: 'verified', trunk };
  return { status: 'loosened', trunk, loosened: compared.breaches.map((b) => b.sentence) };
}

function measuredHints(data: DiscernStandardsData, ctx: ProjectVerbContext, forced: boolean): string[] {
  const mcp = ctx.surface === 'mcp';
  const hints: string[] = [];
  if (forced) hints.push(VERBS.standards.hints['forced'] ?? 'Measured a dirty tree: nothing was recorded.');
  if (data.standards_limits?.status === 'loosened')
    hints.push(
      `This branch loosens a standard the trunk holds (${(data.standards_limits.loosened ?? []).join('; ')}): done refuses it unless a proposal covers it (${mcp ? 'discern_standards with action "propose"' : '`discern standards propose <name> --reason <why>`'}).`,
    );
  const eligible = (data.standards ?? []).filter((s) => s.pin_eligible === true && s.pin_target !== undefined);
  const count = data.standards?.length ?? 0;
  if (eligible.length > 0 && !forced) {
    hints.push(
      `${eligible.map((s) => `${s.name} can be tightened from ${s.limit} to ${s.pin_target}`).join('; ')}: ${mcp ? 'discern_standards with pin: true' : '`discern standards --pin`'} commits ${eligible.length === 1 ? 'it' : 'them'}.`,
    );
  } else {
    hints.push(
      `${count === 1 ? 'The standard holds' : `All ${count} standards hold`}: nothing beats its limit by more than its margin.`,
    );
  }
  return hints;
}

/** The plan: what would be measured, and — from the last green values, when their definitions are unchanged — what a pin would tighten. */
async function dryRun(
  plan: GatePlan,
  gate: GateConfig,
  base: DiscernStandardsData,
  pin: boolean,
  ctx: ProjectVerbContext,
  head: HeadIds | undefined,
): Promise<StandardsOutcome> {
  const { project } = ctx;
  const last = await readMeasurements(statePathsOf(project).standardMeasurements);
  const details: string[] = [];
  const pinned: NonNullable<DiscernStandardsData['pinned']> = [];
  for (const { producer } of plan.standards) {
    const def = producer.standard;
    if (!def) continue;
    const bound = `${def.direction === 'up' ? '≥' : '≤'} ${def.limit}${def.margin > 0 ? `, margin ${def.margin}` : ''}`;
    const m = last[def.name];
    if (m === undefined || m.definition_digest !== definitionDigest(def)) {
      details.push(`${def.name}: ${bound} — no green value on record`);
      continue;
    }
    const v = verdictOf(def, m.value);
    const at = `last green value ${m.value} (${m.commit.slice(0, 12)})`;
    if (v.pin_eligible && v.pin_target !== undefined) {
      details.push(`${def.name}: ${bound} — ${at} would pin it to ${v.pin_target}`);
      pinned.push({ name: def.name, from: def.limit, to: v.pin_target, measured: m.value });
    } else details.push(`${def.name}: ${bound} — ${at}, ${v.verdict}`);
  }
  const steps = planSteps(plan, [
    { kind: 'standards-limits-check', label: LIMITS_LABEL, disposition: 'gate', note: `against ${project.trunk.name}` },
  ]);
  if (pin) {
    steps.push({
      kind: 'env',
      label: 'set each eligible limit in discern.toml to the measured value less its margin',
      disposition: 'run',
      note: 'only when every standard is green',
    });
    steps.push({
      kind: 'git',
      label: 'commit discern.toml alone on this branch',
      disposition: 'run',
      note: head ? `on ${head.commit.slice(0, 12)}` : 'on HEAD',
    });
  }
  const count = plan.standards.length;
  return {
    dry_run: true,
    plan: {
      title: `standards would measure ${count} standard${count === 1 ? '' : 's'}${pin ? ' and pin the improved limits' : ''}`,
      details,
      steps,
    },
    data: { ...base, ...(pin ? { pinned } : {}) },
  };
}

function withSlot(acquirer: ReturnType<typeof testSlotAcquirer>): {
  acquireTestSlot?: NonNullable<ReturnType<typeof testSlotAcquirer>>;
} {
  return acquirer ? { acquireTestSlot: acquirer } : {};
}
