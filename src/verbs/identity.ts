// identity: the project's slug — [project] slug as written, else one derived from [project] name, else from the
// repository root folder's name — by the rule of the config schema's slug pattern. It needs a git checkout, not a
// discern.toml: without one (or with a trunk that does not exist) the folder's name still answers.
import { basename, dirname } from 'node:path';
import type { IdentityOutcome } from '../../generated/handlers.js';
import type { DiscernConfig, DiscernIdentityData } from '../../generated/types.js';
import type { Checkout } from '../engine/project/resolve.js';
import { slugify } from '../engine/project/slug.js';
import type { InspectVerbContext } from './context.js';

/** The config schema's `[project] slug` pattern. */

export async function identity(_input: unknown, ctx: InspectVerbContext): Promise<IdentityOutcome> {
  const { resolution } = ctx;
  let checkout: Checkout;
  let config: DiscernConfig | undefined;
  if (resolution.ok) {
    checkout = resolution.project;
    config = resolution.project.config;
  } else if (
    resolution.partial.checkout &&
    (resolution.refusal.error === 'no_project' || resolution.refusal.error === 'no_trunk')
  ) {
    // No discern.toml, or a trunk the identity does not depend on: what is known is enough.
    checkout = resolution.partial.checkout;
    config = resolution.partial.config;
  } else {
    const { refusal } = resolution;
    if (refusal.error === 'no_project' || refusal.error === 'no_trunk')
      throw new Error(`resolution refused with ${refusal.error} before finding the checkout`);
    const [first, ...others] = resolution.partial.configIssues ?? [];
    return { refusal, ...(first !== undefined ? { data: { issues: [first, ...others] } } : {}) };
  }

  const root = repositoryRoot(checkout);
  const folder = basename(root).replace(/\.git$/, '') || basename(root);
  const project = config?.project;
  const name = project?.name ?? folder;
  const found: Pick<DiscernIdentityData, 'identity' | 'source'> | undefined =
    project?.slug !== undefined
      ? { identity: project.slug, source: 'config_slug' }
      : (fromText(project?.name, 'config_name') ?? fromText(folder, 'directory'));
  if (found === undefined) {
    const tried = [
      project?.name !== undefined ? `[project] name "${project.name}"` : undefined,
      `the repository folder's name "${folder}"`,
    ]
      .filter(Boolean)
      .join(' and ');
    return {
      refusal: {
        error: 'identity_failed',
        message: `No project identity: [project] slug is not set, and ${tried} ${project?.name !== undefined ? 'have' : 'has'} no letters or digits to make a slug from.`,
        next: {},
      },
    };
  }
  return { data: { ...found, name, root } };
}

function fromText(
  text: string | undefined,
  source: 'config_name' | 'directory',
): Pick<DiscernIdentityData, 'identity' | 'source'> | undefined {
  if (text === undefined) return undefined;
  const identity = slugify(text);
  return identity === undefined ? undefined : { identity, source };
}

/**
 * The repository's root folder: the checkout itself for a main checkout; for a linked worktree, the main
 * checkout that owns its git directory (or, for a bare repository's worktree, that git directory).
 */
function repositoryRoot(checkout: Checkout): string {
  if (checkout.location === 'main') return checkout.root;
  return basename(checkout.commonDir) === '.git' ? dirname(checkout.commonDir) : checkout.commonDir;
}
