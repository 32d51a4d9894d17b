// A failed gate run as the journal keeps it, for refine_config and diagnose_failure: the checkout's most recent
// run that failed (or the run a handle names), with its failing steps and diagnostics read from the result it
// recorded (from result_path when the record holds only a reduced copy) and the failures it journaled.
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { listOperations, readOperation, type OperationRecord } from '../../../engine/journal/index.js';
import type { DiscernDiagnostic } from '../../../../generated/types.js';
import { code, fenced } from './context.js';

interface RecordedStep {
  kind?: string;
  label: string;
  outcome?: string;
  note?: string;
  group?: string;
  output_path?: string;
}

/** A diagnostic as the journal recorded it: the envelope's own shape. */
type RecordedDiagnostic = DiscernDiagnostic;

export interface FailedRun {
  record: OperationRecord;
  message?: string;
  error?: string;
  steps: RecordedStep[];
  diagnostics: RecordedDiagnostic[];
}

export type RunLookup = { found: FailedRun } | { none: string } | { unreadable: string };

/** The run `handle` names, or the checkout's most recently started run that failed. */
export async function failedRun(stateDir: string, checkoutRoot: string, handle?: string): Promise<RunLookup> {
  const root = resolve(checkoutRoot);
  if (handle !== undefined) {
    const read = await readOperation(stateDir, handle);
    if (!read.ok) return { unreadable: read.message };
    if (read.record.checkout !== root)
      return {
        unreadable: `${handle} is a run of another checkout, ${read.record.checkout}: pass that checkout as \`path\`.`,
      };
    return { found: await withResult(read.record) };
  }
  const { records } = await listOperations(stateDir);
  const failed = records
    .filter((r) => r.record.checkout === root && r.record.outcome === 'failed')
    .sort(
      (a, b) =>
        Date.parse(b.record.started_at) - Date.parse(a.record.started_at) ||
        b.record.handle.localeCompare(a.record.handle),
    );
  const latest = failed[0];
  if (latest === undefined) return { none: `No failed run is recorded for ${root} (records are kept for 7 days).` };
  return { found: await withResult(latest.record) };
}

async function withResult(record: OperationRecord): Promise<FailedRun> {
  let result = record.result as Record<string, unknown> | undefined;
  if (record.result_truncated && record.result_path) {
    const full = await readFile(record.result_path, 'utf8').then(
      (t) => JSON.parse(t) as Record<string, unknown>,
      () => undefined,
    );
    if (full) result = full;
  }
  const steps = Array.isArray(result?.['steps']) ? (result['steps'] as RecordedStep[]) : [];
  const diagnostics = Array.isArray(result?.['diagnostics']) ? (result['diagnostics'] as RecordedDiagnostic[]) : [];
  return {
    record,
    ...(typeof result?.['message'] === 'string' ? { message: result['message'] } : {}),
    ...(typeof result?.['error'] === 'string' ? { error: result['error'] } : {}),
    steps,
    diagnostics,
  };
}

const OUTPUT_LINES = 40;

/** The run as Markdown: what ran, its verdict, the steps that failed, and each diagnostic with its output. */
export function describeRun(run: FailedRun, options: { diagnostics?: number } = {}): string {
  const { record } = run;
  const lines: string[] = [
    `Run ${code(record.handle)}: discern ${record.verb} on ${record.branch ? `branch ${code(record.branch)}` : 'a detached HEAD'}, started ${record.started_at}${record.finished_at ? `, finished ${record.finished_at}` : ''} — ${record.outcome ?? 'not finished'}${run.error ? ` (${code(run.error)})` : ''}.`,
  ];
  if (run.message) lines.push('', run.message);
  const failing = run.steps.filter((s) => s.outcome === 'failed' || s.outcome === 'cancelled');
  if (failing.length > 0) {
    lines.push('', 'Steps that did not pass:', '');
    for (const s of failing)
      lines.push(
        `- ${s.label}: ${s.outcome}${s.group ? ` (stage ${s.group})` : ''}${s.note ? `, ran ${code(s.note)}` : ''}${s.output_path ? `; full output ${code(s.output_path)}` : ''}`,
      );
  }
  const shown = run.diagnostics.slice(0, options.diagnostics ?? 5);
  if (shown.length > 0) {
    lines.push(
      '',
      `Diagnostics (${run.diagnostics.length}${shown.length < run.diagnostics.length ? `, the first ${shown.length} shown` : ''}):`,
    );
    for (const d of shown) {
      const place = d.file ? ` at ${code(`${d.file}${d.line ? `:${d.line}${d.col ? `:${d.col}` : ''}` : ''}`)}` : '';
      lines.push('', `- **${d.tool}** ${d.severity}${place}: ${d.message}`, `  reproduce: ${code(d.reproduce_cmd)}`);
      if (d.output) {
        const outputLines = d.output.split('\n');
        const tail = outputLines.slice(-OUTPUT_LINES).join('\n');
        lines.push(
          '',
          `  output${d.truncated || outputLines.length > OUTPUT_LINES ? ' (last lines)' : ''}:`,
          '',
          fenced(tail, 'text').replace(/^/gm, '  '),
        );
      }
      if (d.output_path) lines.push(`  full output: ${code(d.output_path)}`);
    }
  }
  for (const f of record.failures.slice(0, 10))
    lines.push(
      `- ${f.producer}: ${f.name}${f.file ? ` at ${code(`${f.file}${f.line ? `:${f.line}` : ''}`)}` : ''} — ${f.message}`,
    );
  return lines.join('\n');
}
