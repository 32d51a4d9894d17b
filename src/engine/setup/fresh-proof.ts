// setup done proves the draft as `start` will use it: in a fresh worktree of the setup commit, with the env files
// start copies and the [repository] ensure commands start runs, then the gate. A draft that only works in the
// owner's checkout — on an ignored lockfile, a node_modules or a virtualenv that checkout happens to have — is
// not green. The worktree sits where efforts' worktrees do (outside the checkout, so nothing resolves upward into
// the owner's files), on a branch of its own at the setup commit, and is always removed afterwards.
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { DiscernConfig, DiscernDiagnostic, DiscernStep } from '../../../generated/types.js';
import { commandList } from '../config/commands.js';
import { DEFAULT_ENV_FILES, presentEnvFiles } from '../efforts/env-files.js';
import { runSetupSteps } from '../efforts/setup-steps.js';
import { worktreeRoot } from '../efforts/start-plan.js';
import { git, gitComplaint } from '../git/git.js';

type Env = Readonly<Record<string, string | undefined>>;

/** The branch the proof's worktree is on: discern's own, removed with it. */
export const PROOF_BRANCH = 'discern/setup-proof';

export interface FreshPlace {
  mainRoot: string;
  commonDir: string;
  gitDir: string;
  config: DiscernConfig;
  env: Env;
  signal: AbortSignal;
  /** The [gate] timeout, which start gives ensure commands too. */
  ensureTimeoutS: number;
}

export type Fresh<T> =
  | { ok: true; value: T; steps: DiscernStep[] }
  | {
      ok: false;
      stage: 'worktree' | 'ensure';
      steps: DiscernStep[];
      message: string;
      diagnostics: DiscernDiagnostic[];
    };

/** Runs `body` in a fresh worktree of `commit` made ready as start makes one; the worktree is removed after. */
export async function inFreshWorktree<T>(
  place: FreshPlace,
  commit: string,
  body: (path: string) => Promise<T>,
): Promise<Fresh<T>> {
  const steps: DiscernStep[] = [];
  const rooted = worktreeRoot(place.config, place.mainRoot);
  if (!rooted.ok) return { ok: false, stage: 'worktree', steps, message: rooted.message, diagnostics: [] };
  const path = join(rooted.root, 'discern-setup-proof');
  const run = { cwd: place.mainRoot, env: place.env };
  await removeProofWorktree(place, path);
  await mkdir(rooted.root, { recursive: true });
  const added = await git(['worktree', 'add', '-q', '-b', PROOF_BRANCH, path, commit], run);
  steps.push({
    kind: 'git',
    label: `check the setup commit ${commit.slice(0, 12)} out in a fresh worktree, as start will`,
    disposition: 'run',
    note: path,
    outcome: added.code === 0 ? 'ok' : 'failed',
    duration_s: 0,
  });
  if (added.code !== 0) {
    await removeProofWorktree(place, path);
    return {
      ok: false,
      stage: 'worktree',
      steps,
      message: `git could not make a fresh worktree of the setup commit: ${gitComplaint(added)}.`,
      diagnostics: [],
    };
  }
  try {
    const ready = await runSetupSteps({
      id: 'setup-proof',
      branch: PROOF_BRANCH,
      path,
      mainRoot: place.mainRoot,
      env: place.env,
      signal: place.signal,
      outputDir: join(place.gitDir, 'discern', 'output', 'setup-proof'),
      envFiles: await presentEnvFiles(
        place.config.worktree?.env_files ?? DEFAULT_ENV_FILES,
        place.mainRoot,
        commit,
        place.env,
      ),
      ensure: commandList(place.config.repository?.ensure),
      setupSteps: commandList(place.config.worktree?.setup?.steps),
      setupEnsure: commandList(place.config.worktree?.setup?.ensure),
      ensureTimeoutS: place.ensureTimeoutS,
      resources: [],
    });
    steps.push(...ready.steps);
    if (!ready.ok) return { ok: false, stage: 'ensure', steps, message: ready.message, diagnostics: ready.diagnostics };
    return { ok: true, value: await body(path), steps };
  } finally {
    const removed = await removeProofWorktree(place, path);
    steps.push({
      kind: 'git',
      label: 'remove the fresh worktree and its branch',
      disposition: 'run',
      note: path,
      outcome: removed ? 'ok' : 'failed',
      duration_s: 0,
    });
  }
}

/** Removes the proof's worktree and branch, a leftover of an earlier run too; whether both are gone. */
async function removeProofWorktree(place: FreshPlace, path: string): Promise<boolean> {
  const run = { cwd: place.mainRoot, env: place.env };
  await git(['worktree', 'remove', '--force', '--force', path], run);
  await git(['worktree', 'prune'], run);
  await git(['branch', '-D', PROOF_BRANCH], run);
  const left = await git(['rev-parse', '--verify', '--quiet', `refs/heads/${PROOF_BRANCH}`], run);
  return left.code !== 0;
}
