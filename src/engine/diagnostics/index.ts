// Entry point: turns a failed job's combined output into diagnostics. Structured reports are trusted first
// (SARIF, then JUnit XML), then line shapes (tsc, eslint stylish, gcc-style, Python tracebacks); when nothing
// is recognised, the end of the output itself is the diagnostic. Every stage works on ANSI-stripped text and
// none of them throws on garbage.
import type { DiscernDiagnostic } from '../../../generated/types.js';
import { dedupe, toDiagnostic, type Finding } from './finding.js';
import { parseJunit } from './junit.js';
import { parseLineShapes } from './line-shapes.js';
import { plainLines, stripAnsi } from './normalise.js';
import { readBounded } from './read-bounded.js';
import { parseSarif } from './sarif.js';
import { outputDiagnostic, unreadableDiagnostic } from './tier0.js';

export interface FailedJob {
  tool: string;
  reproduce_cmd: string;
  output_path: string;
  /** The checkout the job ran in: absolute paths under it are reported relative to it. */
  cwd?: string;
}

export type DiagnosisFormat = 'sarif' | 'junit' | 'tsc' | 'eslint' | 'compiler' | 'python' | 'output';

export interface Diagnosis {
  diagnostics: DiscernDiagnostic[];
  /** How many distinct diagnostics were found before the cap. */
  total: number;
  format: DiagnosisFormat;
}

export interface DiagnoseOptions {
  /** Most diagnostics returned (default 50); `total` still counts all of them. */
  maxDiagnostics?: number;
}

export const DEFAULT_MAX_DIAGNOSTICS = 50;

/** Reads the job's output file (bounded: see read-bounded.ts) and diagnoses it. Never throws. */
export async function diagnoseOutput(job: FailedJob, options: DiagnoseOptions = {}): Promise<Diagnosis> {
  let text: string;
  let cut: boolean;
  try {
    const read = await readBounded(job.output_path);
    text = read.text;
    cut = read.skipped > 0;
  } catch (error) {
    return { diagnostics: [unreadableDiagnostic(job, error)], total: 1, format: 'output' };
  }
  return diagnose(text, job, options, cut);
}

/** Diagnoses output already in memory. Pure; meant for tests and small outputs. */
export function diagnoseText(text: string, job: FailedJob, options: DiagnoseOptions = {}): Diagnosis {
  return diagnose(text, job, options, false);
}

function diagnose(text: string, job: FailedJob, options: DiagnoseOptions, cut: boolean): Diagnosis {
  const found = detect(text, job.cwd);
  if (found === undefined) return { diagnostics: [outputDiagnostic(text, job, cut)], total: 1, format: 'output' };
  const distinct = dedupe(found.findings);
  const shown = distinct.slice(0, cap(options.maxDiagnostics));
  return {
    diagnostics: shown.map((finding) => toDiagnostic(finding, job)),
    total: distinct.length,
    format: found.format,
  };
}

function detect(
  text: string,
  cwd: string | undefined,
): { findings: Finding[]; format: Exclude<DiagnosisFormat, 'output'> } | undefined {
  const plain = stripAnsi(text);
  const sarif = guarded(() => parseSarif(plain, cwd));
  if (sarif.length > 0) return { findings: sarif, format: 'sarif' };
  const junit = guarded(() => parseJunit(plain, cwd));
  if (junit.length > 0) return { findings: junit, format: 'junit' };
  try {
    return parseLineShapes(plainLines(plain), cwd);
  } catch {
    return undefined;
  }
}

// The parsers are written not to throw; this is the belt to that brace, so a parser bug degrades to the
// next stage (at worst Tier 0) instead of losing the failure report.
function guarded(parse: () => Finding[]): Finding[] {
  try {
    return parse();
  } catch {
    return [];
  }
}

function cap(requested: number | undefined): number {
  if (requested === undefined || !Number.isFinite(requested)) return DEFAULT_MAX_DIAGNOSTICS;
  // At least one: a failed job with zero diagnostics would read as "nothing wrong".
  return Math.max(1, Math.floor(requested));
}
