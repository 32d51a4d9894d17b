// What the setup verbs share: the checkout the call is aimed at (setup runs before there is a project, so the
// verbs take the resolution as it came), the setup in progress, the setup branch, the pages as the working
// discern.toml now makes them, and dirty-tree refusals that name the paths.
import { join } from 'node:path';
import type { DiscernConfigIssue } from '../../generated/types.js';
import type { Refusal } from '../core/outcome.js';
import { chooseTrunk, CONFIG_FILE, type Checkout } from '../engine/project/resolve.js';
import { readBranch } from '../engine/git/head.js';
import type { WorkingState } from '../engine/git/porcelain-status.js';
import { listWorktrees } from '../engine/git/worktree-list.js';
import { setupBook, type SetupBook } from '../engine/setup/pages.js';
import { proposalFromConfig, type SetupProposal } from '../engine/setup/proposal.js';
import { readSetupState, setupStatePath, unfinished, type SetupState } from '../engine/setup/state.js';
import type { InspectVerbContext } from './context.js';

export interface SetupPlace {
  checkout: Checkout;
  run: { cwd: string; env: Readonly<Record<string, string | undefined>> };
}

/** The checkout, whether or not it is a project yet; the resolution's own refusal when there is none. */
export function setupPlace(
  ctx: InspectVerbContext,
): SetupPlace | { refusal: Refusal<'no_repository' | 'precondition_failed'> } {
  const { resolution } = ctx;
  const checkout = resolution.ok ? resolution.project : resolution.partial.checkout;
  if (checkout === undefined) {
    const refusal = resolution.ok ? undefined : resolution.refusal;
    if (refusal?.error === 'no_repository' || refusal?.error === 'precondition_failed') return { refusal };
    return {
      refusal: {
        error: 'no_repository',
        message: refusal?.message ?? `${ctx.target} is not inside a git checkout.`,
        next: {},
      },
    };
  }
  return { checkout, run: { cwd: checkout.root, env: ctx.env } };
}

/** Setup works in the main checkout: from a linked worktree, a refusal naming the main checkout. */
export async function notMainCheckout(
  place: SetupPlace,
  rerun: string,
  why: string,
): Promise<Refusal<'not_main_checkout'> | undefined> {
  if (place.checkout.location === 'main') return undefined;
  const [main] = await listWorktrees(place.checkout.root, place.run.env);
  return {
    error: 'not_main_checkout',
    message: `${place.checkout.root} is a linked worktree: ${why}.`,
    next: { rerun, root: main?.path ?? 'the main checkout' },
  };
}

/** The setup in progress (begun or done); a refusal naming `setup begin` when there is none. */
export async function setupInProgress(
  place: SetupPlace,
): Promise<{ state: SetupState } | { refusal: Refusal<'precondition_failed'> }> {
  const read = await readSetupState(place.checkout.commonDir);
  if ('unreadable' in read) {
    return {
      refusal: {
        error: 'precondition_failed',
        message: `The setup state cannot be read: ${read.unreadable}. Remove ${setupStatePath(place.checkout.commonDir)} and begin again.`,
        next: { rerun: 'discern setup begin' },
      },
    };
  }
  if ('missing' in read || !unfinished(read.state)) {
    const why =
      'missing' in read
        ? 'No setup has been begun in this repository'
        : `The setup of ${read.state.branch} was already accepted`;
    return {
      refusal: {
        error: 'precondition_failed',
        message: `${why}: there is no setup in progress. \`discern setup begin\` starts one.`,
        next: { rerun: 'discern setup begin' },
      },
    };
  }
  return { state: read.state };
}

/** The main checkout must be on the setup branch: its working discern.toml is the draft. */
export async function onSetupBranch(
  place: SetupPlace,
  state: SetupState,
  rerun: string,
): Promise<Refusal<'not_on_setup_branch'> | undefined> {
  const branch = await readBranch(place.checkout.root, place.run.env);
  if (branch === state.branch && place.checkout.location === 'main') return undefined;
  const here =
    place.checkout.location === 'main'
      ? branch === null
        ? 'a detached HEAD'
        : `\`${branch}\``
      : `a linked worktree (${place.checkout.root})`;
  return {
    error: 'not_on_setup_branch',
    message: `The setup's draft is on \`${state.branch}\`, and this is ${here}. Setup works in the main checkout on that branch.`,
    next: { branch: state.branch, rerun },
  };
}

/** The pages as the working discern.toml makes them; the proposal setup began with while the file does not load. */
export function currentBook(
  ctx: InspectVerbContext,
  place: SetupPlace,
  state: SetupState,
): SetupBook & { proposal: SetupProposal; issues?: DiscernConfigIssue[] } {
  const { resolution } = ctx;
  const config = resolution.ok ? resolution.project.config : resolution.partial.config;
  const context = { root: place.checkout.root, branch: state.branch };
  if (config === undefined) {
    const issues = resolution.ok
      ? []
      : (resolution.partial.configIssues ?? [{ path: CONFIG_FILE, message: resolution.refusal.message }]);
    return { ...setupBook(state.proposal, context), proposal: state.proposal, issues };
  }
  const proposal = proposalFromConfig(config, state.proposal, {
    root: place.checkout.root,
    trunk: chooseTrunk(config, ctx.env).name,
  });
  return { ...setupBook(proposal, context), proposal };
}

/** A dirty tree named by its paths (the first few), for a refusal. */
export function uncommitted(state: WorkingState): string {
  const shown = state.paths.slice(0, 8).map((p) => `\`${p}\``);
  return `${state.changed} uncommitted path${state.changed === 1 ? '' : 's'}: ${shown.join(', ')}${state.paths.length > shown.length ? ', …' : ''}`;
}

export function configPath(place: SetupPlace): string {
  return join(place.checkout.root, CONFIG_FILE);
}
