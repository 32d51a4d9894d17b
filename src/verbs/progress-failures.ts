// The failures `progress` shows for a finished run: those the producers streamed while it ran, then the
// diagnostics of its result (a red gate's file:line, test or rule, and narrowed reproduce command), which a caller
// sent here by `unchanged_tree_rerun` needs without reading data.result. The result is read back from the journal,
// so every field is checked for its type before it is used.
import type { DiscernProgressFailure } from '../../generated/types.js';
import { checkoutPath } from '../engine/diagnostics/checkout-path.js';

/** Diagnostics taken from a result, beside what was streamed; a cap keeps the read-back bounded. */
export const MAX_RESULT_FAILURES = 50;

export function failuresWithResult(
  streamed: readonly DiscernProgressFailure[],
  result: unknown,
  /** The checkout the run was in: a streamed absolute path under it is compared as the diagnostics write it. */
  root?: string,
): DiscernProgressFailure[] {
  const seen = new Set(streamed.map((failure) => key(failure, root)));
  const merged = [...streamed];
  let added = 0;
  for (const failure of fromResult(result)) {
    if (added >= MAX_RESULT_FAILURES) break;
    if (seen.has(key(failure, root))) continue;
    seen.add(key(failure, root));
    merged.push(failure);
    added++;
  }
  return merged;
}

function* fromResult(result: unknown): Generator<DiscernProgressFailure> {
  if (!isRecord(result) || !Array.isArray(result['diagnostics'])) return;
  for (const diagnostic of result['diagnostics'] as unknown[]) {
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
    yield failure;
  }
}

// A streamed failure becomes one of the result's diagnostics too (its message prefixed with its name): the
// producer, the test and the place say they are one failure. A diagnostic with no test or rule name (named by
// its tool) is told apart by its message, or two compiler errors on one line would read as one.
function key(failure: DiscernProgressFailure, root: string | undefined): string {
  const file = failure.file === undefined ? '' : (checkoutPath(failure.file, root) ?? failure.file);
  const unnamed = failure.name === failure.producer ? failure.message : '';
  return JSON.stringify([failure.producer, failure.name, file, failure.line ?? 0, unnamed]);
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
