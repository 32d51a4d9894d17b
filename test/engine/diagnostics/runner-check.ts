// The comparison the captured and the live runner tests share: discern's diagnostics for one runner's output,
// projected onto the fields the table states, against the table.
import assert from 'node:assert/strict';
import type { DiscernDiagnostic } from '../../../generated/types.js';
import type { ExpectedDiagnostic, RunnerCase } from './runner-cases.js';

/** `checkout`: a live run's scratch directory, which the captures write `/repo` (tools quote it in messages). */
export function projected(
  diagnostic: DiscernDiagnostic,
  runnerCase: RunnerCase,
  checkout?: string,
): ExpectedDiagnostic {
  const first = diagnostic.message.split('\n')[0] ?? '';
  const message = checkout === undefined ? first : first.split(checkout).join('/repo');
  const seen: ExpectedDiagnostic = { file: diagnostic.file ?? '(none)', message };
  if (diagnostic.line !== undefined) seen.line = diagnostic.line;
  if (diagnostic.col !== undefined) seen.col = diagnostic.col;
  if (diagnostic.rule !== undefined) seen.rule = diagnostic.rule;
  if (diagnostic.severity === 'warning') seen.severity = 'warning';
  if (diagnostic.reproduce_cmd !== runnerCase.command) seen.reproduce = diagnostic.reproduce_cmd;
  return seen;
}

/** In output order for a captured fixture; as a set for a live run, whose runner may order files by timing. */
export function assertDiagnostics(
  diagnostics: readonly DiscernDiagnostic[],
  runnerCase: RunnerCase,
  ordered: boolean,
  checkout?: string,
): void {
  const seen = diagnostics.map((d) => projected(d, runnerCase, checkout));
  const expected = [...runnerCase.expected];
  if (ordered) assert.deepEqual(seen, expected);
  else assert.deepEqual(sorted(seen), sorted(expected));
}

function sorted(list: readonly ExpectedDiagnostic[]): ExpectedDiagnostic[] {
  const key = (d: ExpectedDiagnostic) =>
    JSON.stringify([d.severity ?? '', d.file, d.line ?? 0, d.col ?? 0, d.rule ?? '']);
  return [...list].sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
}
