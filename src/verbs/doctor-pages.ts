// doctor's look at the page [project] gotchas_doc names: refresh's instructions send agents to it, so a name that
// leads nowhere (or out of the project, as refresh's own reads refuse) is a warning with the fix, never a failure.
import type { DiscernConfig } from '../../generated/types.js';
import { variableValues } from '../engine/config/substitutions.js';
import { readProjectFile } from '../engine/refresh/files.js';

export interface PageCheck {
  name: string;
  status: 'ok' | 'warn';
  detail: string;
  fix?: string;
}

export async function projectPageChecks(config: DiscernConfig, root: string): Promise<PageCheck[]> {
  const page = variableValues(config)['project.gotchas_doc'];
  if (page === undefined) return [];
  const read = await readProjectFile(root, page);
  const isFile = read.ok && read.file.text !== null;
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
          detail: `[project] gotchas_doc names ${page}, which is not a file in the project, so the agents it sends there find nothing`,
          fix: `Create ${page} with the project's known traps, or correct [project] gotchas_doc, then run \`discern refresh\`.`,
        },
  ];
}
