// The fallback when no parser recognises the output: one diagnostic carrying the end of the output, because
// the end is where a failing command says why it stopped. Better an honest "here is what it printed" than a
// guess at structure.
import type { DiscernDiagnostic } from '../../../generated/types.js';
import { isErrorLikeLine } from './error-like.js';
import type { JobIdentity } from './finding.js';
import { clipMessage } from './finding.js';
import { normaliseOutput } from './normalise.js';

export const TAIL_LINES = 60;
export const TAIL_CHARS = 4096;
const MESSAGE_CHARS = 300;

export interface OutputJob extends JobIdentity {
  output_path: string;
}

/** `cut` says the text handed in is already a part of the output (a bounded read of a big file). */
export function outputDiagnostic(text: string, job: OutputJob, cut = false): DiscernDiagnostic {
  const normalised = normaliseOutput(text);
  const lines = normalised === '' ? [] : normalised.split('\n');
  let tail = lines.slice(-TAIL_LINES).join('\n');
  let truncated = cut || lines.length > TAIL_LINES;
  if (tail.length > TAIL_CHARS) {
    const from = tail.length - TAIL_CHARS;
    const newline = tail.indexOf('\n', from);
    // Start on a whole line unless the last line alone is longer than the budget.
    tail = newline !== -1 && newline + 1 < tail.length ? tail.slice(newline + 1) : tail.slice(from);
    truncated = true;
  }
  const diagnostic: DiscernDiagnostic = {
    tool: job.tool,
    severity: 'error',
    message: headline(lines, job.tool),
    reproduce_cmd: job.reproduce_cmd,
    output_path: job.output_path,
  };
  if (tail !== '') diagnostic.output = tail;
  if (truncated) diagnostic.truncated = true;
  return diagnostic;
}

export function unreadableDiagnostic(job: OutputJob, error: unknown): DiscernDiagnostic {
  const code =
    typeof error === 'object' && error !== null && 'code' in error && typeof error.code === 'string'
      ? ` (${error.code})`
      : '';
  return {
    tool: job.tool,
    severity: 'error',
    message: `${job.tool} failed; its output could not be read${code}`,
    reproduce_cmd: job.reproduce_cmd,
    output_path: job.output_path,
  };
}

// The last error-like line is usually the tool's own verdict ("FAILED tests/x.py::test_y - ..."); without one,
// a plain sentence that sends the reader to the output.
/** Whether a message is the plain sentence headline() falls back to: it says nothing of the failure itself. */
export function isFallbackHeadline(message: string, tool: string): boolean {
  return (
    message.startsWith(`${tool} failed; its output is below`) ||
    message.startsWith(`${tool} failed without printing any output`)
  );
}

function headline(lines: readonly string[], tool: string): string {
  if (lines.length === 0) return `${tool} failed without printing any output`;
  for (let i = lines.length - 1; i >= 0; i--) {
    const line = lines[i] ?? '';
    if (isErrorLikeLine(line)) return clipMessage(line.trim().slice(0, MESSAGE_CHARS));
  }
  return `${tool} failed; its output is below`;
}
