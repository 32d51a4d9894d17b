// The setup's state: one small file under the git common dir (<common>/discern/setup.json), shared by every
// worktree, written atomically. Its phase — begun, done, accepted — is what gates the work loop
// (docs/decisions/0022): a setup that was begun and not accepted is unfinished, whatever the branches say. A
// repository with no such file and a committed discern.toml is simply set up.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { DiscernSetupPhase } from '../../../generated/types.js';
import type { RepositoryFacts } from './facts.js';
import { git } from '../git/git.js';
import type { StateSetup } from '../../../generated/state-types.js';
import { writeFileAtomic } from '../state/atomic-write.js';
import { readStateRecord } from '../state/state-record.js';
import type { SetupProposal } from './proposal.js';

/** The branch setup drafts discern.toml on (spec/conventions.yaml git.setup.branch). */
export const SETUP_BRANCH = 'discern/setup';
export const SETUP_STATE_FORMAT = 1 as const;

export interface SetupState {
  format: typeof SETUP_STATE_FORMAT;
  phase: DiscernSetupPhase;
  branch: string;
  trunk: string;
  /** HEAD when setup began: the setup branch starts here. */
  base: string;
  /** The commit discern made with the draft on the setup branch. */
  draft_commit: string;
  began_at: string;
  /** What setup proposed (after any recipe), with each choice's evidence: the pages read it. */
  proposal: SetupProposal;
  facts: RepositoryFacts;
  recipe?: string;
  /** Set by setup done: the commit it proved. */
  proven?: { commit: string; proof_id?: string; at: string };
  /** Set by setup accept: the commit the trunk holds. */
  accepted?: { commit: string; at: string };
}

/** What setup writes is what spec/state/setup.schema.json accepts: a compile-time check, no code. */
export type SetupWriterMatchesSchema = Pick<SetupState, keyof SetupState> extends StateSetup ? true : never;
const _setupWriterMatchesSchema: SetupWriterMatchesSchema = true;
void _setupWriterMatchesSchema;

export type SetupStateRead = { state: SetupState } | { missing: true } | { unreadable: string };

export function setupStatePath(commonDir: string): string {
  return join(commonDir, 'discern', 'setup.json');
}

export async function readSetupState(commonDir: string): Promise<SetupStateRead> {
  const read = await readStateRecord('setup', setupStatePath(commonDir));
  if (read.ok) return { state: read.value as SetupState };
  return read.reason === 'missing' ? { missing: true } : { unreadable: read.detail };
}

export async function writeSetupState(commonDir: string, state: SetupState): Promise<void> {
  await writeFileAtomic(setupStatePath(commonDir), `${JSON.stringify(state, null, 2)}\n`);
}

/** A setup that was begun and not yet accepted. */
export function unfinished(state: SetupState): boolean {
  return state.phase !== 'accepted';
}

/**
 * The one command that moves an unfinished setup on, from its phase and the setup branch's tip: land a proven,
 * unchanged tip; prove a branch the owner has committed to since the draft; go through the pages of an
 * untouched draft; begin again when the setup branch is gone.
 */
export function nextSetupCommand(state: SetupState, tip: string | undefined): string {
  if (tip === undefined) return 'discern setup begin';
  if (state.phase === 'done' && state.proven?.commit === tip) return 'discern setup accept';
  if (tip !== state.draft_commit) return 'discern setup done';
  return 'discern setup step 1';
}

/** The setup branch's tip, or undefined when the branch does not exist. */
export async function setupBranchTip(
  state: SetupState,
  run: { cwd: string; env: Readonly<Record<string, string | undefined>> },
): Promise<string | undefined> {
  const result = await git(['rev-parse', '--verify', '--quiet', `refs/heads/${state.branch}^{commit}`], run);
  return result.code === 0 ? result.stdout.trim() : undefined;
}

export interface UnfinishedSetup {
  phase: DiscernSetupPhase;
  branch: string;
  /** The command that moves it on. */
  next: string;
}

/**
 * The setup in progress, if there is one: what the gate refuses with and status reports. A state file that
 * cannot be read gates nothing (setup's own verbs report it); its absence is the common case and costs one stat.
 */
export async function unfinishedSetup(
  commonDir: string,
  run: { cwd: string; env: Readonly<Record<string, string | undefined>> },
): Promise<UnfinishedSetup | undefined> {
  if (!existsSync(setupStatePath(commonDir))) return undefined;
  const read = await readSetupState(commonDir);
  if (!('state' in read) || !unfinished(read.state)) return undefined;
  const tip = await setupBranchTip(read.state, run);
  // The setup branch is gone and the trunk has a committed discern.toml (merged by hand, or written another way):
  // there is no setup in progress any more, and a configured trunk is set up.
  if (tip === undefined && (await trunkHasConfig(read.state.trunk, run))) return undefined;
  return { phase: read.state.phase, branch: read.state.branch, next: nextSetupCommand(read.state, tip) };
}

/** Whether the trunk's tip commits a discern.toml. */
export async function trunkHasConfig(
  trunk: string,
  run: { cwd: string; env: Readonly<Record<string, string | undefined>> },
): Promise<boolean> {
  return (await git(['cat-file', '-e', `refs/heads/${trunk}:discern.toml`], run)).code === 0;
}
