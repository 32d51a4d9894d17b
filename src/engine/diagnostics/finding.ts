// What every parser produces before the job's identity is attached. Parsers may leave a field undefined;
// toDiagnostic drops those keys, because the generated type is checked with exactOptionalPropertyTypes and the
// schema forbids explicit nulls.
import type { DiscernDiagnostic } from '../../../generated/types.js';
import type { Narrowing } from './narrowing.js';

export interface Finding {
  severity: 'error' | 'warning';
  message: string;
  file?: string | undefined;
  line?: number | undefined;
  col?: number | undefined;
  rule?: string | undefined;
  fix_available?: boolean | undefined;
  /** How to rerun just this test or file; reproduce.ts turns it into the diagnostic's reproduce_cmd. */
  narrow?: Narrowing | undefined;
}

export interface JobIdentity {
  tool: string;
  reproduce_cmd: string;
}

// A single tool message can be a whole stack dump; the diagnostic is a pointer, the full text stays in the log.
const MAX_MESSAGE_CHARS = 2000;

const MAX_RULE_CHARS = 256;
const MAX_PATH_CHARS = 4096;

/** Message lines as a diagnostic carries them: trimmed, blank lines dropped, at most `max` of them. */
export function joinMessage(lines: readonly string[], max = 6): string {
  return lines
    .map((line) => line.trim())
    .filter((line) => line !== '')
    .slice(0, max)
    .join('\n');
}

export function clipMessage(message: string): string {
  return clip(message, MAX_MESSAGE_CHARS);
}

function clip(text: string, max: number): string {
  const trimmed = text.trim();
  return trimmed.length <= max ? trimmed : `${trimmed.slice(0, max - 1)}…`;
}

/** A positive integer from a number or numeric string, else undefined (the schema requires line/col ≥ 1). */
export function positiveInt(value: unknown): number | undefined {
  const n = typeof value === 'string' && /^\s*\d+\s*$/.test(value) ? Number(value) : value;
  return typeof n === 'number' && Number.isSafeInteger(n) && n >= 1 ? n : undefined;
}

export function toDiagnostic(finding: Finding, job: JobIdentity): DiscernDiagnostic {
  // tool and reproduce_cmd always come from the job: a tool's own name for itself (ESLint, pytest) is not the
  // gate step the agent has to rerun.
  const diagnostic: DiscernDiagnostic = {
    tool: job.tool,
    severity: finding.severity,
    message: clipMessage(finding.message) || `${job.tool} reported a problem`,
    reproduce_cmd: job.reproduce_cmd,
  };
  // A report may carry anything in these fields (a megabyte test name): the diagnostic stays a pointer. A longer
  // "path" than any file system allows names no file; a rule name is clipped like a message.
  if (finding.file !== undefined && finding.file !== '' && finding.file.length <= MAX_PATH_CHARS)
    diagnostic.file = finding.file;
  const line = positiveInt(finding.line);
  if (line !== undefined) diagnostic.line = line;
  const col = positiveInt(finding.col);
  if (col !== undefined) diagnostic.col = col;
  if (finding.rule !== undefined && finding.rule !== '') diagnostic.rule = clip(finding.rule, MAX_RULE_CHARS);
  if (finding.fix_available === true) diagnostic.fix_available = true;
  return diagnostic;
}

/** Drops repeats of the same (file, line, col, message, rule): tools that run per package or per config often report one problem twice. */
export function dedupe<T extends Finding>(findings: readonly T[]): T[] {
  const seen = new Set<string>();
  const kept: T[] = [];
  for (const finding of findings) {
    // The rule is part of it: two tests failing on the same helper line are two failures.
    const key = JSON.stringify([
      finding.file ?? '',
      finding.line ?? 0,
      finding.col ?? 0,
      finding.message.trim(),
      finding.rule ?? '',
    ]);
    if (seen.has(key)) continue;
    seen.add(key);
    kept.push(finding);
  }
  return kept;
}

/** A finding from a line-shape parser, with the index of the line that carries it (so two parsers never claim one line). */
export interface LineFinding extends Finding {
  at: number;
  /** The last line of the block the finding was read from: its lines are not read again by a later parser. */
  through?: number;
}
