// What a parser or a reproduce command may need from the job's directory beyond the output: the Go module path
// (go test prints file base names and import paths) and the package scripts (a job that runs `npm test`). Read
// once per diagnosis, bounded, and never required: a missing or unreadable file leaves the fact absent.
import { open } from 'node:fs/promises';
import { join } from 'node:path';

export interface ProjectFacts {
  goModule?: string;
  scripts?: Readonly<Record<string, string>>;
}

const MAX_BYTES = 256 * 1024;

export async function readProjectFacts(cwd: string | undefined): Promise<ProjectFacts> {
  if (cwd === undefined || cwd === '') return {};
  const facts: ProjectFacts = {};
  const goMod = await readSmall(join(cwd, 'go.mod'));
  const module = goMod === undefined ? undefined : /^[ \t]*module[ \t]+"?([^\s"]+)"?[ \t]*$/m.exec(goMod)?.[1];
  if (module !== undefined) facts.goModule = module;
  const scripts = scriptsOf(await readSmall(join(cwd, 'package.json')));
  if (scripts !== undefined) facts.scripts = scripts;
  return facts;
}

export function scriptsOf(text: string | undefined): Record<string, string> | undefined {
  if (text === undefined) return undefined;
  try {
    const parsed = JSON.parse(text) as unknown;
    if (typeof parsed !== 'object' || parsed === null || !('scripts' in parsed)) return undefined;
    const scripts = (parsed as { scripts: unknown }).scripts;
    if (typeof scripts !== 'object' || scripts === null) return undefined;
    return Object.fromEntries(Object.entries(scripts).filter((e): e is [string, string] => typeof e[1] === 'string'));
  } catch {
    return undefined;
  }
}

async function readSmall(path: string): Promise<string | undefined> {
  try {
    const handle = await open(path, 'r');
    try {
      const buffer = Buffer.alloc(MAX_BYTES);
      const { bytesRead } = await handle.read(buffer, 0, MAX_BYTES, 0);
      return bytesRead === MAX_BYTES ? undefined : buffer.subarray(0, bytesRead).toString('utf8');
    } finally {
      await handle.close();
    }
  } catch {
    return undefined;
  }
}
