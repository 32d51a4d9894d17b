// The configured jobs in one shape, whatever form discern.toml used: a known name's command, command list or
// {run} table, or a custom job's {stage, run, provides}. Empty and ':' commands are dropped: they mean "nothing to run".
import type { DiscernConfig, DiscernConfigCommandList } from '../../../generated/types.js';
import { commandList } from './commands.js';

export type JobStage = 'fix' | 'build' | 'check' | 'test';

export interface JobDefinition {
  name: string;
  stage: JobStage;
  commands: string[];
  /** The job's own timeout in seconds (0: none); absent means the [gate] default applies. */
  timeout?: number;
  /** The known jobs a custom job stands for (`provides`; job-accounting.ts). */
  provides?: string[];
}

// No prototype: a job named `constructor` or `toString` is a custom job, not one whose stage is a function.
export const KNOWN_JOB_STAGES: Readonly<Record<string, JobStage>> = Object.assign(
  Object.create(null) as Record<string, JobStage>,
  {
    format: 'fix',
    build: 'build',
    lint: 'check',
    typecheck: 'check',
    test: 'test',
    smoke: 'test',
  } satisfies Record<string, JobStage>,
);

export function configuredJobs(config: DiscernConfig): JobDefinition[] {
  const jobs: JobDefinition[] = [];
  for (const [name, value] of Object.entries(config.jobs ?? {})) {
    if (value === undefined) continue;
    const known = KNOWN_JOB_STAGES[name];
    let stage: JobStage;
    let run: DiscernConfigCommandList;
    let timeout: number | undefined;
    let provides: string[] | undefined;
    if (typeof value === 'string' || Array.isArray(value)) {
      stage = known ?? 'check';
      run = value;
    } else if ('stage' in value) {
      stage = value.stage;
      run = value.run;
      timeout = value.timeout;
      provides = value.provides;
    } else {
      stage = known ?? 'check';
      run = value.run;
      timeout = value.timeout;
    }
    jobs.push({
      name,
      stage,
      commands: commandList(run),
      ...(timeout !== undefined ? { timeout } : {}),
      ...(provides !== undefined ? { provides: [...provides] } : {}),
    });
  }
  return jobs;
}
