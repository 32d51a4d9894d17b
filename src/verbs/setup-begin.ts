// setup begin: in the main checkout, on a clean committed tree that has no discern.toml yet, read the
// repository's own facts, propose discern.toml (a --config recipe overriding what it names), and — unless this is
// a dry run — create the setup branch from HEAD, commit the draft there and record the setup as begun. Every path
// it writes is probed first; a denied one refuses with nothing changed. The result is the operating contract,
// the facts, the draft, the first page and the owner moments (docs/decisions/0022).
import { existsSync } from 'node:fs';
import { readFile, rm } from 'node:fs/promises';
import { isAbsolute, resolve } from 'node:path';
import type { SetupBeginOutcome } from '../../generated/handlers.js';
import { VERBS } from '../../generated/registry.js';
import type {
  DiscernPlanStep,
  DiscernSetupBeginData,
  DiscernSetupBeginInput,
  DiscernStep,
} from '../../generated/types.js';
import { git, gitComplaint } from '../engine/git/git.js';
import { readWorkingState } from '../engine/git/porcelain-status.js';
import { branchNameProblem } from '../engine/git/ref-name.js';
import { parseConfig } from '../engine/config/validate.js';
import { renderDraft } from '../engine/setup/draft-toml.js';
import { inspectRepository } from '../engine/setup/inspect.js';
import { setupBook } from '../engine/setup/pages.js';
import { applyRecipe, proposalFromFacts } from '../engine/setup/proposal.js';
import { loadRecipe } from '../engine/setup/recipe.js';
import { gitWithoutHooks, identityOptions } from '../engine/setup/setup-git.js';
import {
  nextSetupCommand,
  readSetupState,
  SETUP_BRANCH,
  setupBranchTip,
  setupStatePath,
  unfinished,
  writeSetupState,
  type SetupState,
} from '../engine/setup/state.js';
import { writeFileAtomic } from '../engine/state/atomic-write.js';
import { probeWrites } from '../engine/state/write-probe.js';
import type { InspectVerbContext } from './context.js';
import { configPath, notMainCheckout, setupPlace, uncommitted, type SetupPlace } from './setup-context.js';

const HINTS = VERBS.setupBegin.hints;

export async function setupBegin(input: DiscernSetupBeginInput, ctx: InspectVerbContext): Promise<SetupBeginOutcome> {
  const place = setupPlace(ctx);
  if ('refusal' in place) return place;
  const { checkout, run } = place;
  const rerun = `discern setup begin${input.config !== undefined ? ` --config ${input.config}` : ''}`;
  const linked = await notMainCheckout(place, rerun, 'setup drafts discern.toml on a branch of the main checkout');
  if (linked) return { refusal: linked };
  const state = await readWorkingState(checkout.root, ctx.env, ctx.signal);
  if (state.unborn || state.head === null) {
    return {
      refusal: {
        error: 'precondition_failed',
        message:
          'This repository has no commit yet: setup branches from one. Commit what is there (even a README), then begin.',
        next: { rerun },
      },
    };
  }
  if (state.detached) {
    return {
      refusal: {
        error: 'detached_head',
        message: 'HEAD is detached: setup branches from the trunk and lands back on it, so check the trunk out first.',
        next: { rerun },
      },
    };
  }

  const previous = await readSetupState(checkout.commonDir);
  if ('state' in previous && unfinished(previous.state)) {
    const tip = await setupBranchTip(previous.state, run);
    // A setup whose branch is gone was abandoned: beginning again replaces it.
    if (tip !== undefined) {
      const next = nextSetupCommand(previous.state, tip);
      return {
        refusal: {
          error: 'setup_unfinished',
          message: `A setup is already in progress on \`${previous.state.branch}\` (${previous.state.phase}, begun ${previous.state.began_at}). Finish it, or abandon it by deleting that branch, then begin again.`,
          next: { next },
        },
      };
    }
  }
  const head = state.head;
  if (await hasConfig(run, 'HEAD')) return alreadySetUp(state.branch ?? 'HEAD');
  // A discern.toml on disk but not committed (untracked, or covered by the ignore rules) is the user's file: setup's draft
  // would replace it, and undoing a failed commit would delete it.
  const onDisk = configPath(place);
  if (existsSync(onDisk)) {
    return {
      refusal: {
        error: 'precondition_failed',
        message: `${onDisk} exists but is not committed on this branch: setup writes its draft there. Move it aside, or commit it and run \`discern doctor\`.`,
        next: { rerun },
      },
    };
  }
  // A preview shows the plan on any tree; the setup itself commits only its own file, on a clean one.
  const dirty =
    state.changed > 0
      ? `The main checkout has ${uncommitted(state)}. Setup commits only its own discern.toml on a new branch, so commit or stash these first.`
      : undefined;
  if (dirty !== undefined && input.dry_run !== true) {
    return {
      refusal: {
        error: 'dirty_worktree',
        message: dirty,
        next: { rerun, standalone: 'discern setup begin --dry-run' },
      },
    };
  }
  if ((await git(['rev-parse', '--verify', '--quiet', `refs/heads/${SETUP_BRANCH}`], run)).code === 0) {
    return {
      refusal: {
        error: 'precondition_failed',
        message: `A branch \`${SETUP_BRANCH}\` already exists and no setup is in progress on it. Delete it (\`git branch -D ${SETUP_BRANCH}\`) if it is a leftover, then begin again.`,
        next: { rerun },
      },
    };
  }

  // The recipe is read before the repository: a broken recipe is the first thing to fix.
  let recipe:
    { path: string; loaded: Extract<Awaited<ReturnType<typeof loadRecipe>>, { ok: true }>['recipe'] } | undefined;
  if (input.config !== undefined) {
    const path = isAbsolute(input.config) ? input.config : resolve(ctx.target, input.config);
    const loaded = await loadRecipe(path);
    if (!loaded.ok)
      return {
        refusal: {
          error: 'invalid_config_file',
          message: loaded.message,
          next: { file: input.config, where: loaded.where, rerun },
        },
      };
    recipe = { path, loaded: loaded.recipe };
  }

  const facts = await inspectRepository(checkout.root, { env: ctx.env, signal: ctx.signal });
  const fromFacts = proposalFromFacts(facts);
  const overridden = recipe ? applyRecipe(fromFacts, recipe.loaded, recipe.path) : undefined;
  const proposal = overridden?.proposal ?? fromFacts;
  const draft = renderDraft(proposal);
  // The draft is made to validate; a recipe can still combine keys the schema refuses (a custom job named like a known one).
  const checked = parseConfig(new TextEncoder().encode(draft));
  const trunkProblem = branchNameProblem(proposal.trunk.name);
  if (!checked.ok || trunkProblem !== undefined) {
    const why = !checked.ok
      ? checked.message
      : `the trunk "${proposal.trunk.name}" is not a branch name: ${trunkProblem ?? ''}.`;
    return {
      refusal: {
        error: 'setup_plan_failed',
        message: `The proposed discern.toml would not be valid: ${why}${recipe ? ` Correct the recipe ${recipe.path}.` : ''}`,
        next: { rerun },
      },
    };
  }

  if (proposal.trunk.name !== state.branch && (await hasConfig(run, `refs/heads/${proposal.trunk.name}`)))
    return alreadySetUp(proposal.trunk.name);
  // Setup branches from HEAD and lands by fast-forwarding the trunk: begun on another branch, that branch's own
  // commits would land with it (or the landing would refuse). A trunk the recipe names anew is made at landing.
  if (
    proposal.trunk.name !== state.branch &&
    (await git(['rev-parse', '--verify', '--quiet', `refs/heads/${proposal.trunk.name}`], run)).code === 0
  )
    return {
      refusal: {
        error: 'not_on_trunk',
        message: `The main checkout is on \`${state.branch ?? 'HEAD'}\`, not on the trunk \`${proposal.trunk.name}\`${recipe ? ` (the recipe ${recipe.path} names it)` : ''}: setup branches from the trunk and lands back on it, so ${state.branch ?? 'HEAD'}'s own commits would land with the setup. Nothing was written.`,
        next: { trunk: proposal.trunk.name, rerun },
      },
    };

  const book = setupBook(proposal, { root: checkout.root, branch: SETUP_BRANCH });
  const [first] = book.pages;
  if (first === undefined) throw new Error('setup has at least one page');
  const target = configPath(place);
  const trunk = proposal.trunk.name;
  const data: DiscernSetupBeginData = {
    phase: 'begun',
    branch: SETUP_BRANCH,
    trunk,
    base: head,
    config_path: target,
    contract: {
      summary: `Setup drafts discern.toml on \`${SETUP_BRANCH}\` from this repository's own files, proves it with the first gate, and lands it on \`${trunk}\` only when the owner accepts it.`,
      discern_does: [
        'read the repository’s files (package manifests, lockfiles, Makefile, CI workflows, docs folders) without running any of their commands',
        `commit the draft discern.toml on \`${SETUP_BRANCH}\`, a branch of its own started from ${head.slice(0, 12)}; \`${trunk}\` does not move`,
        `record the setup in ${setupStatePath(checkout.commonDir)}: until it is accepted, start, prepare, test, done, update, await and accept answer setup_unfinished`,
        '`discern setup done`: run doctor’s checks and the gate on the branch’s committed tip, and record Proof for it',
        `\`discern setup accept\`: fast-forward \`${trunk}\` to exactly that proven commit, check it out, write the Proof note and delete \`${SETUP_BRANCH}\``,
      ],
      owner_decides: book.moments.map((m) => m.purpose),
    },
    facts,
    draft,
    ...(recipe && overridden ? { recipe: { path: recipe.path, applied: overridden.applied } } : {}),
    page: first,
    pages_total: book.pages.length,
    spine: { owner_moments: book.moments },
  };
  const planned = planSteps(target, trunk, checkout.commonDir);
  if (input.dry_run === true) {
    return {
      dry_run: true,
      plan: {
        title: `setup would draft discern.toml on ${SETUP_BRANCH} from ${head.slice(0, 12)} and land it on ${trunk} when accepted`,
        details: [
          `trunk: ${trunk}`,
          `jobs: ${proposal.jobs.map((j) => j.name).join(', ') || 'none found'}`,
          `pages: ${book.pages.length}`,
          ...(dirty ? [dirty] : []),
        ],
        steps: planned,
      },
      data,
      hints: [...untrackedHint(facts.untracked), HINTS.dry_run],
    };
  }

  const probed = await probeWrites([
    target,
    setupStatePath(checkout.commonDir),
    `${checkout.commonDir}/refs/heads/${SETUP_BRANCH}`,
    `${checkout.gitDir}/HEAD`,
    `${checkout.gitDir}/index`,
    `${checkout.commonDir}/objects/probe`,
  ]);
  if (!probed.ok) {
    return {
      refusal: {
        error: 'write_denied',
        message: `Setup must write ${probed.path}, and it cannot (${probed.reason}). Nothing was changed.`,
        next: { target: probed.path, access: 'writable' },
      },
    };
  }

  // The setup is recorded first, so the work loop is gated from the moment the branch exists; a begin that fails
  // part way undoes its branch and file and puts the previous record back.
  const statePath = setupStatePath(checkout.commonDir);
  const previousRecord = await readFile(statePath, 'utf8').catch(() => undefined);
  const record: SetupState = {
    format: 1,
    phase: 'begun',
    branch: SETUP_BRANCH,
    trunk,
    base: head,
    draft_commit: head,
    began_at: new Date().toISOString(),
    proposal,
    facts,
    ...(recipe ? { recipe: recipe.path } : {}),
  };
  const recorded = await writeSetupState(checkout.commonDir, record).then(
    () => true,
    () => false,
  );
  const steps: DiscernStep[] = [
    {
      kind: 'setup-step',
      label: 'record the setup as begun',
      disposition: 'run',
      note: statePath,
      outcome: recorded ? 'ok' : 'failed',
      duration_s: 0,
    },
  ];
  if (!recorded)
    return {
      steps,
      refusal: {
        error: 'apply_failed',
        message: `The setup could not be recorded in ${statePath}; nothing else was changed.`,
        next: { recovery: 'make that file writable, then run `discern setup begin` again' },
      },
    };
  const applied = await apply(place, { trunk, draft, target }, steps);
  if (!applied.ok) {
    await (
      previousRecord === undefined ? rm(statePath, { force: true }) : writeFileAtomic(statePath, previousRecord)
    ).catch(() => undefined);
    return {
      steps,
      refusal: {
        error: 'apply_failed',
        message: `Setup could not commit the draft: ${applied.message}. It was undone: ${trunk} is checked out again and ${SETUP_BRANCH} removed.`,
        next: { recovery: 'fix what git names, then run `discern setup begin` again' },
      },
    };
  }
  const named = await writeSetupState(checkout.commonDir, { ...record, draft_commit: applied.commit }).then(
    () => true,
    () => false,
  );
  steps.push({
    kind: 'setup-step',
    label: 'name the draft’s commit in the setup record',
    disposition: 'run',
    note: statePath,
    outcome: named ? 'ok' : 'failed',
    duration_s: 0,
  });
  const hint = book.pages.length > 1 ? HINTS.next_page : HINTS.last_page;
  return { steps, data: { ...data, commit: applied.commit }, hints: [...untrackedHint(facts.untracked), hint] };
}

function alreadySetUp(branch: string): SetupBeginOutcome {
  return {
    refusal: {
      error: 'precondition_failed',
      message: `This repository is already set up: \`${branch}\` has a committed discern.toml and no setup is in progress. \`discern doctor\` checks it; \`discern config\` changes it.`,
      next: { rerun: 'discern doctor' },
    },
  };
}

async function hasConfig(run: SetupPlace['run'], ref: string): Promise<boolean> {
  return (await git(['cat-file', '-e', `${ref}:discern.toml`], run)).code === 0;
}

function planSteps(target: string, trunk: string, commonDir: string): DiscernPlanStep[] {
  return [
    { kind: 'setup-step', label: 'probe every path setup writes', disposition: 'gate' },
    { kind: 'setup-step', label: 'record the setup as begun', disposition: 'run', note: setupStatePath(commonDir) },
    {
      kind: 'git',
      label: `create ${SETUP_BRANCH} from HEAD and check it out`,
      disposition: 'run',
      note: `${trunk} does not move`,
    },
    { kind: 'setup-step', label: 'write discern.toml', disposition: 'run', note: target },
    {
      kind: 'git',
      label: `commit discern.toml on ${SETUP_BRANCH}`,
      disposition: 'run',
      note: 'hooks off; discern’s identity only where git has none',
    },
  ];
}

type Applied = { ok: true; commit: string } | { ok: false; message: string };

/** Branch, file, commit, each reported in `steps`; undone on a failure, so a failed begin leaves the checkout as it found it. */
async function apply(
  place: SetupPlace,
  plan: { trunk: string; draft: string; target: string },
  steps: DiscernStep[],
): Promise<Applied> {
  const { run } = place;
  const step = (kind: DiscernStep['kind'], label: string, ok: boolean, note?: string): void => {
    steps.push({
      kind,
      label,
      disposition: 'run',
      outcome: ok ? 'ok' : 'failed',
      duration_s: 0,
      ...(note ? { note } : {}),
    });
  };
  const branched = await gitWithoutHooks(['switch', '-q', '-c', SETUP_BRANCH], run);
  step('git', `create ${SETUP_BRANCH} from HEAD and check it out`, branched.code === 0);
  if (branched.code !== 0) return { ok: false, message: gitComplaint(branched) };
  const undo = async (message: string): Promise<Applied> => {
    await rm(plan.target, { force: true }).catch(() => undefined);
    await gitWithoutHooks(['checkout', '-q', '-f', plan.trunk], run);
    await git(['branch', '-D', SETUP_BRANCH], run);
    return { ok: false, message };
  };
  try {
    await writeFileAtomic(plan.target, plan.draft);
    step('setup-step', 'write discern.toml', true, plan.target);
  } catch (error) {
    step('setup-step', 'write discern.toml', false, plan.target);
    return undo(`discern.toml could not be written (${(error as Error).message})`);
  }
  const identity = await identityOptions(run);
  const added = await git(['add', '--', 'discern.toml'], run);
  const committed =
    added.code === 0
      ? await gitWithoutHooks(
          ['commit', '-q', '--no-verify', '-m', 'Draft discern.toml (discern setup begin)', '--', 'discern.toml'],
          run,
          identity,
        )
      : added;
  step(
    'git',
    `commit discern.toml on ${SETUP_BRANCH}`,
    committed.code === 0,
    identity.length > 0 ? 'as discern: git has no identity here' : undefined,
  );
  if (committed.code !== 0) return undo(gitComplaint(committed));
  const commit = (await git(['rev-parse', 'HEAD'], run)).stdout.trim();
  return { ok: true, commit };
}

/** The untracked files the draft read, which a fresh clone will not have until they are committed. */
function untrackedHint(files: readonly string[] | undefined): string[] {
  if (files === undefined || files.length === 0) return [];
  const shown = files.slice(0, 5).join(', ') + (files.length > 5 ? `, and ${files.length - 5} more` : '');
  return [HINTS.untracked.replace('{files}', shown)];
}
