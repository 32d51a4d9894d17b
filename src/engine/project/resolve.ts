// Project resolution, shared by every project verb: an absolute path anywhere inside a checkout (main or
// linked worktree) → that checkout's root, its discern.toml, and the trunk. Each failure is classified:
// invalid_arguments (relative or missing path), no_repository, no_project, invalid_toml / invalid_config /
// unknown_key / read_failed (config), no_trunk. Inherited GIT_* location variables are ignored (see git.ts).
import { stat } from 'node:fs/promises';
import { dirname, isAbsolute, join } from 'node:path';
import type {
  DiscernCheckoutLocation,
  DiscernConfig,
  DiscernConfigIssue,
  DiscernTrunkSource,
} from '../../../generated/types.js';
import type { Refusal } from '../../core/outcome.js';
import { git, gitComplaint, GitUnavailable } from '../git/git.js';
import { loadConfig } from '../config/load.js';
import { knownValidIn } from '../config/known-valid.js';
import { branchNameProblem } from '../git/ref-name.js';
import { localBranchExists } from '../git/local-branch.js';
import { discoverCheckout } from '../git/discover.js';
import { recordedTrunk } from './effort-trunk.js';

export const CONFIG_FILE = 'discern.toml';

export interface Checkout {
  /** The checkout's top-level directory: the project root. */
  root: string;
  gitDir: string;
  commonDir: string;
  location: Extract<DiscernCheckoutLocation, 'main' | 'worktree'>;
  /** A shallow clone: history beyond its boundary is missing. */
  shallow: boolean;
}

export interface Trunk {
  name: string;
  source: Extract<DiscernTrunkSource, 'env' | 'config' | 'default' | 'effort'>;
  /** Whether the branch exists; always true unless the verb resolved with requireTrunk false. */
  exists: boolean;
}

export interface Project extends Checkout {
  configPath: string;
  config: DiscernConfig;
  trunk: Trunk;
}

export type ResolutionSlug =
  | 'invalid_arguments'
  | 'no_repository'
  | 'no_project'
  | 'no_trunk'
  | 'invalid_toml'
  | 'invalid_config'
  | 'unknown_key'
  | 'read_failed'
  | 'renamed_config_key'
  | 'schema_version_too_new'
  | 'precondition_failed';

/** What was established before resolution stopped, for verbs that report on it (doctor). */
export interface PartialResolution {
  checkout?: Checkout;
  configPath?: string;
  config?: DiscernConfig;
  trunk?: Omit<Trunk, 'exists'>;
  configIssues?: DiscernConfigIssue[];
}

export type Resolution =
  { ok: true; project: Project } | { ok: false; refusal: Refusal<ResolutionSlug>; partial: PartialResolution };

export interface ResolveOptions {
  /** Absolute path inside the checkout; the caller passes its working directory when none was given. */
  path: string;
  /** Whether the path was an argument of the call or the caller's working directory (which can be deleted). */
  pathFrom: 'argument' | 'working-directory';
  /** Refuse with no_trunk when the trunk branch does not exist (default); false lets the verb report it. */
  requireTrunk?: boolean;
  env: Readonly<Record<string, string | undefined>>;
  signal?: AbortSignal;
}

export async function resolveProject(options: ResolveOptions): Promise<Resolution> {
  const { path, env } = options;
  if (!isAbsolute(path)) {
    return refuse(
      {
        error: 'invalid_arguments',
        message: `path must be absolute; "${path}" is relative.`,
        next: { help: 'the `path` section of `discern docs mcp-server`' },
      },
      {},
    );
  }
  const start = await existingDirectory(path);
  if (start === undefined && options.pathFrom === 'working-directory') {
    return refuse(
      {
        error: 'no_repository',
        message: `The working directory ${path} no longer exists; it may have been moved or deleted.`,
        next: {},
      },
      {},
    );
  }
  if (start === undefined) {
    return refuse(
      {
        error: 'invalid_arguments',
        message: `${path} does not exist; it may have been moved or deleted.`,
        next: { help: 'the `path` section of `discern docs mcp-server`' },
      },
      {},
    );
  }
  const found = await findCheckout(start, env, options.signal);
  if (!found.ok && found.reason === 'not-a-checkout')
    return refuse({ error: 'no_repository', message: found.message, next: {} }, {});
  // git itself cannot help (not installed, or it distrusts the repository): the checkout may well be fine.
  if (!found.ok)
    return refuse({ error: 'precondition_failed', message: found.message, next: { rerun: 'discern doctor' } }, {});
  const checkout = found.checkout;

  const configPath = join(checkout.root, CONFIG_FILE);
  const configExists = await stat(configPath).then(
    () => true,
    () => false,
  );
  if (!configExists) {
    return refuse(
      {
        error: 'no_project',
        message: `${checkout.root} has no ${CONFIG_FILE}, so it is not a discern project.`,
        next: { root: checkout.root },
      },
      { checkout, configPath },
    );
  }
  const loaded = await loadConfig(configPath, CONFIG_FILE, {
    knownValid: knownValidIn(join(checkout.commonDir, 'discern', 'config-valid')),
  });
  if (!loaded.ok) {
    const partial = { checkout, configPath, configIssues: loaded.issues };
    if (loaded.error === 'read_failed') {
      return refuse(
        {
          error: 'read_failed',
          message: loaded.message,
          next: { target: configPath, access: 'readable' },
        },
        partial,
      );
    }
    if (loaded.error === 'renamed_config_key')
      return refuse({ error: 'renamed_config_key', message: loaded.message, next: { where: loaded.where } }, partial);
    if (loaded.error === 'schema_version_too_new')
      return refuse({ error: 'schema_version_too_new', message: loaded.message, next: { file: CONFIG_FILE } }, partial);
    return refuse(
      { error: loaded.error, message: loaded.message, next: { file: CONFIG_FILE, where: loaded.where } },
      partial,
    );
  }
  let trunk: Omit<Trunk, 'exists'> = chooseTrunk(loaded.config, env);
  // In an effort's worktree the trunk is the one recorded when the effort started (effort-trunk.ts).
  const recorded =
    checkout.location === 'worktree' ? await recordedTrunk(checkout.gitDir, checkout.commonDir) : undefined;
  if (recorded !== undefined) {
    if (trunk.source === 'env' && trunk.name !== recorded)
      return refuse(
        {
          error: 'no_trunk',
          message: `DISCERN_TRUNK names "${trunk.name}", but this effort lands on "${recorded}" (recorded when it started): an effort's trunk does not change. Unset DISCERN_TRUNK here, or start an effort from the main checkout to land on "${trunk.name}".`,
          next: { trunk: recorded },
        },
        { checkout, configPath, config: loaded.config, trunk },
      );
    trunk = { name: recorded, source: 'effort' };
  }
  const partial = { checkout, configPath, config: loaded.config, trunk };
  const from = trunkFrom(trunk.source);
  const problem = branchNameProblem(trunk.name);
  if (problem !== undefined) {
    return refuse(
      {
        error: 'no_trunk',
        message: `The trunk "${trunk.name}" (from ${from}) is not a branch name: ${problem}.`,
        next: { trunk: trunk.name },
      },
      partial,
    );
  }
  const exists = await localBranchExists(checkout.commonDir, trunk.name, {
    cwd: checkout.root,
    env,
    ...(options.signal ? { signal: options.signal } : {}),
  });
  if (!exists && options.requireTrunk !== false) {
    return refuse(
      {
        error: 'no_trunk',
        message: missingTrunkMessage(trunk),
        next: { trunk: trunk.name },
      },
      partial,
    );
  }
  return { ok: true, project: { ...checkout, configPath, config: loaded.config, trunk: { ...trunk, exists } } };
}

/** Where the trunk's name came from, as a refusal names it. */
export function trunkFrom(source: Trunk['source']): string {
  return {
    env: 'DISCERN_TRUNK',
    config: '[repository] trunk',
    effort: "this effort's task record",
    default: 'the default',
  }[source];
}

/** The trunk branch does not exist: the sentence every refusal of it starts with (done --ci adds what to fetch). */
export function missingTrunkMessage(trunk: Pick<Trunk, 'name' | 'source'>): string {
  const renamed =
    trunk.source === 'effort'
      ? ' If the owner renamed the trunk, this effort does not follow it: land its work by starting a new effort from the renamed trunk and bringing the branch in there.'
      : '';
  return `The trunk branch "${trunk.name}" (from ${trunkFrom(trunk.source)}) does not exist in this repository.${renamed}`;
}

export function chooseTrunk(
  config: DiscernConfig,
  env: Readonly<Record<string, string | undefined>>,
): Omit<Trunk, 'exists'> & { source: 'env' | 'config' | 'default' } {
  const fromEnv = env['DISCERN_TRUNK']?.trim();
  if (fromEnv) return { name: fromEnv, source: 'env' };
  const fromConfig = config.repository?.trunk;
  if (fromConfig) return { name: fromConfig, source: 'config' };
  return { name: 'main', source: 'default' };
}

type CheckoutSearch =
  | { ok: true; checkout: Checkout }
  | { ok: false; reason: 'not-a-checkout' | 'git-unavailable' | 'untrusted'; message: string };

export async function findCheckout(
  start: string,
  env: Readonly<Record<string, string | undefined>>,
  signal?: AbortSignal,
): Promise<CheckoutSearch> {
  const discovered = discoverCheckout(start);
  if (discovered) return { ok: true, checkout: discovered };
  let result;
  try {
    result = await git(
      [
        'rev-parse',
        '--path-format=absolute',
        '--show-toplevel',
        '--absolute-git-dir',
        '--git-common-dir',
        '--is-shallow-repository',
      ],
      {
        cwd: start,
        env,
        ...(signal ? { signal } : {}),
      },
    );
  } catch (error) {
    if (error instanceof GitUnavailable)
      return {
        ok: false,
        reason: 'git-unavailable',
        message: `${error.message}; discern needs git. Install git 2.38 or newer and put it on PATH.`,
      };
    throw error;
  }
  if (result.code !== 0) {
    const complaint = gitComplaint(result);
    if (/dubious ownership/.test(result.stderr)) {
      return {
        ok: false,
        reason: 'untrusted',
        message: `git refuses to read the repository at ${start} because another user owns it; trust it with \`git config --global --add safe.directory <its root>\` if it is yours.`,
      };
    }
    const insideGitDir = /must be run in a work tree/.test(complaint);
    return {
      ok: false,
      reason: 'not-a-checkout',
      message: insideGitDir
        ? `${start} is inside a git directory, not a checkout's working tree.`
        : `${start} is not inside a git checkout (${complaint}).`,
    };
  }
  const [root, gitDir, commonDir, shallow] = result.stdout.split('\n');
  if (!root || !gitDir || !commonDir)
    return { ok: false, reason: 'not-a-checkout', message: `git did not report a checkout for ${start}.` };
  return {
    ok: true,
    checkout: {
      root,
      gitDir,
      commonDir,
      location: gitDir === commonDir ? 'main' : 'worktree',
      shallow: shallow === 'true',
    },
  };
}

async function existingDirectory(path: string): Promise<string | undefined> {
  try {
    const info = await stat(path);
    return info.isDirectory() ? path : dirname(path);
  } catch {
    return undefined;
  }
}

function refuse(refusal: Refusal<ResolutionSlug>, partial: PartialResolution): Resolution {
  return { ok: false, refusal, partial };
}
