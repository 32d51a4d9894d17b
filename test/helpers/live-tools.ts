// Where tests find the tools they run that are not discern's own dependencies, each kit installed from its
// lockfile in tools/<kit>/ into a cache outside the checkout (tools/live-tools.ts), one directory per lockfile
// digest, so a changed pin installs afresh and discern's own package.json never carries them:
//   - live-tools: the JavaScript test runners and linters the live diagnostics tests run;
//   - agent-clis: the coding agents' own CLIs (Claude Code, Codex, Gemini CLI) the packaging test asks to list
//     discern's server.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export type ToolKit = 'live-tools' | 'agent-clis';

/** The folder holding a kit's package.json and package-lock.json. */
export function toolKitManifest(kit: ToolKit): string {
  return fileURLToPath(new URL(`../../tools/${kit}/`, import.meta.url));
}

export const LIVE_TOOLS_MANIFEST = toolKitManifest('live-tools');

/** A kit's cache directory for its current lockfile; DISCERN_LIVE_TOOLS names another one for live-tools. */
export function toolKitPrefix(kit: ToolKit, env: NodeJS.ProcessEnv = process.env): string {
  const chosen = kit === 'live-tools' ? env['DISCERN_LIVE_TOOLS'] : undefined;
  if (chosen !== undefined && chosen !== '') return chosen;
  const cache = env['XDG_CACHE_HOME'] || join(homedir(), '.cache');
  const digest = createHash('sha256')
    .update(readFileSync(join(toolKitManifest(kit), 'package-lock.json')))
    .digest('hex')
    .slice(0, 16);
  return join(cache, 'discern', kit, digest);
}

/** A kit's installed node_modules, or undefined when it was never installed here. */
export function toolKitModules(kit: ToolKit, env: NodeJS.ProcessEnv = process.env): string | undefined {
  const modules = join(toolKitPrefix(kit, env), 'node_modules');
  return existsSync(join(modules, '.package-lock.json')) ? modules : undefined;
}

export function liveToolsPrefix(env: NodeJS.ProcessEnv = process.env): string {
  return toolKitPrefix('live-tools', env);
}

export function liveToolsModules(env: NodeJS.ProcessEnv = process.env): string | undefined {
  return toolKitModules('live-tools', env);
}
