// The part of done that runs: take the checkout's operation lock, open the progress journal (its R1 handle is
// the first progress fact), check the preconditions, then either replay proven evidence or run the gate, and
// record what it established.
import { withVariables } from '../engine/config/substitutions.js';
import { randomBytes } from 'node:crypto';
import { basename, dirname } from 'node:path';
import type { DoneOutcome } from '../../generated/handlers.js';
import type { DiscernConfig, DiscernDoneData, DiscernResult } from '../../generated/types.js';
import { VERBS } from '../../generated/registry.js';
import { buildEnvelope } from '../core/envelope.js';
import { indexStamp } from '../engine/git/index-stamp.js';
import { readChangeSet, type ChangeSet } from '../engine/git/change-set.js';
import { classify, compileScopes } from '../engine/scopes/index.js';
import { scopeDefinitions } from '../engine/config/scope-definitions.js';
import { confirmNeutral, judgeNeutral } from '../engine/gate/neutral-change.js';
import { effortLandingAuthority } from '../engine/acceptance/effort-authority.js';
import { readTaskRecord } from '../engine/efforts/task-record.js';
import { executeGate } from '../engine/gate/execute.js';
import { gateConfig, type GateConfig } from '../engine/gate/gate-config.js';
import { planGate, planSteps, type GatePlan } from '../engine/gate/plan.js';
import {
  preconditionChecks,
  preconditionPlanSteps,
  runPreconditions,
  startPreconditionReads,
  type PreconditionOutcome,
} from '../engine/gate/preconditions.js';
import { readEvidence, readLastRun, type Evidence } from '../engine/gate/proof-records.js';
import { git, type GitResult } from '../engine/git/git.js';
import { reportGateRun } from '../engine/gate/report.js';
import { readMeasurements, replayableStandards, type Measurement } from '../engine/gate/standard-measurements.js';
import { dirtySetFrom } from '../engine/gate/dirty-set.js';
import { readCommittedFiles } from '../engine/git/committed-files.js';
import { mergeBaseFrom } from '../engine/checkpoints/change-facts.js';
import { mergeBaseConfigCommand } from '../engine/checkpoints/governing-config.js';
import { trunkConfigCommand } from '../engine/gate/trunk-limits.js';
import { readCheckoutStatus, type CheckoutStatus } from '../engine/git/checkout-status.js';
import { outsideSparsePatterns, readSparseCheckout, type SparseCheckout } from '../engine/git/sparse-checkout.js';
import { execBitsKept } from '../engine/git/file-modes.js';
import { diffStatsAgainst, diffStatsFrom } from '../engine/gate/proof-summary.js';
import { judgeStandardRun } from '../engine/gate/judge-standard-run.js';
import {
  pendingCompletion,
  readBack,
  stageName,
  type DoneAdvisory,
  type DoneRun,
  type JudgedPolicy,
} from './done-facts.js';
import { localBranchTip } from '../engine/git/local-branch.js';
import { trunkPolicyFrom } from '../engine/policy/trunk-policy.js';
import { trunkKnownValid } from '../engine/policy/currency.js';
import { effortPolicyChanges } from '../engine/policy/compare.js';
import { decodeToml } from '../engine/config/toml.js';
import { recordGreen, recordNeutral, recordRed, replayEvidence } from './done-records.js';
import {
  openJournal,
  producerLabels,
  releaseOperationLock,
  runListener,
  lineSink,
  runOutput,
  takeOperationLock,
  testSlotAcquirer,
  type Journal,
} from './gate-session.js';
import { attemptPending } from './done-pending.js';
import { declarationRefusal, dropAdvisories, evaluateForDone, settleCheckpoints } from './done-checkpoints.js';
import { withCouplingHints } from './coupling-hints.js';
import { changedPaths, touchesPolicyFile } from '../engine/policy/policy-files.js';
import { readPolicyFileChanges } from '../engine/policy/policy-files-read.js';
import { killAt } from '../engine/faults.js';
import type { GateListener } from '../engine/gate/events.js';
import { projectSecrets } from '../engine/jobs/project-secrets.js';

export async function runDoneGate(run: DoneRun): Promise<DoneOutcome> {
  const { ctx } = run;
  const configured = gateConfig(ctx.project.config);
  if (!configured.ok) {
    const [first] = configured.issues;
    return {
      data: { issues: configured.issues },
      refusal: {
        error: 'invalid_config',
        message: `discern.toml has ${configured.issues.length === 1 ? 'a problem' : `${configured.issues.length} problems`} the gate cannot run with: ${configured.issues.map((i) => `\`${i.path}\` (${i.message})`).join('; ')}.`,
        next: { file: 'discern.toml', where: `key \`${first.path}\`` },
      },
    };
  }
  const gate = configured.gate;
  const checks = preconditionChecks({
    mergeCheck: ctx.project.location === 'worktree' && !run.standalone,
    standards: true,
    trackedArtifacts: true,
    currency: true,
    filters: !run.standalone,
  });
  const strict = run.mode === 'strict' && !run.standalone;
  // Independent reads run together: the change's scopes and the standards that can be replayed.
  // rerun measures everything again: nothing is replayed.
  const replaying = strict && run.input.rerun !== true;
  // The change's scopes and its checkpoints both start from the merge-base with the base: asked once.
  const headMergeBase =
    run.early?.headMergeBase ??
    git(['merge-base', run.baseRef, 'HEAD'], { cwd: ctx.project.root, env: ctx.env, signal: ctx.signal });
  // The two committed discern.toml files the run reads — the merge-base's (checkpoints) and the trunk's (the
  // never-loosen check) — in one process, once the merge-base is known (docs/decisions/0043).
  // The trunk's commit is read first (from the ref files) so its discern.toml, the governing policy, is read at
  // exactly the commit the Proof will name as judged under (docs/decisions/0047).
  const policyRead = run.baseRef === `refs/heads/${ctx.project.trunk.name}` && !run.standalone;
  const trunkTip = policyRead
    ? localBranchTip(ctx.project.commonDir, ctx.project.trunk.name, { cwd: ctx.project.root, env: ctx.env })
    : Promise.resolve(undefined);
  trunkTip.catch(() => undefined);
  const configs = Promise.all([headMergeBase, trunkTip]).then(([m, tip]) =>
    committedConfigs(mergeBaseFrom(m), tip ?? run.baseRef, ctx),
  );
  configs.catch(() => undefined);
  const mergeBaseConfig = configs.then((c) => c.atBase);
  const trunkConfig = configs.then((c) => c.atTrunk);
  for (const read of [mergeBaseConfig, trunkConfig]) read.catch(() => undefined);
  // The index's flags and paths: the hidden-files check, and the filters check's look for .gitattributes.
  const indexFlags = run.standalone
    ? undefined
    : (run.early?.indexFlags ?? git(['ls-files', '-v', '-z'], { cwd: ctx.project.root, env: ctx.env }));
  indexFlags?.catch(() => undefined);
  // A sparse checkout's skip-worktree paths outside its patterns are expected (git/sparse-checkout.ts).
  const sparse = run.standalone ? undefined : readSparseCheckout(ctx.project.gitDir, ctx.project.root, ctx.env);
  sparse?.catch(() => undefined);
  const [change, replayable, hidden, checkpoints, judged] = await Promise.all([
    changedScopes(run, gate, headMergeBase),
    replaying
      ? readMeasurements(run.paths.standardMeasurements).then((m) =>
          replayableStandards(gate.standards, m, ctx.project.root, ctx.env),
        )
      : new Map<string, Measurement>(),
    indexFlags ? hiddenFromStatus(indexFlags, sparse, ctx.project.root) : [],
    evaluateForDone(ctx, run.baseRef, headMergeBase, mergeBaseConfig, run.input.dry_run === true),
    run.standalone ? undefined : judgePolicy(ctx, run.base, trunkConfig, trunkTip, mergeBaseConfig),
  ]);
  if (judged !== undefined) {
    // A policy file beside discern.toml (the trusted signers) is read only when the change touches it; a change
    // set that could not be read touches every file.
    const touched = change.change === undefined || touchesPolicyFile(changedPaths(change.change.changes));
    if (touched)
      judged.changes.push(
        ...(await readPolicyFileChanges(
          { cwd: ctx.project.root, env: ctx.env, signal: ctx.signal },
          { trunk: (await trunkTip) ?? run.baseRef, base: change.base, head: 'HEAD' },
        )),
      );
    run.policy = judged;
  }
  const sparsePatterns = await sparse?.catch(() => undefined);
  run.checkoutFacts = {
    ...(sparsePatterns ? { sparse: { digest: sparsePatterns.digest, cone: sparsePatterns.cone } } : {}),
    modesCompared: execBitsKept(run.paths.checkoutDir),
  };
  if (hidden.length > 0) {
    return {
      refusal: {
        error: 'dirty_worktree',
        message: `${hidden.length} tracked file${hidden.length === 1 ? ' is' : 's are'} hidden from git status (assume-unchanged or skip-worktree${sparsePatterns ? ' inside the sparse-checkout patterns' : ''}: ${hidden.slice(0, 3).join(', ')}${hidden.length > 3 ? ', …' : ''}), so the working tree may differ from the commit the Proof would name. Clear the flags (\`git update-index --no-assume-unchanged --no-skip-worktree <path>\`) and commit any difference.`,
        next: {
          rerun: run.rerunCall,
          standalone: ctx.surface === 'mcp' ? 'discern_done with standalone: true' : 'discern done --standalone',
        },
      },
    };
  }
  const declarationProblem = declarationRefusal(ctx, checkpoints, run.declarations);
  if (declarationProblem) return declarationProblem;
  const scopesChanged = change.scopes;
  const plan = planGate({
    mode: 'done',
    catalog: gate.catalog,
    settings: gate.settings,
    changedScopes: scopesChanged,
    replayable: new Set(replayable.keys()),
  });
  const baseData = {
    mode: run.mode,
    scopes_changed: scopesChanged,
    ...(judged && judged.changes.length > 0 ? { policy_changes: judged.changes } : {}),
  } as const;

  const policy = strict ? 'strict' : 'report';
  if (run.input.dry_run === true) {
    const steps = planSteps(plan, preconditionPlanSteps(checks, run.base));
    const previewed = await settleCheckpoints(ctx, checkpoints, run.declarations, policy, false);
    const details = planDetails(run, plan, gate);
    if (previewed.data)
      details.push(
        `checkpoints: ${previewed.review.questions.length} question${previewed.review.questions.length === 1 ? '' : 's'} raised, ${previewed.review.outstanding.length} awaiting a declaration${run.declarations.met.length + run.declarations.unmet.length > 0 ? ' (the declarations given would be recorded)' : ''}`,
      );
    return {
      dry_run: true,
      plan: {
        title: `done would prove ${run.head.commit.slice(0, 12)}${run.branch ? ` on ${run.branch}` : ''}`,
        details,
        steps,
      },
      data: {
        ...baseData,
        gate_ran: false,
        failed_stage: null,
        ...(previewed.data ? { checkpoints: previewed.data } : {}),
        completion: {
          kind: 'pending',
          pending_reasons: ['dry run: nothing ran'],
          pending: [{ kind: 'dry_run', reason: 'dry run: nothing ran' }],
        },
      },
    };
  }

  // The verdicts already on record for this tree and config: replay a green one that covers today's plan;
  // refuse to repeat a red one on the same plan.
  const planned = plannedLabels(plan);
  const evidence = replaying ? await readEvidence(run.paths.evidence, run.key) : undefined;
  const replay = evidence !== undefined && covers(evidence, planned) ? evidence : undefined;
  if (replaying && replay === undefined) {
    const last = await readLastRun(run.paths.lastRun, run.paths.commonDir);
    if (
      last &&
      last.verdict === 'red' &&
      last.tree === run.key.tree &&
      last.config_digest === run.key.configDigest &&
      last.discern_version === run.key.version &&
      sameLabels(last.plan, planned)
    ) {
      const progress = last.handle ? readBack(ctx, last.handle) : readBack(ctx);
      return {
        data: {
          ...baseData,
          gate_ran: false,
          failed_stage: last.failed_stage,
          completion: pendingCompletion(`the last run on this tree failed at ${stageName(last.failed_stage)}`),
        },
        refusal: {
          error: 'unchanged_tree_rerun',
          message: `This tree was already proven red at ${stageName(last.failed_stage)} (${last.at}) with the same jobs, and nothing changed since: running them again would give the same answer. Fix it and commit, or ask for a re-measure.`,
          next: { progress, rerun: ctx.surface === 'mcp' ? 'rerun: true' : 'discern done --rerun' },
        },
      };
    }
  }

  const attempt = `A-${randomBytes(6).toString('hex')}`;
  const probe = {
    root: ctx.project.root,
    env: ctx.env,
    signal: ctx.signal,
    base: run.base,
    baseRef: run.baseRef,
    mergeCheck: true,
    standards: gate.standards,
    stateDir: run.paths.checkoutDir,
    commonDir: run.paths.commonDir,
    ...(ctx.project.config.map?.dir ? { mapDir: ctx.project.config.map.dir } : {}),
    project: ctx.project,
    head: run.head.commit,
  };
  const lock = await takeOperationLock(
    run.paths,
    { verb: 'done', attempt, head: run.head.commit, checkout: ctx.project.root },
    probe,
  );
  if ('busy' in lock) return attemptPending(run, lock.busy, baseData);
  if ('denied' in lock) {
    const f = lock.denied.failure;
    return {
      steps: lock.denied.steps,
      diagnostics: f.diagnostics,
      data: {
        ...baseData,
        gate_ran: false,
        failed_stage: f.failedStage,
        completion: pendingCompletion(`a precondition failed: ${f.failedStage}`),
      },
      refusal: {
        error: 'write_denied',
        message: f.message,
        next: { target: f.target ?? run.paths.checkoutDir, access: 'writable' },
      },
    };
  }

  killAt(ctx.env, 'done:locked');
  // Under the lock, the checks' git reads start together and run beside the journal's opening.
  const checkProbe = {
    ...probe,
    reads: startPreconditionReads(checks, probe, { trunkConfig, ...(indexFlags ? { indexFlags } : {}) }),
  };
  let journal: Journal | undefined;
  // Inside another run (accept's gate) the record is that run's: its handle was announced already.
  const lent = ctx.operation;
  try {
    journal = lent
      ? { ...lent, finish: () => Promise.resolve() }
      : await openJournal(run.paths, 'done', ctx.project, run.branch, ctx.surface);
  } catch {
    // The journal is advisory: without it the run still happens, it just cannot be read back.
    journal = undefined;
  }
  killAt(ctx.env, 'done:journal-opened');
  const lines = lineSink(gate.settings, ctx);
  const listener = withKillPoints(
    runListener(journal, ctx.progress, producerLabels(plan), lines),
    plan,
    journal,
    ctx.env,
  );
  if (journal && !lent)
    listener({
      type: 'phase',
      phase: 'announce',
      message: `${journal.handle} — read it back with ${journal.readBack}`,
    });
  let envelope: DoneOutcome | undefined;
  try {
    listener({ type: 'phase', phase: 'preconditions', message: 'checking preconditions' });
    const pre = await runPreconditions(checks, checkProbe);
    const handleData = journal ? { handle: journal.handle } : {};
    const limits = pre.standardsLimits ? { standards_limits: pre.standardsLimits } : {};
    const advisories = limitsAdvisories(pre);
    if (pre.standardProposals) run.standardProposals = pre.standardProposals;
    if (!pre.failure) killAt(ctx.env, 'done:preconditions');
    if (pre.failure) {
      const f = pre.failure;
      envelope = {
        steps: pre.steps,
        diagnostics: f.diagnostics,
        data: {
          ...baseData,
          ...handleData,
          ...limits,
          gate_ran: false,
          failed_stage: f.failedStage,
          completion: pendingCompletion(`a precondition failed: ${f.failedStage}`),
        },
        refusal:
          f.error === 'write_denied'
            ? {
                error: 'write_denied',
                message: f.message,
                next: { target: f.target ?? run.paths.checkoutDir, access: 'writable' },
              }
            : f.error === 'proposal_stale'
              ? { error: 'proposal_stale', message: f.message, next: {} }
              : { error: 'gate_failed', message: f.message, next: { rerun: run.rerunCall } },
        ...(advisories.length > 0 ? { advisories } : {}),
      };
      return envelope;
    }
    // Checkpoints: after the preconditions, before any project job (docs/decisions/0028).
    listener({ type: 'phase', phase: 'checkpoints', message: 'checking checkpoints' });
    const settled = await settleCheckpoints(ctx, checkpoints, run.declarations, policy, strict);
    run.checkpoints = settled.facts;
    advisories.push(...dropAdvisories(settled.review));
    const checkpointData = settled.data ? { checkpoints: settled.data } : {};
    const preSteps = settled.step ? [...pre.steps, settled.step] : pre.steps;
    if (settled.refusal) {
      envelope = {
        steps: preSteps,
        data: {
          ...baseData,
          ...handleData,
          ...limits,
          ...checkpointData,
          gate_ran: false,
          failed_stage: null,
          completion: pendingCompletion('checkpoint questions await a declaration'),
        },
        refusal: { error: 'awaiting_declaration', message: settled.refusal.message, next: settled.refusal.next },
        ...(advisories.length > 0 ? { advisories } : {}),
      };
      return envelope;
    }
    // A change only in the trunk's neutral scopes needs no job: its Proof is recorded now, naming why.
    const first = strict ? judgeNeutral(change.change, judged?.trunkScopes) : undefined;
    const neutral =
      first && change.base !== null && judged?.trunkScopes
        ? await confirmNeutral(
            { cwd: ctx.project.root, env: ctx.env, signal: ctx.signal },
            run.baseRef,
            change.base,
            judged.trunkScopes,
          )
        : undefined;
    if (neutral && change.base !== null) {
      envelope = await withLandingAuthority(
        await recordNeutral(
          run,
          neutral.scopes,
          preSteps,
          { ...baseData, ...handleData, ...limits, ...checkpointData },
          journal?.handle,
          diffStatsFrom(change.base, ctx.project.root, ctx.env),
        ),
        run,
        change.change,
        lent !== undefined,
      );
      if (advisories.length > 0)
        envelope = { ...envelope, advisories: [...(envelope.advisories ?? []), ...advisories] };
      return envelope;
    }
    if (replay) {
      // Nothing ran: the merge-base and the change read before are still the checkout's, so neither the Proof's
      // diff counts nor the coupling hints ask git for them again.
      const stats =
        change.base !== null
          ? diffStatsFrom(change.base, ctx.project.root, ctx.env)
          : diffStatsAgainst(run.base, ctx.project.root, ctx.env);
      const unchanged = run.baseRef === `refs/heads/${ctx.project.trunk.name}` ? change.change : undefined;
      envelope = await withCouplingHints(
        await withLandingAuthority(
          await replayEvidence(
            run,
            replay,
            preSteps,
            { ...baseData, ...handleData, ...limits, ...checkpointData },
            journal?.handle,
            stats,
          ),
          run,
          change.change,
          lent !== undefined,
        ),
        ctx,
        unchanged,
      );
      if (advisories.length > 0)
        envelope = { ...envelope, advisories: [...(envelope.advisories ?? []), ...advisories] };
      return envelope;
    }

    const output = runOutput(run.paths, journal?.handle ?? attempt);
    // The Proof's diff counts depend only on commits: read them while the jobs run.
    // change.base is already the merge-base with HEAD: it is not asked for again.
    const stats =
      strict || run.mode === 'report'
        ? change.base !== null
          ? diffStatsFrom(change.base, ctx.project.root, ctx.env)
          : diffStatsAgainst(run.base, ctx.project.root, ctx.env)
        : undefined;
    stats?.catch(() => undefined);
    // Each dirty-set read is one strict status (git/checkout-status.ts): the one after the last stage also says
    // where HEAD is and which branch it is on, and is the logbook's second look (docs/decisions/0043).
    let lastStatus: CheckoutStatus | undefined;
    const modes = { compareModesIn: run.paths.checkoutDir };
    const readDirty = async (): Promise<Set<string>> => {
      const read = await readCheckoutStatus(ctx.project.root, ctx.env, undefined, modes);
      lastStatus = read.ok ? read.status : undefined;
      return dirtySetFrom(read, ctx.project.root, ctx.env);
    };
    // The index as the jobs found it: if no job wrote it, its flags are still those read before the jobs.
    const indexBefore = run.standalone
      ? undefined
      : indexStamp(dirname(run.paths.checkoutDir), ctx.project.root, ctx.env);
    const gateRun = await executeGate({
      plan,
      cwd: ctx.project.root,
      env: ctx.env,
      signal: ctx.signal,
      settings: gate.settings,
      secrets: projectSecrets(ctx.project),
      outputDir: output.dir,
      listener,
      streamLines: lines !== undefined,
      readDirty,
      // A strict run starts from a clean tree (it refused a dirty one): nothing needs reading before the first stage.
      ...(run.standalone ? {} : { initialDirty: new Set<string>() }),
      generated: gate.generated,
      judgeStandard: (producer, result) => judgeStandardRun(producer, result, ctx.project.root, ctx.env),
      ...withSlot(
        testSlotAcquirer(run.paths, gate.settings.concurrentTestRuns, {
          verb: 'done',
          checkout: ctx.project.root,
          ...handleData,
        }),
      ),
    });
    await output.housekept;
    // Read after the last stage that ran (a run that was not cancelled read the tree after every stage it ran).
    if (ctx.looks && lastStatus && !gateRun.cancelled) ctx.looks.last = lastStatus;
    const report = await reportGateRun(plan, gateRun, ctx.project.root, replayable);
    // A replayed value is judged against today's limit: one that no longer clears it fails like a measured one.
    const staleReplays = report.standards.filter((s) => s.measurement === 'replayed' && s.verdict === 'regressed');
    for (const s of staleReplays) {
      report.diagnostics.push({
        tool: `standard:${s.name}`,
        severity: 'error',
        message: `${s.name} regressed: its last green value ${s.value ?? '?'} (replayed; its inputs are unchanged) is ${s.direction === 'up' ? `below the floor ${s.limit}` : `above the ceiling ${s.limit}`}.`,
        reproduce_cmd: gate.standards.find((d) => d.name === s.name)?.commands.join(' && ') ?? '',
      });
    }
    // A job that hid a tracked file from git status (assume-unchanged, skip-worktree) drifted the tree unseen:
    // the flags are read again after the jobs, as they were before them, unless the index file is untouched. In a
    // sparse checkout always: a job's write to a path outside the patterns changes no index and no git status.
    const hiddenAfter =
      run.standalone ||
      gateRun.cancelled ||
      gateRun.failedStage !== null ||
      (indexBefore !== undefined &&
        sparsePatterns === undefined &&
        indexBefore === indexStamp(dirname(run.paths.checkoutDir), ctx.project.root, ctx.env))
        ? []
        : await hiddenFromStatus(
            git(['ls-files', '-v', '-z'], { cwd: ctx.project.root, env: ctx.env }),
            sparse,
            ctx.project.root,
          );
    for (const file of hiddenAfter.slice(0, 20))
      report.diagnostics.push({
        tool: 'git',
        severity: 'error',
        message: `${file} was hidden from git status during the run (assume-unchanged or skip-worktree): its content is not what the commit holds`,
        file,
        reproduce_cmd: 'git ls-files -v | grep -E "^(S|[a-z]) "',
      });
    const failedStage =
      gateRun.failedStage ?? (staleReplays.length > 0 ? 'standards' : hiddenAfter.length > 0 ? 'tree_drift' : null);
    const steps = [...preSteps, ...report.steps];
    const capAdvisory: DoneAdvisory[] = gateRun.capUnavailable
      ? [
          {
            kind: 'execution-cap-unavailable',
            evidence: [gateRun.capUnavailable],
            next_action: 'Make the test-slot directory writable, or set [gate] concurrent_test_runs = 0.',
          },
        ]
      : [];
    const common = {
      steps,
      ...(gateRun.waitedMs > 0 ? { waited_ms: gateRun.waitedMs } : {}),
      ...(report.diagnostics.length > 0 ? { diagnostics: report.diagnostics } : {}),
    };
    const data: DiscernDoneData = {
      ...baseData,
      ...handleData,
      ...limits,
      ...checkpointData,
      gate_ran: true,
      failed_stage: failedStage,
      ...(report.standards.length > 0 ? { standards: report.standards } : {}),
      producer_executions: report.producerExecutions,
    };
    if (gateRun.cancelled) {
      envelope = {
        ...common,
        data: { ...data, completion: pendingCompletion('the run was cancelled') },
        refusal: {
          error: 'apply_failed',
          message: `The run was cancelled${failedLabels(steps, 'cancelled')}: its jobs were stopped and nothing was recorded.`,
          next: { recovery: `run ${run.rerunCall} again when you want the verdict` },
        },
      };
      return envelope;
    }
    if (failedStage !== null) {
      if (strict)
        await recordRed(
          run,
          failedStage,
          journal?.handle,
          planned,
          gateRun.runs.map((r) => ({
            label: r.producer.label,
            outcome: r.outcome,
            duration_ms: r.result?.durationMs ?? 0,
          })),
        );
      // The message quotes the first error (a warning printed before it is not why the run failed).
      const first = report.diagnostics.find((d) => d.severity === 'error') ?? report.diagnostics[0];
      envelope = {
        ...common,
        data: { ...data, completion: pendingCompletion(`the gate failed at ${stageName(failedStage)}`) },
        refusal: {
          error: 'gate_failed',
          message: `The gate failed at ${stageName(failedStage)}${failedLabels(steps)}${first ? `: ${first.message}` : '.'}`,
          next: { rerun: run.rerunCall },
        },
        hints: gateRun.drift
          ? [
              'The gate changed files that were clean: review them (`git diff`, `git status`), commit what belongs, and run done again.',
            ]
          : [],
        ...(advisories.length + capAdvisory.length > 0 ? { advisories: [...advisories, ...capAdvisory] } : {}),
      };
      return envelope;
    }
    // The executor read the tree after the last stage that ran, and nothing ran since: that status says where
    // HEAD is. With no stage run (nothing planned), one status is read now.
    const now =
      lastStatus ??
      (await readCheckoutStatus(ctx.project.root, ctx.env, undefined, modes).then((r) =>
        r.ok ? r.status : undefined,
      ));
    const headNow = now?.head !== null && now?.head !== undefined ? { commit: now.head } : undefined;
    const branchNow = now?.branch ?? null;
    if (!run.standalone && (headNow?.commit !== run.head.commit || branchNow !== run.branch)) {
      // The evidence belongs to the commit (and branch) the run started on; a HEAD that moved meanwhile earns nothing.
      const moved =
        headNow?.commit !== run.head.commit
          ? `HEAD moved during the run, from ${run.head.commit.slice(0, 12)} to ${headNow?.commit.slice(0, 12) ?? 'nothing'} (a job or another process committed or checked out)`
          : `HEAD moved during the run, from branch ${run.branch ?? '(detached)'} to ${branchNow ?? 'a detached HEAD'} (a job or another process checked out)`;
      envelope = {
        ...common,
        data: {
          ...data,
          failed_stage: 'tree_drift',
          gate_proof: { status: 'skipped_head_moved', reason: moved },
          completion: pendingCompletion(moved),
        },
        refusal: {
          error: 'gate_failed',
          message: `${moved}: the gate passed for a commit that is no longer HEAD, so no Proof was recorded. Run done again on the new HEAD.`,
          next: { rerun: run.rerunCall },
        },
      };
      return envelope;
    }
    // HEAD is where it was and the run left the checkout clean: the change read before the jobs is the change
    // now, so the coupling hints need not read it again (the local trunk is the base they compare with).
    const unchanged =
      !run.standalone && run.baseRef === `refs/heads/${ctx.project.trunk.name}` && gateRun.dirtyAfter?.size === 0
        ? change.change
        : undefined;
    const green = await recordGreen(
      run,
      gateRun,
      report,
      common,
      data,
      [...advisories, ...capAdvisory],
      journal?.handle,
      stats,
    );
    // Hints of files that change together are for an agent about to commit more; a gate inside another run
    // (accept's composition) reports none, and reading the history for them would only delay the landing.
    const authorised = await withLandingAuthority(green, run, change.change, lent !== undefined);
    envelope = lent ? authorised : await withCouplingHints(authorised, ctx, unchanged);
    killAt(ctx.env, 'done:proof-recorded');
    return envelope;
  } finally {
    releaseOperationLock(lock);
    killAt(ctx.env, 'done:lock-released');
    if (journal) {
      const outcome =
        envelope === undefined || ctx.signal.aborted
          ? 'cancelled'
          : envelope.refusal === undefined && !(envelope.steps ?? []).some((s) => s.outcome === 'cancelled')
            ? 'completed'
            : 'failed';
      const account = accountOf(envelope);
      // The run a lent journal belongs to goes on after this gate: only its own end finishes it.
      listener({
        type: 'phase',
        phase: lent ? 'gate-finished' : 'finished',
        state: outcome,
        message: account[0] ?? outcome,
      });
      await journal.finish({ outcome, ...(envelope ? { result: journalResult(envelope) } : {}), account });
      killAt(ctx.env, 'done:journal-finished');
    }
  }
}

/**
 * The kill points inside the gate (docs/decisions/0037): a stage's start, at once, before its jobs spawn (named
 * by its stage, which has no comma, unlike some group names); and a job's start once the journal holds its
 * process group — that kill leaves the job running, as a kill from outside would, for the next run to reap.
 */
function withKillPoints(
  listener: GateListener,
  plan: GatePlan,
  journal: Journal | undefined,
  env: DoneRun['ctx']['env'],
): GateListener {
  if ((env['DISCERN_FAULT'] ?? '') === '') return listener;
  const killOnceWritten = (point: string): void =>
    void (journal?.writer.flush() ?? Promise.resolve()).then(() => killAt(env, point));
  return (event) => {
    listener(event);
    if (event.type === 'group-start')
      killAt(env, `done:stage-started:${plan.groups.find((g) => g.name === event.group)?.stage ?? event.group}`);
    if (event.type === 'producer-pgid' && event.event === 'start') killOnceWritten(`done:job-started:${event.label}`);
  };
}

/** What the plan runs, standards aside (a standard's value may be replayed or deferred without changing it). */
function plannedLabels(plan: GatePlan): string[] {
  return plan.groups.flatMap((g) => g.producers.filter((p) => p.kind !== 'standard').map((p) => p.label)).sort();
}

/** Evidence replays only when everything today's plan would run passed in the recorded run. */
function covers(evidence: Evidence, planned: readonly string[]): boolean {
  const passed = new Set(evidence.producers.filter((p) => p.outcome === 'ok').map((p) => p.label));
  return planned.every((label) => passed.has(label));
}

function sameLabels(recorded: readonly string[] | undefined, planned: readonly string[]): boolean {
  return recorded !== undefined && recorded.length === planned.length && recorded.every((l, i) => l === planned[i]);
}

/** The trunk's discern.toml and, when there is a merge-base, the merge-base's: one batch answering as their own commands. */
/** The trunk's policy the change is judged under, and how the change's discern.toml differs from it. */
async function judgePolicy(
  ctx: DoneRun['ctx'],
  base: string,
  trunkConfig: Promise<GitResult>,
  trunkTip: Promise<string | undefined>,
  mergeBaseConfig: Promise<GitResult | undefined> | undefined,
): Promise<JudgedPolicy | undefined> {
  const [shown, tip, atBase] = await Promise.all([trunkConfig, trunkTip, mergeBaseConfig]);
  const policy = await trunkPolicyFrom(shown, base, trunkKnownValid(ctx.project.commonDir));
  if (policy.state === 'unreadable') return undefined;
  const decoded =
    atBase !== undefined && atBase.code === 0
      ? decodeToml(Buffer.from(atBase.stdout, 'utf8'), 'discern.toml')
      : undefined;
  const baseConfig = decoded?.ok ? withVariables((decoded.value ?? {}) as DiscernConfig).config : {};
  // A trunk scope whose pattern does not compile makes no change neutral: the gate runs.
  const trunkScopes = policy.state === 'present' ? compileScopes(scopeDefinitions(policy.config)) : undefined;
  return {
    digest: policy.digest,
    ...(tip !== undefined ? { trunkTip: tip } : {}),
    changes: policy.state === 'present' ? effortPolicyChanges(policy.config, baseConfig, ctx.project.config) : [],
    ...(trunkScopes && trunkScopes.problems.length === 0
      ? {
          trunkScopes: trunkScopes.scopes,
          trunkPreAuthorized: policy.state === 'present' ? (policy.config.acceptance?.pre_authorized ?? []) : [],
        }
      : {}),
  };
}

function committedConfigs(
  base: string | null,
  baseRef: string,
  ctx: DoneRun['ctx'],
): { atTrunk: Promise<GitResult>; atBase: Promise<GitResult> | undefined } {
  const requests = [
    { name: `${baseRef}:discern.toml`, command: trunkConfigCommand(baseRef) },
    ...(base !== null ? [{ name: `${base}:discern.toml`, command: mergeBaseConfigCommand(base) }] : []),
  ];
  const [atTrunk, atBase] = readCommittedFiles(requests, { cwd: ctx.project.root, env: ctx.env, signal: ctx.signal });
  for (const read of [atTrunk, atBase]) read?.catch(() => undefined);
  return { atTrunk: atTrunk as Promise<GitResult>, atBase };
}

/**
 * Tracked files git status does not look at (assume-unchanged, skip-worktree): their content is unknown. In a
 * sparse checkout, skip-worktree alone (`S`) on a path outside the patterns and absent from the tree is expected.
 */
async function hiddenFromStatus(
  indexFlags: Promise<GitResult>,
  sparseRead: Promise<SparseCheckout | undefined> | undefined,
  root: string,
): Promise<string[]> {
  const listed = await indexFlags;
  if (listed.code !== 0) return [];
  const hidden = listed.stdout
    .split('\0')
    .filter((entry) => entry.length > 2 && (entry[0] === 'S' || /^[a-z]$/.test(entry[0] ?? '')));
  const sparse = hidden.length > 0 ? await sparseRead?.catch(() => undefined) : undefined;
  return hidden
    .filter((entry) => !(sparse && entry[0] === 'S' && outsideSparsePatterns(sparse, root, entry.slice(2))))
    .map((entry) => entry.slice(2));
}

/**
 * A green strict done in an effort's worktree says who may land it as things stand: the owner's grant, or the
 * trunk's pre_authorized scopes covering the change. Judged with the trunk's policy only; absent when that could
 * not be read, outside a worktree, or inside accept's own gate (accept decides authority itself).
 */
async function withLandingAuthority(
  envelope: DoneOutcome,
  run: DoneRun,
  change: ChangeSet | undefined,
  lent: boolean,
): Promise<DoneOutcome> {
  const { ctx } = run;
  const data = envelope.data;
  if (lent || envelope.refusal !== undefined || data === undefined || !('gate_ran' in data)) return envelope;
  if (run.mode !== 'strict' || run.standalone || ctx.project.location !== 'worktree' || change === undefined)
    return envelope;
  const policy = run.policy;
  if (policy?.trunkScopes === undefined || policy.trunkPreAuthorized === undefined) return envelope;
  if (run.branch === null) return envelope;
  const record = await readTaskRecord(ctx.project.gitDir).catch(() => undefined);
  const landing = await effortLandingAuthority({
    commonDir: ctx.project.commonDir,
    effort: record?.id ?? basename(ctx.project.root),
    branch: run.branch,
    preAuthorized: policy.trunkPreAuthorized,
    scopes: policy.trunkScopes,
    changed: [...new Set(change.changes.flatMap((c) => (c.from !== undefined ? [c.path, c.from] : [c.path])))],
  });
  return { ...envelope, data: { ...data, landing_authority: landing } };
}

async function changedScopes(
  run: DoneRun,
  gate: GateConfig,
  headMergeBase: Promise<GitResult>,
): Promise<{ scopes: string[]; base: string | null; change?: ChangeSet }> {
  const { project } = run.ctx;
  try {
    const change = await readChangeSet(
      {
        cwd: project.root,
        env: run.ctx.env,
        signal: run.ctx.signal,
        headMergeBase,
        ...(run.untracked ? { untracked: run.untracked } : {}),
      },
      project.trunk.name,
      run.baseRef,
    );
    return { scopes: classify(change.changes, gate.scopes).scopes, base: change.base, change };
  } catch {
    // Classification fails open: with no change set, no scope gate is skipped by mistake — they all run.
    return { scopes: gate.catalog.scopeGates.map((p) => p.scope ?? '').filter((s) => s.length > 0), base: null };
  }
}

function planDetails(run: DoneRun, plan: GatePlan, gate: GateConfig): string[] {
  const details = [
    `mode: ${run.mode}${run.standalone ? ', standalone (no Proof)' : ''}`,
    `against: ${run.base}`,
    `concurrency: ${gate.settings.concurrency}, fail_fast: ${gate.settings.failFast}, timeout: ${gate.settings.timeoutS === 0 ? 'none' : `${gate.settings.timeoutS} s`} per command`,
  ];
  if (plan.scopeGates.length > 0) details.push(`scope gates of changed scopes: ${plan.scopeGates.join(', ')}`);

  return details;
}

function withSlot(acquirer: ReturnType<typeof testSlotAcquirer>): {
  acquireTestSlot?: NonNullable<ReturnType<typeof testSlotAcquirer>>;
} {
  return acquirer ? { acquireTestSlot: acquirer } : {};
}

function limitsAdvisories(pre: PreconditionOutcome): DoneAdvisory[] {
  const limits = pre.standardsLimits;
  if (limits?.status !== 'unverified') return [];
  return [
    {
      kind: 'standards-limits-unverified',
      evidence: [limits.reason ?? `the trunk's discern.toml could not be read`],
      next_action: `Commit discern.toml on ${limits.trunk} so its [standards] limits can be held; until then a branch may loosen them unnoticed.`,
    },
  ];
}

function failedLabels(steps: readonly { label: string; outcome: string }[], outcome = 'failed'): string {
  const failed = steps.filter((s) => s.outcome === outcome).map((s) => s.label);
  return failed.length > 0 ? ` (${failed.join(', ')})` : '';
}

/** The final envelope, built the way every surface builds it, for the journal to keep. */
function journalResult(outcome: DoneOutcome): DiscernResult {
  return buildEnvelope({ verb: 'done', policy: VERBS.done.policy }, outcome);
}

function accountOf(outcome: DoneOutcome | undefined): string[] {
  if (outcome === undefined) return ['The run stopped before it finished.'];
  if (outcome.refusal?.error === 'apply_failed') return ['The run was cancelled; its jobs were stopped.'];
  if (outcome.refusal) return [outcome.refusal.message];
  const data = outcome.data as DiscernDoneData | undefined;
  return data?.proof ? [data.proof.line] : ['The gate passed.'];
}
