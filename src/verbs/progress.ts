// progress: read a long operation back from the journal — by its R1 handle, or this checkout's most recently
// started one. Reading changes nothing: the executor's liveness is a pid probe that sends no signal. Another
// checkout's operation is refused by name, so a caller never mistakes a sibling's run for its own.
import type { ProgressOutcome } from '../../generated/handlers.js';
import { open } from 'node:fs/promises';
import type {
  DiscernProgressFailure,
  DiscernProgressRecord,
  DiscernProgressInput,
  DiscernProgressWatch,
} from '../../generated/types.js';
import {
  executorState,
  latestOperation,
  listOperations,
  readOperation,
  readableFrom,
  type OperationRecord,
  type WatchEntry,
} from '../engine/journal/index.js';
import type { ProjectVerbContext } from './context.js';
import { failuresWithResult } from './progress-failures.js';
import { statePathsOf } from './gate-session.js';

export async function progress(input: DiscernProgressInput, ctx: ProjectVerbContext): Promise<ProgressOutcome> {
  const { project } = ctx;
  const dir = statePathsOf(project).repositoryDir;
  const help = ctx.surface === 'mcp' ? 'the inputSchema of discern_progress in tools/list' : '`discern help progress`';
  // Where a caller finds handles: each done and test result carries its own in data.handle, and status names
  // a run that is still going.
  const list = ctx.surface === 'mcp' ? 'discern_status' : 'discern status';
  if (input.handle === undefined) {
    const latest = await latestOperation(dir, project.root);
    if (!latest.ok) {
      return {
        data: { target: 'latest', suggestions: [] },
        refusal: {
          error: 'unknown_target',
          message: `${latest.message} Each done and test run records one and announces its handle.`,
          next: { list },
        },
      };
    }
    return { data: await progressData(latest.record, latest.path) };
  }
  const read = await readOperation(dir, input.handle);
  if (!read.ok) {
    switch (read.reason) {
      case 'malformed_handle':
      case 'checksum':
        return { refusal: { error: 'invalid_value', message: read.message, next: { help } } };
      case 'unknown_handle':
      case 'empty_store':
        return {
          data: { target: input.handle, suggestions: await recentHandles(dir, project.root) },
          refusal: { error: 'unknown_target', message: read.message, next: { list } },
        };
      case 'unreadable':
      case 'newer_format':
        return { refusal: { error: 'read_failed', message: read.message, next: { target: dir, access: 'readable' } } };
    }
  }
  const record = read.record;
  if (!readableFrom(record, project.root)) {
    return {
      refusal: {
        error: 'invalid_value',
        message: `${record.handle} is an operation of another checkout, ${readerOf(record)}${record.branch ? ` (branch ${record.branch})` : ''}: read it from there${ctx.surface === 'mcp' ? ' (pass that checkout as path)' : ''}.`,
        next: { help },
      },
    };
  }
  return { data: await progressData(record, read.path) };
}

/** The checkout that reads a record back now: where it ran, or the survivor it named once that one is gone. */
function readerOf(record: OperationRecord): string {
  return record.root !== undefined && !readableFrom(record, record.checkout) ? record.root : record.checkout;
}

function watchData(watch: WatchEntry): DiscernProgressWatch {
  return {
    condition: watch.condition as DiscernProgressWatch['condition'],
    ...(watch.target !== undefined ? { target: watch.target } : {}),
    ...(watch.branch !== undefined ? { branch: watch.branch } : {}),
    trunk: watch.trunk,
    observed: watch.observed as DiscernProgressWatch['observed'],
    ...(watch.met !== undefined ? { met: watch.met } : {}),
    ...(watch.continuation !== undefined ? { continuation: watch.continuation } : {}),
  };
}

/** This checkout's most recent handles, newest first: what a mistyped or expired handle may have meant. */
async function recentHandles(dir: string, checkout: string): Promise<string[]> {
  const { records } = await listOperations(dir).catch(() => ({ records: [] }));
  return records
    .filter((r) => readableFrom(r.record, checkout))
    .sort((a, b) => b.record.started_at.localeCompare(a.record.started_at))
    .slice(0, 5)
    .map((r) => r.record.handle);
}

function streamedFailures(record: OperationRecord): DiscernProgressFailure[] {
  return record.failures.map((f) => ({
    producer: f.producer,
    name: f.name,
    message: f.message,
    ...(f.file !== undefined ? { file: f.file } : {}),
    ...(f.line !== undefined ? { line: f.line } : {}),
    ...(f.reproduce_cmd !== undefined ? { reproduce_cmd: f.reproduce_cmd } : {}),
    ...(f.partial ? { partial: true } : {}),
  }));
}

/** The finished run's result: inline in the record, or the file it was moved to when it was large. */
async function fullResult(record: OperationRecord): Promise<unknown> {
  if (!record.result_truncated || record.result_path === undefined) return record.result;
  try {
    const handle = await open(record.result_path, 'r');
    try {
      const { size } = await handle.stat();
      // A result file larger than this is not read back here: its reduced envelope stays in data.result.
      if (size > MAX_RESULT_READ) return record.result;
      return JSON.parse((await handle.readFile()).toString('utf8')) as unknown;
    } finally {
      await handle.close();
    }
  } catch {
    return record.result;
  }
}

const MAX_RESULT_READ = 16 * 1024 * 1024;

async function progressData(record: OperationRecord, path: string): Promise<DiscernProgressRecord> {
  const now = Date.now();
  const executor = executorState(record);
  return {
    handle: record.handle,
    operation: {
      verb: record.verb,
      path: record.checkout,
      ...(record.root !== undefined ? { root: record.root } : {}),
      branch: record.branch,
      started_at: record.started_at,
      ...(record.finished_at ? { finished_at: record.finished_at } : {}),
    },
    record_path: path,
    ...(record.watch !== undefined ? { watch: watchData(record.watch) } : {}),
    executor,
    ...(executor === 'unknown'
      ? {
          executor_reason: `the run's process (pid ${record.pid}) is on ${record.hostname} or in another pid namespace, where this process cannot probe it`,
        }
      : {}),
    ...(record.outcome ? { outcome: record.outcome } : {}),
    progress:
      record.finished_at === undefined && executor === 'gone'
        ? {
            ...record.progress,
            state: 'stopped',
            reason: `its process (pid ${record.pid}) is gone and it never finished`,
            next: 'run it again',
          }
        : record.progress,
    producers: Object.values(record.producers).map((p) => ({
      producer: p.producer,
      state: p.state,
      ...(p.units ? { units: p.units } : {}),
      ...(p.results ? { results: p.results } : {}),
      ...(p.active ? { active: p.active } : {}),
      ...(p.elapsed_ms !== undefined ? { elapsed_ms: p.elapsed_ms } : {}),
      partial: p.partial === true,
      ...(p.output_path ? { output_path: p.output_path } : {}),
    })),
    failures: failuresWithResult(streamedFailures(record), await fullResult(record), record.checkout),
    timings: record.timings.map((t) => ({
      interval_id: t.interval_id,
      category: t.category,
      started_at: t.started_at,
      ...(t.finished_at ? { finished_at: t.finished_at } : {}),
    })),
    waits: record.waits.map((w) => {
      const end = w.finished_at ? Date.parse(w.finished_at) : now;
      return {
        id: w.id,
        state: w.state,
        reason: w.reason,
        started_at: w.started_at,
        ...(w.finished_at ? { finished_at: w.finished_at } : {}),
        elapsed_ms: Math.max(0, end - Date.parse(w.started_at)),
        next: w.next,
        ...(w.capacity !== undefined ? { capacity: w.capacity } : {}),
        ...(w.in_use !== undefined ? { in_use: w.in_use } : {}),
      };
    }),
    observed_at: new Date(now).toISOString(),
    last_activity_at: record.last_activity_at,
    ...(record.result !== undefined ? { result: record.result as Record<string, unknown> } : {}),
    ...(record.result_truncated ? { result_truncated: true } : {}),
    ...(record.result_path ? { result_path: record.result_path } : {}),
    account:
      record.account.length > 0
        ? record.account
        : [
            `${record.verb} ${record.finished_at ? `finished (${record.outcome ?? 'unknown outcome'})` : executor === 'gone' ? 'stopped without finishing' : 'is running'}: ${record.progress.reason}.`,
          ],
  };
}
