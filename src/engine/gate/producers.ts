// Everything the gate can run, as producers: jobs, [generated] regenerations, standards and scope gates, each
// with the commands it runs, its step label, and the timeout that applies with the config key that set it (a
// timeout failure names that key, so the fix is one edit away).
import type { DiscernConfig } from '../../../generated/types.js';
import { commandList } from '../config/commands.js';
import type { GateSettings } from '../config/gate-settings.js';
import { configuredGenerators, type GeneratorDefinition } from '../config/generators.js';
import { configuredJobs, type JobStage } from '../config/jobs.js';
import { configuredStandards, type StandardDefinition } from '../config/standards.js';

export type ProducerKind = 'job' | 'scope-gate' | 'standard';

export interface Producer {
  /** The step label: the job name, generated:<name>, scope:<name> or standard:<name>. */
  label: string;
  kind: ProducerKind;
  /** The stage a job belongs to; generators build, standards and scope gates have their own groups. */
  stage: JobStage | 'generated' | 'standard' | 'scope';
  commands: string[];
  timeoutS: number;
  timeoutKey: string;
  generator?: GeneratorDefinition;
  standard?: StandardDefinition;
  scope?: string;
}

export interface ProducerCatalog {
  jobs: Producer[];
  generators: Producer[];
  standards: Producer[];
  scopeGates: Producer[];
}

export function producerCatalog(config: DiscernConfig, settings: GateSettings): ProducerCatalog {
  const timeout = (own: number | undefined, key: string): { timeoutS: number; timeoutKey: string } =>
    own !== undefined
      ? { timeoutS: own, timeoutKey: `${key} timeout` }
      : { timeoutS: settings.timeoutS, timeoutKey: '[gate] timeout' };
  return {
    jobs: configuredJobs(config)
      .filter((j) => j.commands.length > 0)
      .map((j) => ({
        label: j.name,
        kind: 'job',
        stage: j.stage,
        commands: j.commands,
        ...timeout(j.timeout, `[jobs.${j.name}]`),
      })),
    generators: configuredGenerators(config)
      .filter((g) => g.commands.length > 0)
      .map((g) => ({
        label: `generated:${g.name}`,
        kind: 'job',
        stage: 'generated',
        commands: g.commands,
        generator: g,
        ...timeout(g.timeout, `[generated.${g.name}]`),
      })),
    standards: configuredStandards(config).map((s) => ({
      label: `standard:${s.name}`,
      kind: 'standard',
      stage: 'standard',
      commands: s.commands,
      standard: s,
      ...timeout(s.timeout, `[standards.${s.name}]`),
    })),
    scopeGates: Object.entries(config.scopes ?? {}).flatMap(([name, scope]) => {
      const commands = commandList(scope?.gate);
      if (scope === undefined || commands.length === 0) return [];
      return [
        {
          label: `scope:${name}`,
          kind: 'scope-gate' as const,
          stage: 'scope' as const,
          commands,
          scope: name,
          ...timeout(scope.timeout, `[scopes.${name}]`),
        },
      ];
    }),
  };
}
