// The configuration as discern applies it: defaults filled in, the trunk after DISCERN_TRUNK, and job and
// scope-gate commands as the lists that run. What doctor --verbose shows, discern://config serves,
// validate-config returns for a valid text, and what status reports of the project, its jobs and its scopes.
import { basename } from 'node:path';
import type { DiscernResolvedConfig } from '../../../generated/types.js';
import type { Project } from '../project/resolve.js';
import { commandList } from './commands.js';
import { configuredJobs } from './jobs.js';
import { scopeDefinitions } from './scope-definitions.js';
import { DEFAULT_BRANCH_PREFIX, DEFAULT_MAP_DIR } from './defaults.js';

/** What resolving needs: the root (the default project name), the configuration and the trunk chosen for it. */
export type ResolvableProject = Pick<Project, 'root' | 'config'> & { trunk: Pick<Project['trunk'], 'name' | 'source'> };

export function resolvedConfig(project: ResolvableProject): DiscernResolvedConfig {
  const config = project.config;
  return {
    project: {
      name: config.project?.name ?? basename(project.root),
      ...(config.project?.slug ? { slug: config.project.slug } : {}),
    },
    repository: {
      trunk: project.trunk.name,
      trunk_source: project.trunk.source,
      branch_prefix: config.repository?.branch_prefix ?? DEFAULT_BRANCH_PREFIX,
    },
    jobs: configuredJobs(config).map((job) => ({
      name: job.name,
      stage: job.stage,
      commands: job.commands,
      ...(job.provides !== undefined ? { provides: job.provides } : {}),
    })),
    scopes: scopeDefinitions(config).map((scope) => ({
      ...scope,
      paths: [...scope.paths],
      gate: commandList(config.scopes?.[scope.name]?.gate),
    })),
    map: { dir: config.map?.dir ?? DEFAULT_MAP_DIR },
  };
}
