// The two line protocols a job may speak on stdout or stderr (spec/conventions.yaml `line_protocols`):
//   DISCERN_PROGRESS {json}          → a progress fact, validated against spec/progress-line.schema.json
//   DISCERN_METRIC <metric> <number> → one measurement; the caller keeps the last value per metric
// Anything that does not parse completely is not a protocol line: it is ignored whole, never half-applied.
import type { DiscernProgressLine } from '../../../generated/types.js';
import { validateProgressLine } from '../../../generated/validators/progress-line.js';

export const PROGRESS_PREFIX = 'DISCERN_PROGRESS ';
export const METRIC_PREFIX = 'DISCERN_METRIC ';
/** conventions.yaml `max_line_bytes`: longer lines are dropped before anything parses them. */
export const MAX_PROTOCOL_LINE_BYTES = 16384;

/** `line` has no line terminator. Returns the fact, or undefined when the line is not a valid progress line. */
export function parseProgressLine(line: string): DiscernProgressLine | undefined {
  if (!line.startsWith(PROGRESS_PREFIX)) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(line.slice(PROGRESS_PREFIX.length));
  } catch {
    return undefined;
  }
  // The schema's root is `type: object`, so arrays, strings and null fail here too.
  return validateProgressLine(value) ? value : undefined;
}

// A metric name, one space, a finite decimal (sign and exponent allowed); trailing blanks are tolerated because
// `printf '%s %d \n'` is an easy mistake that should not cost the measurement.
const METRIC_LINE = /^DISCERN_METRIC ([A-Za-z0-9_.:-]+) ([+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?)[ \t]*$/;

export function parseMetricLine(line: string): { metric: string; value: number } | undefined {
  if (!line.startsWith(METRIC_PREFIX)) return undefined;
  const match = METRIC_LINE.exec(line);
  if (match === null) return undefined;
  const value = Number(match[2]);
  // 1e999 matches the grammar but is not a measurement.
  if (!Number.isFinite(value)) return undefined;
  return { metric: match[1] ?? '', value };
}
