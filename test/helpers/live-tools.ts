// Where the live diagnostics tests find the JavaScript test runners and linters they run. They are installed from
// tools/live-tools/package-lock.json into a cache outside the checkout (tools/live-tools.ts), one directory per
// lockfile digest, so a changed pin installs afresh and discern's own package.json never carries them.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const LIVE_TOOLS_MANIFEST = fileURLToPath(new URL('../../tools/live-tools/', import.meta.url));

/** The cache directory for the current lockfile; DISCERN_LIVE_TOOLS names another one. */
export function liveToolsPrefix(env: NodeJS.ProcessEnv = process.env): string {
  const chosen = env['DISCERN_LIVE_TOOLS'];
  if (chosen !== undefined && chosen !== '') return chosen;
  const cache = env['XDG_CACHE_HOME'] || join(homedir(), '.cache');
  const digest = createHash('sha256')
    .update(readFileSync(join(LIVE_TOOLS_MANIFEST, 'package-lock.json')))
    .digest('hex')
    .slice(0, 16);
  return join(cache, 'discern', 'live-tools', digest);
}

/** The installed node_modules, or undefined when the tools were never installed here. */
export function liveToolsModules(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const modules = join(liveToolsPrefix(env), 'node_modules');
  return existsSync(join(modules, '.package-lock.json')) ? modules : undefined;
}
