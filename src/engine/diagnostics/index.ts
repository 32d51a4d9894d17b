// Entry point: turns a failed job's combined output into diagnostics. Structured reports are trusted first
// (SARIF, then JUnit XML), then line shapes (test runners' reports, linters, tsc, gcc-style, Python tracebacks);
// when nothing is recognised, the end of the output itself is the diagnostic. Every stage works on
// ANSI-stripped text and none of them throws on garbage. A failure a runner names gets a reproduce command
// narrowed to it (reproduce.ts); the job's own command otherwise.
import type { DiscernDiagnostic } from '../../../generated/types.js';
import { dedupe, toDiagnostic, type Finding } from './finding.js';
import { parseJunit } from './junit.js';
import { parseLineShapes, type LineFormat } from './line-shapes.js';
import { plainLines, stripAnsi } from './normalise.js';
import { readProjectFacts, type ProjectFacts } from './project-facts.js';
import { readBounded } from './read-bounded.js';
import { narrowCommand } from './reproduce.js';
import { parseSarif } from './sarif.js';
import { outputDiagnostic, unreadableDiagnostic } from './tier0.js';

export interface FailedJob {
  tool: string;
  reproduce_cmd: string;
  output_path: string;
  /** The checkout the job ran in: absolute paths under it are reported relative to it. */
  cwd?: string;
}

export type DiagnosisFormat = 'sarif' | 'junit' | LineFormat | 'output';

export interface Diagnosis {
  diagnostics: DiscernDiagnostic[];
  /** How many distinct diagnostics were found before the cap. */
  total: number;
  format: DiagnosisFormat;
}

export interface DiagnoseOptions {
  /** Most diagnostics returned (default 50); `total` still counts all of them. */
  maxDiagnostics?: number;
  /** Facts of the job's directory (diagnoseOutput reads them from `cwd`). */
  project?: ProjectFacts;
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
  const project = options.project ?? (await readProjectFacts(job.cwd));
  return diagnose(text, job, { ...options, project }, cut);
}

/** Diagnoses output already in memory. Pure; meant for tests and small outputs. */
export function diagnoseText(text: string, job: FailedJob, options: DiagnoseOptions = {}): Diagnosis {
  return diagnose(text, job, options, false);
}

function diagnose(text: string, job: FailedJob, options: DiagnoseOptions, cut: boolean): Diagnosis {
  const project = options.project ?? {};
  const found = detect(text, job.cwd, project);
  if (found === undefined) return { diagnostics: [outputDiagnostic(text, job, cut)], total: 1, format: 'output' };
  const distinct = dedupe(found.findings);
  const shown = distinct.slice(0, cap(options.maxDiagnostics));
  return {
    diagnostics: shown.map((finding) =>
      toDiagnostic(finding, { ...job, reproduce_cmd: reproduce(finding, job, project) }),
    ),
    total: distinct.length,
    format: found.format,
  };
}

/** The job's command narrowed to the finding's test or file, when the parser knows it and the command allows. */
function reproduce(finding: Finding, job: FailedJob, project: ProjectFacts): string {
  if (finding.narrow === undefined) return job.reproduce_cmd;
  try {
    return (
      narrowCommand(
        job.reproduce_cmd,
        finding.narrow,
        project.scripts === undefined ? {} : { scripts: project.scripts },
      ) ?? job.reproduce_cmd
    );
  } catch {
    return job.reproduce_cmd;
  }
}

function detect(
  text: string,
  cwd: string | undefined,
  project: ProjectFacts,
): { findings: Finding[]; format: Exclude<DiagnosisFormat, 'output'> } | undefined {
  const plain = stripAnsi(text);
  const sarif = guarded(() => parseSarif(plain, cwd));
  if (sarif.length > 0) return { findings: sarif, format: 'sarif' };
  const junit = guarded(() => parseJunit(plain, cwd));
  if (junit.length > 0) return { findings: junit, format: 'junit' };
  try {
    return parseLineShapes(plainLines(plain), cwd, project);
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
