// One logbook line: the facts of one verb call, taken from its result envelope after it was built. Never the
// call's input: a search query, a task title or a brief is the caller's, and stays out (docs/decisions/0026).
// Each line is bounded, so one append is one small write that concurrent appenders cannot interleave.
import type { DiscernResult } from '../../../generated/types.js';
import type { Actor, Identity } from './identity.js';
import { isFallbackHeadline } from '../diagnostics/tier0.js';

export const EVENT_VERSION = 1;
/** The most one line may hold, newline included; the writer trims an event until it fits. */
export const MAX_LINE_BYTES = 4096;

/** One job of a gate-running call. */
export interface JobFact {
  label: string;
  kind: string;
  outcome: string;
  /** Whole seconds, when measured. */
  s?: number;
  /** The first line of the job's first diagnostic, when it failed. */
  first?: string;
}

export interface LogbookEvent {
  v: number;
  /** When the call finished (ISO 8601, UTC): lines are appended in this order. */
  at: string;
  verb: string;
  surface: string;
  actor: Actor;
  agent?: string;
  /** ok, or the result's error slug. */
  outcome: string;
  failed_stage?: string;
  /** How long the call took, start to result. */
  ms: number;
  /** HEAD and its tree, only when the checkout was clean at the same HEAD before and after the call. */
  head?: string;
  tree?: string;
  jobs?: JobFact[];
  /** Jobs left out to keep the line within MAX_LINE_BYTES. */
  jobs_omitted?: number;
  waited_ms?: number;
  /** The refusal's message, for accept only: why a landing was refused. */
  message?: string;
  /** accept's per-submission outcomes other than landed. */
  landings?: { status: string; reason?: string }[];
}

export interface CallFacts {
  result: DiscernResult;
  surface: string;
  identity: Identity;
  startedAt: number;
  finishedAt: number;
  tree?: { head: string; tree: string };
}

const JOB_KINDS = new Set(['job', 'scope-gate', 'standard']);

export function eventFrom(facts: CallFacts): LogbookEvent {
  const { result } = facts;
  const event: LogbookEvent = {
    v: EVENT_VERSION,
    at: new Date(facts.finishedAt).toISOString(),
    verb: result.verb,
    surface: facts.surface,
    actor: facts.identity.actor,
    ...(facts.identity.agent !== undefined ? { agent: bounded(facts.identity.agent, 64) } : {}),
    outcome: result.ok ? 'ok' : (result.error ?? 'error'),
    ms: Math.max(0, Math.round(facts.finishedAt - facts.startedAt)),
  };
  const stage = failedStage(result);
  if (stage !== undefined) event.failed_stage = stage;
  if (facts.tree) {
    event.head = facts.tree.head;
    event.tree = facts.tree.tree;
  }
  const jobs = jobFacts(result);
  if (jobs.length > 0) event.jobs = jobs;
  if (typeof result.waited_ms === 'number' && result.waited_ms > 0) event.waited_ms = Math.round(result.waited_ms);
  if (result.verb === 'accept') {
    if (!result.ok && result.message) event.message = firstLine(result.message, 300);
    const landings = acceptLandings(result);
    if (landings.length > 0) event.landings = landings;
  }
  return event;
}

/** The event as one line that fits MAX_LINE_BYTES: first lines go first, then jobs from the end. */
export function serialize(event: LogbookEvent): string {
  let line = `${JSON.stringify(event)}\n`;
  if (Buffer.byteLength(line) <= MAX_LINE_BYTES) return line;
  const trimmed: LogbookEvent = {
    ...event,
    ...(event.jobs
      ? { jobs: event.jobs.map((j) => ({ ...j, ...(j.first ? { first: bounded(j.first, 80) } : {}) })) }
      : {}),
  };
  if (trimmed.landings)
    trimmed.landings = trimmed.landings
      .slice(0, 4)
      .map((l) => ({ status: l.status, ...(l.reason ? { reason: bounded(l.reason, 80) } : {}) }));
  line = `${JSON.stringify(trimmed)}\n`;
  while (Buffer.byteLength(line) > MAX_LINE_BYTES && trimmed.jobs && trimmed.jobs.length > 0) {
    trimmed.jobs = trimmed.jobs.slice(0, -1);
    trimmed.jobs_omitted = (event.jobs?.length ?? 0) - trimmed.jobs.length;
    line = `${JSON.stringify(trimmed)}\n`;
  }
  if (Buffer.byteLength(line) > MAX_LINE_BYTES) {
    // Only a pathological envelope gets here; the call itself is still worth a line.
    const { jobs: _jobs, landings: _landings, message: _message, ...rest } = trimmed;
    line = `${JSON.stringify({ ...rest, jobs_omitted: event.jobs?.length ?? 0 })}\n`;
  }
  return line;
}

function failedStage(result: DiscernResult): string | undefined {
  const data = result.data as Record<string, unknown> | undefined;
  const stage = data && typeof data === 'object' ? data['failed_stage'] : undefined;
  return typeof stage === 'string' ? bounded(stage, 40) : undefined;
}

function jobFacts(result: DiscernResult): JobFact[] {
  const steps = result.steps ?? [];
  const diagnostics = result.diagnostics ?? [];
  const jobs: JobFact[] = [];
  for (const step of steps) {
    // Preconditions (disposition gate, such as the write probe) are discern's checks, not the project's jobs.
    if (!JOB_KINDS.has(step.kind) || step.disposition !== 'run') continue;
    const job: JobFact = { label: bounded(step.label, 100), kind: step.kind, outcome: step.outcome };
    if (typeof step.duration_s === 'number') job.s = step.duration_s;
    if (step.outcome === 'failed') {
      const diagnostic = diagnostics.find((d) => d.tool === step.label);
      // The fallback headline is the same sentence for every failure, so it would make unrelated failures
      // look recurring: the output's last non-empty line stands in for it, and nothing when there is none.
      const message =
        diagnostic === undefined
          ? undefined
          : isFallbackHeadline(diagnostic.message, step.label)
            ? lastLine(diagnostic.output ?? '')
            : diagnostic.message;
      if (message !== undefined && message.trim() !== '') job.first = firstLine(message, 200);
    }
    jobs.push(job);
  }
  return jobs;
}

function acceptLandings(result: DiscernResult): { status: string; reason?: string }[] {
  const data = result.data as { landings?: unknown } | undefined;
  if (!data || !Array.isArray(data.landings)) return [];
  const out: { status: string; reason?: string }[] = [];
  for (const landing of data.landings as { status?: unknown; reason?: unknown }[]) {
    if (typeof landing.status !== 'string' || landing.status === 'landed') continue;
    out.push({
      status: landing.status,
      ...(typeof landing.reason === 'string' ? { reason: firstLine(landing.reason, 200) } : {}),
    });
  }
  return out.slice(0, 8);
}

function firstLine(text: string, max: number): string {
  const line = text.split('\n').find((l) => l.trim().length > 0) ?? '';
  return bounded(line.trim(), max);
}

function bounded(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

function lastLine(text: string): string | undefined {
  const lines = text
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l.length > 0);
  return lines[lines.length - 1];
}
