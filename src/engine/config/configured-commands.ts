// Every command discern.toml configures, each with what it is and where it sits in the file: jobs, [generated]
// regenerations, [standards] measurements and scope gates. doctor and setup verify look each one up (never run
// it) and report by these names and keys.
import type { DiscernConfig } from '../../../generated/types.js';
import { commandList } from './commands.js';
import { configuredGenerators } from './generators.js';
import { configuredJobs } from './jobs.js';
import { configuredStandards } from './standards.js';

export interface ConfiguredCommand {
  /** job:<name>, generated:<name>, standard:<name>, scope:<name>. */
  name: string;
  what: string;
  commands: string[];
  /** The key in discern.toml that holds the commands. */
  key: string[];
}

export function configuredCommands(config: DiscernConfig): ConfiguredCommand[] {
  return [
    ...configuredJobs(config).map((job) => ({
      name: `job:${job.name}`,
      what: `${job.stage} stage${job.provides !== undefined ? `, provides ${job.provides.join(', ')}` : ''}`,
      commands: job.commands,
      key: ['jobs', job.name],
    })),
    ...configuredGenerators(config).map((g) => ({
      name: `generated:${g.name}`,
      what: 'generator',
      commands: g.commands,
      key: ['generated', g.name, 'run'],
    })),
    ...configuredStandards(config).map((s) => ({
      name: `standard:${s.name}`,
      what: 'standard',
      commands: s.commands,
      key: ['standards', s.name, 'run'],
    })),
    ...Object.entries(config.scopes ?? {})
      .filter(([, scope]) => scope?.gate !== undefined)
      .map(([name, scope]) => ({
        name: `scope:${name}`,
        what: 'scope gate',
        commands: commandList(scope?.gate),
        key: ['scopes', name, 'gate'],
      })),
  ];
}
