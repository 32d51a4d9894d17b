// The failures `progress` shows for a finished run: those the producers streamed while it ran, then the
// diagnostics of its result (a red gate's file:line, test or rule, and narrowed reproduce command), which a caller
// sent here by `unchanged_tree_rerun` needs without reading data.result. The result is read back from the journal,
// so every field is checked for its type before it is used.
import type { DiscernProgressFailure } from '../../generated/types.js';

/** Diagnostics taken from a result, beside what was streamed; a cap keeps the read-back bounded. */
export const MAX_RESULT_FAILURES = 50;

export function failuresWithResult(
  streamed: readonly DiscernProgressFailure[],
  result: unknown,
): DiscernProgressFailure[] {
  const seen = new Set(streamed.map(key));
  const merged = [...streamed];
  for (const failure of fromResult(result)) {
    if (seen.has(key(failure))) continue;
    seen.add(key(failure));
    merged.push(failure);
  }
  return merged;
}

function fromResult(result: unknown): DiscernProgressFailure[] {
  if (!isRecord(result) || !Array.isArray(result['diagnostics'])) return [];
  const failures: DiscernProgressFailure[] = [];
  for (const diagnostic of result['diagnostics'] as unknown[]) {
    if (failures.length >= MAX_RESULT_FAILURES) break;
    if (!isRecord(diagnostic) || diagnostic['severity'] !== 'error') continue;
    const tool = text(diagnostic['tool']);
    const message = text(diagnostic['message']);
    if (tool === undefined || message === undefined) continue;
    const failure: DiscernProgressFailure = { producer: tool, name: text(diagnostic['rule']) ?? tool, message };
    const file = text(diagnostic['file']);
    if (file !== undefined) failure.file = file;
    const line = diagnostic['line'];
    if (typeof line === 'number' && Number.isSafeInteger(line) && line >= 1) failure.line = line;
    const reproduce = text(diagnostic['reproduce_cmd']);
    if (reproduce !== undefined) failure.reproduce_cmd = reproduce;
    failures.push(failure);
  }
  return failures;
}

// A streamed failure becomes one of the result's diagnostics too (its message prefixed with its name): the
// producer, the test and the place say they are one failure.
function key(failure: DiscernProgressFailure): string {
  return JSON.stringify([failure.producer, failure.name, failure.file ?? '', failure.line ?? 0]);
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
