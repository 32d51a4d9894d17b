// The secrets a job's output is masked with: the values in the project's configured env files ([worktree]
// env_files, default .env and .env.local), read from each checkout the job's files can come from — the one it
// runs in and the main checkout a linked worktree's copies were taken from (the directory holding the common
// git dir, when that is a `.git` directory).
import { basename, dirname } from 'node:path';
import type { DiscernConfig } from '../../../generated/types.js';
import { DEFAULT_ENV_FILES } from '../config/defaults.js';
import { readSecrets } from './redaction.js';

export interface SecretSources {
  config?: DiscernConfig | undefined;
  root: string;
  commonDir?: string | undefined;
}

export function projectSecrets(project: SecretSources, ...more: string[]): string[] {
  const files = project.config?.worktree?.env_files ?? DEFAULT_ENV_FILES;
  const main =
    project.commonDir !== undefined && basename(project.commonDir) === '.git' ? dirname(project.commonDir) : undefined;
  return readSecrets([project.root, ...(main !== undefined ? [main] : []), ...more], files);
}
