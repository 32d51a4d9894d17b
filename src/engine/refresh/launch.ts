// How the agents' files start discern, so that the committed files work on a teammate's clone too: what
// `[project] command` says; else through the project's own install (`npx --no-install discern`) when the
// project lists discern-cli among its dependencies; else the `discern` on the agent's PATH (a global install).
// Yarn's Plug'n'Play keeps no node_modules/.bin for npx to find, so there the PATH is used and a hint says why.
// The files name no path of this machine either way.
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';

export const PACKAGE_NAME = 'discern-cli';

export interface Launch {
  /** The program an agent starts, and the arguments before discern's own. */
  command: string;
  args: readonly string[];
  source: 'path' | 'project' | 'configured';
}

/** `discern` on the agent's PATH: a global install of discern-cli. */
export const PATH_LAUNCH: Launch = { command: 'discern', args: [], source: 'path' };
/** The project's own discern-cli, found by npx in node_modules/.bin and never fetched (`--no-install`). */
export const PROJECT_LAUNCH: Launch = { command: 'npx', args: ['--no-install', 'discern'], source: 'project' };

/** Every launch this version may write, so a file written with either is recognised as discern's. */
export const LAUNCHES: readonly Launch[] = [PATH_LAUNCH, PROJECT_LAUNCH];

/** The launch as one shell line, such as `npx --no-install discern`. */
export function launchLine(launch: Launch): string {
  return [launch.command, ...launch.args].join(' ');
}

/** `[project] command` as a launch: its words, which the config schema keeps free of quoting. */
export function configuredLaunch(command: string): Launch {
  const [program = 'discern', ...args] = command.split(' ');
  return { command: program, args, source: 'configured' };
}

/** Every launch a file may hold as discern's: this version's two, and the project's own command when it names one. */
export function knownLaunches(chosen: Launch): Launch[] {
  return chosen.source === 'configured' ? [chosen, ...LAUNCHES] : [...LAUNCHES];
}

export async function projectLaunch(root: string, configured?: string): Promise<{ launch: Launch; hint?: string }> {
  if (configured !== undefined) return { launch: configuredLaunch(configured) };
  const text = await readFile(join(root, 'package.json'), 'utf8').catch(() => undefined);
  if (text === undefined) return { launch: PATH_LAUNCH };
  let listed: boolean;
  try {
    const manifest = JSON.parse(text) as { dependencies?: unknown; devDependencies?: unknown };
    listed = [manifest.devDependencies, manifest.dependencies].some(
      (deps) => typeof deps === 'object' && deps !== null && Object.hasOwn(deps, PACKAGE_NAME),
    );
  } catch {
    return { launch: PATH_LAUNCH };
  }
  if (!listed) return { launch: PATH_LAUNCH };
  if (existsSync(join(root, '.pnp.cjs')) || existsSync(join(root, '.pnp.js')))
    return {
      launch: PATH_LAUNCH,
      hint: `package.json lists ${PACKAGE_NAME}, but yarn's Plug'n'Play keeps no node_modules/.bin for the agents to start it from: their files run \`discern\` from the PATH. Install ${PACKAGE_NAME} globally, or set \`nodeLinker: node-modules\` in .yarnrc.yml and run refresh again.`,
    };
  return { launch: PROJECT_LAUNCH };
}
