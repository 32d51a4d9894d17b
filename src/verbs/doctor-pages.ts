// doctor's look at the page [project] gotchas_doc names: refresh's instructions send agents to it only when it
// exists, so a name that leads nowhere is a warning with the fix, never a failure.
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { DiscernConfig } from '../../generated/types.js';
import { variableValues } from '../engine/config/substitutions.js';

export interface PageCheck {
  name: string;
  status: 'ok' | 'warn';
  detail: string;
  fix?: string;
}

export async function projectPageChecks(config: DiscernConfig, root: string): Promise<PageCheck[]> {
  const page = variableValues(config)['project.gotchas_doc'];
  if (page === undefined) return [];
  const isFile = await stat(join(root, page)).then(
    (s) => s.isFile(),
    () => false,
  );
  return [
    isFile
      ? {
          name: 'page:gotchas_doc',
          status: 'ok',
          detail: `${page} exists; refresh's instructions tell agents to read it`,
        }
      : {
          name: 'page:gotchas_doc',
          status: 'warn',
          detail: `[project] gotchas_doc names ${page}, which is not a file, so agents are not sent to it`,
          fix: `Create ${page} with the project's known traps, or correct [project] gotchas_doc, then run \`discern refresh\`.`,
        },
  ];
}
