// After a merge, each [generated] regeneration runs again (two sides may each have changed a generator's
// inputs, so the merged output can differ from both). Output inside the generators' own paths is committed;
// a generator that fails, or writes outside every [generated] path, is reported and nothing is committed.
import type { DiscernConfig, DiscernDiagnostic, DiscernStep } from '../../../generated/types.js';
import { commandList } from '../config/commands.js';
import { DEFAULT_GATE_TIMEOUT_S } from '../config/gate-settings.js';
import { diagnoseOutput } from '../diagnostics/index.js';
import { readDirtySet } from '../gate/dirty-set.js';
import { git, gitComplaint } from '../git/git.js';
import { outputFileName } from '../jobs/output-dir.js';
import { runJob } from '../jobs/run-job.js';
import { join } from 'node:path';

export interface RegenerateRun {
  root: string;
  env: Readonly<Record<string, string | undefined>>;
  signal: AbortSignal;
  generators: NonNullable<DiscernConfig['generated']>;
  owns: (path: string) => boolean;
  outputDir: string;
  /** The commit message for the regenerated files. */
  message: string;
  gateTimeoutS?: number;
  /** Masked as `***` in the generators' captured output (jobs/redaction.ts). */
  secrets?: readonly string[];
}

export interface Regenerated {
  steps: DiscernStep[];
  /** Generators whose output changed (and was committed). */
  regenerated: string[];
  /** The commit holding the regenerated files, when there was one. */
  committed?: string;
  failure?: string;
  diagnostics: DiscernDiagnostic[];
}

export async function regenerate(run: RegenerateRun): Promise<Regenerated> {
  const steps: DiscernStep[] = [];
  const regenerated: string[] = [];
  const env = { ...run.env };
  for (const [name, table] of Object.entries(run.generators)) {
    if (table === undefined) continue;
    const commands = commandList(table.run);
    if (commands.length === 0) continue;
    const before = await readDirtySet(run.root, run.env);
    const label = `generated:${name}`;
    const result = await runJob({
      label,
      commands,
      cwd: run.root,
      env,
      timeoutS: table.timeout ?? run.gateTimeoutS ?? DEFAULT_GATE_TIMEOUT_S,
      timeoutKey: table.timeout !== undefined ? `[generated.${name}] timeout` : '[gate] timeout',
      outputPath: join(run.outputDir, outputFileName(label)),
      signal: run.signal,
      ...(run.secrets ? { secrets: run.secrets } : {}),
    });
    steps.push({
      kind: 'job',
      label,
      disposition: 'run',
      note: commands.join(' && '),
      outcome: result.outcome,
      duration_s: Math.round(result.durationMs / 1000),
      output_path: result.outputPath,
      output_lines: result.outputLines,
      error_like_lines: result.errorLikeLines,
    });
    if (result.outcome !== 'ok') {
      const diagnosis =
        result.outcome === 'failed'
          ? await diagnoseOutput({
              tool: label,
              reproduce_cmd: commands.join(' && '),
              output_path: result.outputPath,
              cwd: run.root,
            })
          : { diagnostics: [] };
      return {
        steps,
        regenerated,
        failure: `${label} ${result.outcome === 'cancelled' ? 'was cancelled' : 'failed'}; its partial output is left uncommitted`,
        diagnostics: diagnosis.diagnostics,
      };
    }
    const after = await readDirtySet(run.root, run.env);
    const written = [...after].filter((p) => !before.has(p));
    const outside = written.filter((p) => !run.owns(p));
    if (outside.length > 0) {
      return {
        steps,
        regenerated,
        failure: `${label} wrote outside every [generated] path (${outside.slice(0, 5).join(', ')}${outside.length > 5 ? ', …' : ''}); nothing was committed`,
        diagnostics: [],
      };
    }
    if (written.length > 0) regenerated.push(name);
  }
  if (regenerated.length === 0) return { steps, regenerated, diagnostics: [] };
  const dirty = [...(await readDirtySet(run.root, run.env))];
  const added = await git(['add', '-A', '--', ...dirty], { cwd: run.root, env: run.env });
  const commit =
    added.code === 0
      ? await git(['commit', '--no-verify', '-q', '-m', `${run.message}: ${regenerated.join(', ')}`], {
          cwd: run.root,
          env: run.env,
        })
      : added;
  steps.push({
    kind: 'git',
    label: `commit the regenerated files of ${regenerated.join(', ')}`,
    disposition: 'run',
    outcome: commit.code === 0 ? 'ok' : 'failed',
    duration_s: 0,
  });
  if (commit.code !== 0)
    return {
      steps,
      regenerated,
      failure: `the regenerated files could not be committed: ${gitComplaint(commit)}`,
      diagnostics: [],
    };
  const head = await git(['rev-parse', 'HEAD'], { cwd: run.root, env: run.env });
  return { steps, regenerated, committed: head.stdout.trim(), diagnostics: [] };
}
