// The run that prepare and test share: the write probe, the plan for their mode, the gate executor with the
// caller's live progress (and for test the journal and a test slot), and one outcome built from the report.
import type { DiscernDiagnostic, DiscernFailedStage, DiscernStep } from '../../generated/types.js';
import { executeGate, type GateRun } from '../engine/gate/execute.js';
import { gateConfig } from '../engine/gate/gate-config.js';
import { planGate, type GateMode } from '../engine/gate/plan.js';
import { preconditionChecks, runPreconditions } from '../engine/gate/preconditions.js';
import { reportGateRun } from '../engine/gate/report.js';
import { dirtySetFrom, newlyDirty } from '../engine/gate/dirty-set.js';
import { readCheckoutStatus, type CheckoutStatus } from '../engine/git/checkout-status.js';
import { restamped, stampFiles } from '../engine/gate/file-stamps.js';
import type { DiscernConfigIssue } from '../../generated/types.js';
import { VERBS } from '../../generated/registry.js';
import { buildEnvelope } from '../core/envelope.js';
import type { AnyOutcome } from '../core/outcome.js';
import type { ProjectVerbContext } from './context.js';
import {
  openJournal,
  producerLabels,
  runListener,
  lineSink,
  runOutput,
  statePathsOf,
  testSlotAcquirer,
  type Journal,
} from './gate-session.js';
import { projectSecrets } from '../engine/jobs/project-secrets.js';

export type StageRun =
  | { kind: 'config'; issues: [DiscernConfigIssue, ...DiscernConfigIssue[]] }
  | { kind: 'write_denied'; steps: DiscernStep[]; diagnostics: DiscernDiagnostic[]; message: string; target: string }
  | {
      kind: 'ran';
      steps: DiscernStep[];
      diagnostics: DiscernDiagnostic[];
      failedStage: DiscernFailedStage | null;
      firstMessage?: string;
      waitedMs: number;
      cancelled: boolean;
      capUnavailable?: string;
      /** Paths that were clean before the run and differ after it. */
      changed: string[];
      handle?: string;
      nothingConfigured: boolean;
      drift: boolean;
    };

/** What the verb makes of the run; its envelope is what the journal keeps as the result. */
export type Conclude<O extends AnyOutcome> = (run: StageRun) => O;

export async function runStages<O extends AnyOutcome>(
  mode: Exclude<GateMode, 'done'>,
  ctx: ProjectVerbContext,
  options: { journal: boolean },
  conclude: Conclude<O>,
): Promise<O> {
  const { project } = ctx;
  const configured = gateConfig(project.config);
  if (!configured.ok) return conclude({ kind: 'config', issues: configured.issues });
  const gate = configured.gate;
  const paths = statePathsOf(project);
  const plan = planGate({
    mode,
    catalog: gate.catalog,
    settings: gate.settings,
    changedScopes: [],
    replayable: new Set(),
  });
  // The branch (for the journal) and the tree before the first stage are read while the write probe and the
  // journal's opening run: nothing in between touches the working tree (discern's state is under .git). One
  // strict status answers both (docs/decisions/0043); for test it is the look invoke() took as the call began.
  // prepare reads its own: it reads under its operation lock, which it took after that look.
  const firstRead =
    (mode === 'test' ? ctx.looks?.first.status : undefined) ?? readCheckoutStatus(project.root, ctx.env);
  const branchRead = options.journal
    ? firstRead.then(
        (r) => (r.ok ? r.status.branch : null),
        () => null,
      )
    : undefined;
  const beforeRead = firstRead.then((r) => dirtySetFrom(r, project.root, ctx.env));
  beforeRead.catch(() => undefined);
  const pre = await runPreconditions(
    preconditionChecks({ mergeCheck: false, standards: false, trackedArtifacts: false }),
    {
      root: project.root,
      env: ctx.env,
      signal: ctx.signal,
      base: project.trunk.name,
      baseRef: `refs/heads/${project.trunk.name}`,
      mergeCheck: false,
      standards: [],
      stateDir: paths.checkoutDir,
      commonDir: paths.commonDir,
    },
  );
  if (pre.failure)
    return conclude({
      kind: 'write_denied',
      steps: pre.steps,
      diagnostics: pre.failure.diagnostics,
      message: pre.failure.message,
      target: pre.failure.target ?? paths.checkoutDir,
    });

  let journal: Journal | undefined;
  if (options.journal) {
    const branch = (await branchRead) ?? null;
    journal = await openJournal(paths, mode, project, branch, ctx.surface).catch(() => undefined);
  }
  const total = plan.groups.reduce((n, g) => n + g.producers.length, 0);
  const lines = lineSink(gate.settings, ctx);
  const listener = runListener(journal, ctx.progress, producerLabels(plan), lines);
  if (journal)
    listener({
      type: 'phase',
      phase: 'announce',
      message: `${journal.handle} — read it back with ${journal.readBack}`,
    });
  let run: GateRun | undefined;
  let outcome: O | undefined;
  try {
    const before = await beforeRead;
    const stamps = mode === 'prepare' ? await stampFiles(project.root, before) : new Map<string, string>();
    // Each dirty-set read is one strict status: the one after the last stage is also the logbook's second look.
    let lastStatus: CheckoutStatus | undefined;
    const readDirty = async (): Promise<Set<string>> => {
      const read = await readCheckoutStatus(project.root, ctx.env);
      lastStatus = read.ok ? read.status : undefined;
      return dirtySetFrom(read, project.root, ctx.env);
    };
    const output = runOutput(paths, journal?.handle ?? `${mode}-${process.pid}`);
    const acquirer =
      mode === 'test'
        ? testSlotAcquirer(paths, gate.settings.concurrentTestRuns, {
            verb: mode,
            checkout: project.root,
            ...(journal ? { handle: journal.handle } : {}),
          })
        : undefined;
    run = await executeGate({
      plan,
      cwd: project.root,
      env: ctx.env,
      signal: ctx.signal,
      settings: gate.settings,
      secrets: projectSecrets(project),
      outputDir: output.dir,
      listener,
      streamLines: lines !== undefined,
      readDirty,
      // Just read: a second `git status` before the first stage would find the same (on a large tree it costs).
      initialDirty: before,
      generated: gate.generated,
      ...(acquirer ? { acquireTestSlot: acquirer } : {}),
    });
    await output.housekept;
    // The executor read the tree after the last group that ran; nothing has run since.
    const after = ctx.signal.aborted ? before : (run.dirtyAfter ?? (await readDirty()));
    // Read after the last stage that ran; nothing the verb does from here on touches the tree.
    if (ctx.looks && lastStatus && !run.cancelled) ctx.looks.last = lastStatus;
    const report = await reportGateRun(plan, run, project.root, new Map());
    // The message quotes the first error (a warning printed before it is not why the run failed).
    const first = report.diagnostics.find((d) => d.severity === 'error') ?? report.diagnostics[0];
    outcome = conclude({
      kind: 'ran',
      steps: [...pre.steps, ...report.steps],
      diagnostics: report.diagnostics,
      failedStage: run.failedStage,
      ...(first ? { firstMessage: first.message } : {}),
      waitedMs: run.waitedMs,
      cancelled: run.cancelled,
      ...(run.capUnavailable !== undefined ? { capUnavailable: run.capUnavailable } : {}),
      // What fixers and generators rewrote; a check that wrote is drift (reported as such), not a fix.
      changed: [...new Set([...newlyDirty(before, after), ...(await restamped(project.root, stamps))])]
        .filter((p) => !(run?.drift?.group === 'check' && run.drift.paths.includes(p)))
        .sort(),
      ...(journal ? { handle: journal.handle } : {}),
      nothingConfigured: total === 0,
      drift: run.drift !== undefined,
    });
    return outcome;
  } finally {
    if (journal) {
      const state =
        run === undefined || run.cancelled ? 'cancelled' : run.failedStage === null ? 'completed' : 'failed';
      const result = outcome ? buildEnvelope({ verb: mode, policy: VERBS[mode].policy }, outcome) : undefined;
      const account = outcome?.refusal
        ? [outcome.refusal.message]
        : [
            run === undefined
              ? 'The run stopped before it finished.'
              : run.cancelled
                ? `${mode} was cancelled.`
                : `${mode} passed.`,
          ];
      listener({ type: 'phase', phase: 'finished', state, message: account[0] ?? state });
      await journal.finish({ outcome: state, ...(result ? { result } : {}), account });
    }
  }
}

export function configRefusalMessage(issues: readonly DiscernConfigIssue[]): string {
  return `discern.toml has ${issues.length === 1 ? 'a problem' : `${issues.length} problems`} the gate cannot run with: ${issues.map((i) => `\`${i.path}\` (${i.message})`).join('; ')}.`;
}
