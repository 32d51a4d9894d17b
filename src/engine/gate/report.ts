// What a gate run reports: one step per producer (outcome, duration, output metadata), diagnostics for every
// failure (the producer's own DISCERN_PROGRESS failures first, else what its output shows, else the output
// itself), the standards as the gate saw them, and how many commands each producer ran.
import type { DiscernDiagnostic, DiscernGateStandard, DiscernStep } from '../../../generated/types.js';
import { diagnoseOutput } from '../diagnostics/index.js';
import { checkoutPath } from '../diagnostics/checkout-path.js';
import type { JobRunResult } from '../jobs/run-job.js';
import type { DriftVerdict } from './drift.js';
import type { GateRun, ProducerRun } from './execute.js';
import { noteOf, type GatePlan } from './plan.js';
import type { Measurement } from './standard-measurements.js';
import { verdictOf } from './standard-verdict.js';
import { shellQuote } from '../process/shell-quote.js';

const DRIFT_PATHS_SHOWN = 20;

export interface GateReport {
  steps: DiscernStep[];
  diagnostics: DiscernDiagnostic[];
  standards: DiscernGateStandard[];
  producerExecutions: Record<string, number>;
}

export async function reportGateRun(
  plan: GatePlan,
  run: GateRun,
  root: string,
  replayed: ReadonlyMap<string, Measurement>,
): Promise<GateReport> {
  // Standards that did not run are steps too: replayed (inputs untouched) or deferred (on-demand).
  const notRun = plan.standards
    .filter((s) => s.disposition !== 'measured')
    .map((s): DiscernStep => ({
      kind: 'standard',
      label: s.producer.label,
      disposition: 'skip',
      outcome: 'skipped',
      note:
        s.disposition === 'replayed'
          ? `replayed: its inputs are untouched since its last green measurement (${replayed.get(s.producer.standard?.name ?? '')?.value ?? '?'})`
          : 'deferred: measure = "on-demand"',
    }));
  const steps = [...run.runs.map(stepOf), ...notRun];
  const diagnostics: DiscernDiagnostic[] = [];
  for (const r of run.runs) if (r.outcome === 'failed') diagnostics.push(...(await diagnosticsOf(r, root)));
  if (run.drift) diagnostics.push(...driftDiagnostics(run.drift));
  const producerExecutions: Record<string, number> = {};
  for (const r of run.runs)
    if (r.result) producerExecutions[r.producer.label] = commandsRun(r.producer.commands, r.result);
  return { steps, diagnostics, standards: gateStandards(plan, run, replayed), producerExecutions };
}

function stepOf(r: ProducerRun): DiscernStep {
  const measured = r.standard?.ok ? ` — measured ${r.standard.value}` : '';
  return {
    kind: r.producer.kind,
    label: r.producer.label,
    disposition: 'run',
    note: `${noteOf(r.producer)}${measured}`,
    group: r.group.name,
    outcome: r.outcome,
    ...(r.result
      ? {
          duration_s: Math.round(r.result.durationMs / 1000),
          output_path: r.result.outputPath,
          output_lines: r.result.outputLines,
          error_like_lines: r.result.errorLikeLines,
        }
      : {}),
  };
}

async function diagnosticsOf(r: ProducerRun, root: string): Promise<DiscernDiagnostic[]> {
  const result = r.result;
  const tool = r.producer.label;
  if (!result) return [];
  const command = result.failure?.command ?? r.producer.commands[0] ?? '';
  // A standard's value comes from all its commands together: reproducing it means running them all.
  const measure = r.producer.commands.join(' && ');
  if (r.standard && !r.standard.ok)
    return [
      {
        tool,
        severity: 'error',
        message: `${r.producer.standard?.name ?? tool}: ${r.standard.problem}.`,
        reproduce_cmd: measure,
        output_path: result.outputPath,
      },
    ];
  if (r.standard?.ok && r.standard.verdict === 'regressed') {
    const def = r.producer.standard;
    const bound = def?.direction === 'up' ? `below its floor ${def.limit}` : `above its ceiling ${def?.limit ?? ''}`;
    return [
      {
        tool,
        severity: 'error',
        message: `${def?.name ?? tool} regressed: measured ${r.standard.value}, ${bound}.`,
        reproduce_cmd: measure,
        output_path: result.outputPath,
      },
    ];
  }
  const failure = result.failure;
  if (failure?.kind === 'spawn')
    return [
      {
        tool,
        severity: 'error',
        message: `${tool} could not start: ${failure.message}.`,
        reproduce_cmd: command,
        output_path: result.outputPath,
      },
    ];
  const lead: DiscernDiagnostic[] = [];
  if (failure?.kind === 'timeout') {
    lead.push({
      tool,
      severity: 'error',
      message: `${tool} timed out after ${failure.seconds} s (${failure.key}); its process group was killed. Raise ${failure.key} or make the command faster.`,
      reproduce_cmd: command,
      output_path: result.outputPath,
    });
  }
  const reported = result.progress.failures.map((f) => {
    // A producer's own paths point into the checkout like any tool's: relative when under it.
    const file = f.file !== undefined ? checkoutPath(f.file, root) : undefined;
    return {
      tool,
      severity: 'error' as const,
      message: `${f.name}: ${f.message}`,
      reproduce_cmd: f.reproduce ?? command,
      rule: f.name,
      ...(file !== undefined ? { file } : {}),
      ...(f.line !== undefined ? { line: f.line } : {}),
    };
  });
  if (reported.length > 0) return [...lead, ...reported];
  const diagnosis = await diagnoseOutput({ tool, reproduce_cmd: command, output_path: result.outputPath, cwd: root });
  // A timeout's output is usually just cut short: keep the parsed findings only when they name a place.
  const parsed =
    failure?.kind === 'timeout' ? diagnosis.diagnostics.filter((d) => d.file !== undefined) : diagnosis.diagnostics;
  // When the output names no place, how the command ended is the most exact fact there is.
  const ended =
    failure?.kind === 'exit'
      ? `exited with status ${failure.code}`
      : failure?.kind === 'signal'
        ? `was killed by ${failure.signal}`
        : undefined;
  const told =
    diagnosis.format === 'output' && ended !== undefined
      ? parsed.map((d, i) =>
          i === 0 ? { ...d, message: `${d.message.replace(/\.$/, '')} (the command ${ended}).` } : d,
        )
      : parsed;
  return [...lead, ...told];
}

function driftDiagnostics(drift: DriftVerdict): DiscernDiagnostic[] {
  const what =
    drift.failedStage === 'generated_drift' ? 'outside every [generated] path' : 'though it was clean before';
  return drift.paths.slice(0, DRIFT_PATHS_SHOWN).map((file) => ({
    tool: drift.group,
    severity: 'error' as const,
    message: `the ${drift.group} stage changed ${file} ${what}`,
    file,
    reproduce_cmd: `git status --short -- ${shellQuote(file)}`,
  }));
}

function gateStandards(
  plan: GatePlan,
  run: GateRun,
  replayed: ReadonlyMap<string, Measurement>,
): DiscernGateStandard[] {
  return plan.standards.map(({ producer, disposition }) => {
    const def = producer.standard;
    if (!def) throw new Error(`standard producer ${producer.label} has no definition`);
    const base = {
      name: def.name,
      direction: def.direction,
      limit: def.limit,
      ...(def.margin > 0 ? { margin: def.margin } : {}),
    };
    if (disposition === 'deferred')
      return { ...base, measurement: 'deferred', reason: 'measure = "on-demand": the gate does not measure it' };
    if (disposition === 'replayed') {
      const last = replayed.get(def.name);
      if (!last) return { ...base, measurement: 'skipped', reason: 'its replayed value was not found' };
      return {
        ...base,
        measurement: 'replayed',
        value: last.value,
        ...verdictFields(verdictOf(def, last.value)),
        replayed_from: last.commit,
      };
    }
    const r = run.runs.find((x) => x.producer === producer);
    if (!r || !r.result || r.outcome === 'skipped' || r.outcome === 'cancelled')
      return { ...base, measurement: 'skipped', reason: skipReason(run, r) };
    const duration_s = Math.round(r.result.durationMs / 1000);
    if (!r.standard)
      return {
        ...base,
        measurement: 'skipped',
        duration_s,
        reason: `its command failed (${describeFailure(r.result)})`,
      };
    if (!r.standard.ok) return { ...base, measurement: 'measured', duration_s, reason: r.standard.problem };
    return { ...base, measurement: 'measured', value: r.standard.value, duration_s, ...verdictFields(r.standard) };
  });
}

/** Why a standard has no value: cancelled or never started beside a failure in its stage, or a stage before it failed. */
function skipReason(run: GateRun, r: ProducerRun | undefined): string {
  if (r?.outcome === 'cancelled') return 'cancelled when another job of its stage failed (fail_fast)';
  const sameStageFailed = r !== undefined && run.runs.some((x) => x.group === r.group && x.outcome === 'failed');
  return sameStageFailed
    ? 'not started: another job of its stage failed first (fail_fast)'
    : 'not run: an earlier stage failed';
}

function verdictFields(v: {
  verdict: 'improved' | 'held' | 'regressed';
  pin_eligible: boolean;
  pin_target?: number;
}): Pick<DiscernGateStandard, 'verdict' | 'pin_eligible' | 'pin_target'> {
  return {
    verdict: v.verdict,
    pin_eligible: v.pin_eligible,
    ...(v.pin_target !== undefined ? { pin_target: v.pin_target } : {}),
  };
}

function describeFailure(result: JobRunResult): string {
  const f = result.failure;
  if (!f) return result.outcome;
  if (f.kind === 'exit') return `exit ${f.code}`;
  if (f.kind === 'signal') return `killed by ${f.signal}`;
  if (f.kind === 'timeout') return `timed out after ${f.seconds} s`;
  return f.message;
}

function commandsRun(commands: readonly string[], result: JobRunResult): number {
  if (result.outcome === 'ok') return commands.length;
  const at = result.failure ? commands.indexOf(result.failure.command) : -1;
  return at >= 0 ? at + 1 : 1;
}
