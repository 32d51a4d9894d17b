// The CLI-only worktree commands and `enter`: people manage efforts' worktrees with them; they are never MCP
// tools, because an agent must not remove the worktree it stands in. Destructive ones (teardown, drop, park)
// refuse a worktree with uncommitted changes, and teardown and drop refuse a branch with commits the trunk does
// not contain, naming them, unless --force; even forced, only drop deletes such a branch, and it reports the
// tip to restore it from.
import { recordedCopies, warmWorktree } from '../engine/efforts/warm/warm-worktree.js';
import { makeSparesInBackground } from '../engine/efforts/warm/spare-background.js';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type {
  EnterOutcome,
  WorktreeDropOutcome,
  WorktreeEnsureOutcome,
  WorktreeParkOutcome,
  WorktreePruneOutcome,
  WorktreeRenameOutcome,
  WorktreeSetupOutcome,
  WorktreeTeardownOutcome,
} from '../../generated/handlers.js';
import type {
  DiscernEnterInput,
  DiscernStep,
  DiscernWorktreeDropInput,
  DiscernWorktreeEnsureInput,
  DiscernWorktreeParkInput,
  DiscernWorktreePruneInput,
  DiscernWorktreeRenameInput,
  DiscernWorktreeSetupInput,
  DiscernWorktreeTeardownInput,
} from '../../generated/types.js';
import { deleteBranchIfLanded, destroyResources, removeWorktree } from '../engine/acceptance/cleanup.js';
import { listEfforts, selectEffort, type Effort } from '../engine/acceptance/efforts.js';
import { acceptancePaths, grants, submissions } from '../engine/acceptance/records.js';
import { commandList } from '../engine/config/commands.js';
import { DEFAULT_GATE_TIMEOUT_S } from '../engine/config/gate-settings.js';
import { COMMIT_LOG_FORMAT, parseCommitLog } from '../engine/efforts/incoming.js';
import { nameProblem } from '../engine/efforts/naming.js';
import { parkedRecords } from '../engine/efforts/parked.js';
import { claimPort, effortEnvWrite } from '../engine/efforts/effort-env.js';
import { PORT_RANGE } from '../engine/efforts/ports.js';
import { existingResources, runSetupSteps } from '../engine/efforts/setup-steps.js';
import {
  readTaskRecord,
  recordResources,
  writeTaskRecord,
  type TaskRecord,
  TASK_RECORD_FORMAT,
} from '../engine/efforts/task-record.js';
import { git, gitComplaint } from '../engine/git/git.js';
import { readWorkingState } from '../engine/git/porcelain-status.js';
import { linkedGitDir } from '../engine/git/ref-store.js';
import type { ProjectVerbContext } from './context.js';
import { liveListener } from './gate-session.js';
import type { GateListener } from '../engine/gate/events.js';
import type { Refusal } from '../core/outcome.js';
import { projectSecrets } from '../engine/jobs/project-secrets.js';

type Env = Readonly<Record<string, string | undefined>>;
type Found = { effort: Effort; mainRoot: string } | { refusal: Refusal<'unknown_target' | 'invalid_value'> };

const UNLANDED_SHOWN = 20;

async function locate(ctx: ProjectVerbContext, target: string, command: string): Promise<Found> {
  const { mainRoot, efforts } = await listEfforts(ctx.project.root, ctx.env);
  const match = selectEffort(efforts, target);
  if ('effort' in match) return { effort: match.effort, mainRoot };
  if ('ambiguous' in match)
    return {
      refusal: {
        error: 'invalid_value',
        message: `"${target}" matches ${match.ambiguous.length} efforts (${match.ambiguous.map((e) => e.id).join(', ')}): name one by id.`,
        next: { help: `\`discern help ${command}\`` },
      },
    };
  return {
    refusal: {
      error: 'unknown_target',
      message: `"${target}" names no effort with a worktree here.${efforts.length > 0 ? ` Efforts: ${efforts.map((e) => e.id).join(', ')}.` : ''}`,
      next: { list: 'discern status' },
    },
  };
}

async function unlanded(
  run: { cwd: string; env: Env },
  trunk: string,
  branch: string,
): Promise<{ commits: { sha: string; subject: string }[]; total: number }> {
  const range = `refs/heads/${trunk}..refs/heads/${branch}`;
  const [log, count] = await Promise.all([
    git(['log', '-z', `--max-count=${UNLANDED_SHOWN}`, COMMIT_LOG_FORMAT, range], run),
    git(['rev-list', '--count', range], run),
  ]);
  const commits = parseCommitLog(log.stdout);
  return { commits, total: count.code === 0 ? Number(count.stdout.trim()) : commits.length };
}

function outputDir(ctx: ProjectVerbContext, op: string, id: string): string {
  return join(ctx.project.gitDir, 'discern', 'output', `worktree-${op}-${id}`);
}

/** The refusal for uncommitted changes or unlanded commits, naming them, with the forced command. */
async function guard(
  ctx: ProjectVerbContext,
  effort: Effort,
  mainRoot: string,
  command: string,
  force: boolean,
  checkCommits: boolean,
) {
  // A worktree that is gone holds nothing; one whose state cannot be read is not taken as clean.
  const state = existsSync(effort.path)
    ? await readWorkingState(effort.path, ctx.env).then(
        (read) => read,
        (error: unknown) => ({ unreadable: error instanceof Error ? error.message : String(error) }),
      )
    : undefined;
  const run = { cwd: mainRoot, env: ctx.env };
  const lost = checkCommits ? await unlanded(run, ctx.project.trunk.name, effort.branch) : { commits: [], total: 0 };
  if (force) return { lost };
  const problems: string[] = [];
  if (state !== undefined && 'unreadable' in state)
    problems.push(
      `the state of its worktree could not be read, so uncommitted work there cannot be ruled out (${state.unreadable})`,
    );
  else if (state && state.changed > 0)
    problems.push(
      `its worktree has ${state.changed} uncommitted change${state.changed === 1 ? '' : 's'} (\`git -C ${effort.path} status\`)`,
    );
  if (lost.total > 0)
    problems.push(
      `${effort.branch} has ${lost.total} commit${lost.total === 1 ? '' : 's'} ${ctx.project.trunk.name} does not contain: ${lost.commits
        .slice(0, 5)
        .map((c) => `${c.sha.slice(0, 12)} ${c.subject}`)
        .join('; ')}${lost.total > 5 ? '; …' : ''}`,
    );
  if (problems.length === 0) return { lost };
  return {
    lost,
    refusal: {
      error: 'precondition_failed' as const,
      message: `${command} ${effort.id} would lose work: ${problems.join(', and ')}. Land or keep it, or run it again with --force.`,
      next: { rerun: `discern ${command} ${effort.id} --force` },
    },
  };
}

export async function enter(input: DiscernEnterInput, ctx: ProjectVerbContext): Promise<EnterOutcome> {
  const found = await locate(ctx, input.target, 'enter');
  if ('refusal' in found) return { refusal: found.refusal };
  const { effort } = found;
  return {
    data: { effort: effort.id, branch: effort.branch, path: effort.path },
    hints: [`cd ${JSON.stringify(effort.path)}`],
  };
}

export async function worktreeTeardown(
  input: DiscernWorktreeTeardownInput,
  ctx: ProjectVerbContext,
): Promise<WorktreeTeardownOutcome> {
  const found = await locate(ctx, input.target, 'worktree teardown');
  if ('refusal' in found) return { refusal: found.refusal };
  const { effort, mainRoot } = found;
  const guarded = await guard(ctx, effort, mainRoot, 'worktree teardown', input.force === true, true);
  if (guarded.refusal)
    return {
      data: {
        effort: effort.id,
        branch: effort.branch,
        path: effort.path,
        unlanded_commits: guarded.lost.commits,
        unlanded_total: guarded.lost.total,
      },
      refusal: guarded.refusal,
    };
  const steps: DiscernStep[] = [];
  const resources = await destroyResources(
    effort.record,
    effort.path,
    ctx.env,
    outputDir(ctx, 'teardown', effort.id),
    steps,
    projectSecrets(ctx.project),
  );
  const removed = await removeWorktree(mainRoot, effort.path, ctx.env, steps, input.force === true);
  const branch = removed
    ? await deleteBranchIfLanded(mainRoot, effort.branch, ctx.project.trunk.name, ctx.env, steps)
    : { deleted: false, reason: 'the worktree could not be removed' };
  if (branch.deleted) await forgetRecords(ctx, effort.id);
  const data = {
    effort: effort.id,
    branch: effort.branch,
    path: effort.path,
    worktree_removed: removed,
    branch_deleted: branch.deleted,
    ...(branch.reason ? { branch_kept_reason: branch.reason } : {}),
    ...(resources.destroyed.length > 0 ? { resources_destroyed: resources.destroyed } : {}),
    ...(guarded.lost.total > 0 ? { unlanded_commits: guarded.lost.commits, unlanded_total: guarded.lost.total } : {}),
  };
  if (!removed)
    return {
      steps,
      data,
      refusal: {
        error: 'apply_failed',
        message: `The worktree ${effort.path} could not be removed; see the steps.`,
        next: { recovery: `remove it by hand (\`git worktree remove --force ${effort.path}\`)` },
      },
    };
  if (resources.failed.length > 0) return { steps, data, refusal: resourcesLeft(effort, resources.failed) };
  return {
    steps,
    data,
    hints: branch.deleted
      ? [`${effort.id} is gone; its work is on ${ctx.project.trunk.name}.`]
      : [
          `The branch ${effort.branch} stays: ${branch.reason ?? 'it holds unlanded commits'}. \`discern worktree setup ${effort.branch}\` brings a worktree back.`,
        ],
  };
}

export async function worktreeDrop(
  input: DiscernWorktreeDropInput,
  ctx: ProjectVerbContext,
): Promise<WorktreeDropOutcome> {
  const found = await locate(ctx, input.target, 'worktree drop');
  if ('refusal' in found) return { refusal: found.refusal };
  const { effort, mainRoot } = found;
  const guarded = await guard(ctx, effort, mainRoot, 'worktree drop', input.force === true, true);
  if (guarded.refusal)
    return {
      data: {
        effort: effort.id,
        branch: effort.branch,
        path: effort.path,
        unlanded_commits: guarded.lost.commits,
        unlanded_total: guarded.lost.total,
      },
      refusal: guarded.refusal,
    };
  const run = { cwd: mainRoot, env: ctx.env };
  const tip = (await git(['rev-parse', '--verify', '--quiet', `refs/heads/${effort.branch}`], run)).stdout.trim();
  const steps: DiscernStep[] = [];
  const resources = await destroyResources(
    effort.record,
    effort.path,
    ctx.env,
    outputDir(ctx, 'drop', effort.id),
    steps,
    projectSecrets(ctx.project),
  );
  const removed = await removeWorktree(mainRoot, effort.path, ctx.env, steps, input.force === true);
  // Compare-and-swap on the tip reported: a commit added meanwhile keeps the branch.
  const deleted =
    removed && tip !== ''
      ? (await git(['update-ref', '-d', `refs/heads/${effort.branch}`, tip], run)).code === 0
      : false;
  steps.push({
    kind: 'git',
    label: `delete branch ${effort.branch}`,
    disposition: 'run',
    note: tip.slice(0, 12),
    outcome: deleted ? 'ok' : 'failed',
    duration_s: 0,
  });
  if (deleted) await forgetRecords(ctx, effort.id);
  const data = {
    effort: effort.id,
    branch: effort.branch,
    path: effort.path,
    worktree_removed: removed,
    branch_deleted: deleted,
    ...(resources.destroyed.length > 0 ? { resources_destroyed: resources.destroyed } : {}),
    ...(guarded.lost.total > 0 ? { unlanded_commits: guarded.lost.commits, unlanded_total: guarded.lost.total } : {}),
    ...(tip ? { dropped_tip: tip } : {}),
  };
  if (!removed || !deleted)
    return {
      steps,
      data,
      refusal: {
        error: 'apply_failed',
        message: `${effort.id} was only partly dropped; see the steps.`,
        next: {
          recovery: `finish by hand (\`git worktree remove --force ${effort.path}\`, \`git branch -D ${effort.branch}\`)`,
        },
      },
    };
  if (resources.failed.length > 0) return { steps, data, refusal: resourcesLeft(effort, resources.failed) };
  return {
    steps,
    data,
    hints:
      guarded.lost.total > 0
        ? [
            `Dropped ${guarded.lost.total} unlanded commit${guarded.lost.total === 1 ? '' : 's'}; \`git branch ${effort.branch} ${tip}\` restores them while git keeps the objects.`,
          ]
        : [`${effort.id} is gone.`],
  };
}

export async function worktreePark(
  input: DiscernWorktreeParkInput,
  ctx: ProjectVerbContext,
): Promise<WorktreeParkOutcome> {
  const found = await locate(ctx, input.target, 'worktree park');
  if ('refusal' in found) return { refusal: found.refusal };
  const { effort, mainRoot } = found;
  const guarded = await guard(ctx, effort, mainRoot, 'worktree park', input.force === true, false);
  if (guarded.refusal)
    return { data: { effort: effort.id, branch: effort.branch, path: effort.path }, refusal: guarded.refusal };
  const record: TaskRecord = effort.record ?? {
    format: TASK_RECORD_FORMAT,
    id: effort.id,
    branch: effort.branch,
    path: effort.path,
    from: { ref: ctx.project.trunk.name, commit: '' },
    trunk: ctx.project.trunk.name,
    created_at: new Date().toISOString(),
    resources: [],
  };
  // The task is kept under the common dir: the worktree's git dir goes with the worktree.
  // Its port is released with the worktree, as its resources are: `worktree setup` claims one again.
  const { port: _released, ...kept } = record;
  await parkedRecords(ctx.project.commonDir).write({ ...kept, resources: [] });
  const steps: DiscernStep[] = [];
  const resources = await destroyResources(
    effort.record,
    effort.path,
    ctx.env,
    outputDir(ctx, 'park', effort.id),
    steps,
    projectSecrets(ctx.project),
  );
  const removed = await removeWorktree(mainRoot, effort.path, ctx.env, steps, input.force === true);
  const data = {
    effort: effort.id,
    branch: effort.branch,
    path: effort.path,
    worktree_removed: removed,
    ...(resources.destroyed.length > 0 ? { resources_destroyed: resources.destroyed } : {}),
  };
  if (!removed)
    return {
      steps,
      data,
      refusal: {
        error: 'apply_failed',
        message: `The worktree ${effort.path} could not be removed; see the steps.`,
        next: { recovery: `remove it by hand (\`git worktree remove --force ${effort.path}\`)` },
      },
    };
  if (resources.failed.length > 0) return { steps, data, refusal: resourcesLeft(effort, resources.failed) };
  return {
    steps,
    data,
    hints: [
      `Parked: ${effort.branch} and its task stay. \`discern worktree setup ${effort.id}\` brings the worktree back.`,
    ],
  };
}

export async function worktreeSetup(
  input: DiscernWorktreeSetupInput,
  ctx: ProjectVerbContext,
): Promise<WorktreeSetupOutcome> {
  const { project } = ctx;
  const parked = parkedRecords(project.commonDir);
  const found = await locate(ctx, input.target, 'worktree setup');
  let effort: Effort;
  let mainRoot: string;
  // A parked effort's worktree is made again here: its [worktree.setup] steps run, as at start.
  let recreated = false;
  const steps: DiscernStep[] = [];
  if ('refusal' in found) {
    const record =
      (await parked.read(input.target)) ??
      (await parked.all()).find((r) => r.branch === input.target || `refs/heads/${r.branch}` === input.target);
    if (record === undefined) return { refusal: found.refusal };
    mainRoot = (await listEfforts(project.root, ctx.env)).mainRoot;
    if (existsSync(record.path))
      return {
        refusal: {
          error: 'precondition_failed',
          message: `${record.path} exists already: move it away, then set ${record.id} up again.`,
          next: { rerun: `discern worktree setup ${record.id}` },
        },
      };
    const added = await git(['worktree', 'add', '-q', record.path, record.branch], { cwd: mainRoot, env: ctx.env });
    steps.push({
      kind: 'git',
      label: `recreate the worktree of ${record.branch}`,
      disposition: 'run',
      note: record.path,
      outcome: added.code === 0 ? 'ok' : 'failed',
      duration_s: 0,
    });
    if (added.code !== 0)
      return {
        steps,
        refusal: {
          error: 'apply_failed',
          message: `git could not recreate the worktree: ${gitComplaint(added)}.`,
          next: { recovery: 'fix what git names, then set it up again' },
        },
      };
    const gitDir = linkedGitDir(record.path) ?? '';
    await writeTaskRecord(gitDir, record);
    recreated = true;
    await parked.remove(record.id);
    effort = { id: record.id, branch: record.branch, path: record.path, gitDir, record };
  } else {
    effort = found.effort;
    mainRoot = found.mainRoot;
  }
  let record = (await readTaskRecord(effort.gitDir)) ?? {
    format: TASK_RECORD_FORMAT,
    id: effort.id,
    branch: effort.branch,
    path: effort.path,
    from: { ref: project.trunk.name, commit: '' },
    trunk: project.trunk.name,
    created_at: new Date().toISOString(),
    resources: [],
  };
  if (project.config.worktree?.port === true) {
    const claimed = await claimPort(project.commonDir, effort.gitDir, record);
    if (!claimed.ok)
      return {
        steps,
        refusal: {
          error: 'precondition_failed',
          message:
            claimed.reason === 'busy'
              ? "Another start has held the repository's start lock for over a minute; it may be stuck."
              : `[worktree] port is on and every port from ${PORT_RANGE.first} to ${PORT_RANGE.last} is held by another worktree of this repository or in use: tear down finished efforts or stop what listens there.`,
          next: { rerun: `discern worktree setup ${effort.id}` },
        },
      };
    record = claimed.record;
  }
  const have = new Set(record.resources.map((r) => r.name));
  const gateTimeout = project.config.gate?.timeout ?? DEFAULT_GATE_TIMEOUT_S;
  const missing = Object.entries(project.config.worktree?.resources ?? {}).flatMap(([name, r]) =>
    r === undefined || have.has(name) || commandList(r.create).length === 0
      ? []
      : [
          {
            name,
            create: r.create,
            ...(r.destroy !== undefined ? { destroy: r.destroy } : {}),
            ...(r.ensure !== undefined && commandList(r.ensure).length > 0 ? { ensure: r.ensure } : {}),
            required: r.required ?? true,
            retries: r.retries ?? 0,
            timeoutS: r.timeout ?? gateTimeout,
          },
        ],
  );
  const envFiles = (project.config.worktree?.env_files ?? ['.env', '.env.local']).filter(
    (f) => existsSync(join(mainRoot, f)) && !existsSync(join(effort.path, f)),
  );
  // A worktree brought back (or set up again after a start was cut short) takes the main checkout's installed
  // dependencies as start does; a directory it already has is left alone.
  const ensure = commandList(project.config.repository?.ensure);
  const listening = listenerOf(ctx);
  const warm = await warmWorktree({
    commonDir: project.commonDir,
    config: project.config,
    mainRoot,
    target: effort.path,
    gitDir: effort.gitDir,
    ensure,
    env: ctx.env,
    signal: ctx.signal,
    ...listening,
    deferSpares: true,
  });
  steps.push(...warm.steps);
  const copied = recordedCopies(warm.copies);
  if (copied.length > 0) {
    record.copies = [...(record.copies ?? []).filter((c) => !copied.some((n) => n.path === c.path)), ...copied];
    await writeTaskRecord(effort.gitDir, record);
  }
  const setup = await runSetupSteps({
    id: effort.id,
    branch: effort.branch,
    path: effort.path,
    mainRoot,
    env: ctx.env,
    signal: ctx.signal,
    outputDir: outputDir(ctx, 'setup', effort.id),
    envFiles,
    envWrite: effortEnvWrite(project.config, record),
    ensure,
    ...(recreated ? { setupSteps: commandList(project.config.worktree?.setup?.steps) } : {}),
    setupEnsure: commandList(project.config.worktree?.setup?.ensure),
    ensureTimeoutS: gateTimeout,
    resources: missing,
    existing: existingResources(project.config, record.resources, gateTimeout),
    secrets: projectSecrets(project, mainRoot),
    ...listening,
  });
  steps.push(...setup.steps);
  if (warm.spareOrder && !ctx.signal.aborted) makeSparesInBackground(warm.spareOrder, ctx.env);
  // What was made is recorded whatever happened next, so teardown destroys it.
  const made = recordResources(setup.made, effort);
  if (made.length > 0) await writeTaskRecord(effort.gitDir, { ...record, resources: [...record.resources, ...made] });
  const data = {
    effort: effort.id,
    branch: effort.branch,
    path: effort.path,
    ...(made.length > 0 ? { resources_created: made.map((r) => r.name) } : {}),
    ...(warm.copies.length > 0 ? { copies: warm.copies } : {}),
  };
  if (!setup.ok)
    return {
      steps,
      data,
      ...(setup.diagnostics.length > 0 ? { diagnostics: setup.diagnostics } : {}),
      refusal: {
        error: 'apply_failed',
        message: `Setting up ${effort.id} stopped: ${setup.message}. What was made stays recorded; the worktree is kept.`,
        next: { recovery: `fix it, then run \`discern worktree setup ${effort.id}\` again` },
      },
    };
  return {
    steps,
    data,
    ...(setup.advisories.length > 0
      ? { advisories: setup.advisories as NonNullable<WorktreeSetupOutcome['advisories']> }
      : {}),
    hints: [`Set up: work in ${effort.path}.`],
  };
}

export async function worktreeEnsure(
  input: DiscernWorktreeEnsureInput,
  ctx: ProjectVerbContext,
): Promise<WorktreeEnsureOutcome> {
  const found = await locate(ctx, input.target, 'worktree ensure');
  if ('refusal' in found) return { refusal: found.refusal };
  const { effort, mainRoot } = found;
  const { config } = ctx.project;
  const timeoutS = config.gate?.timeout ?? DEFAULT_GATE_TIMEOUT_S;
  const record = await readTaskRecord(effort.gitDir);
  const setup = await runSetupSteps({
    id: effort.id,
    branch: effort.branch,
    path: effort.path,
    mainRoot,
    env: ctx.env,
    signal: ctx.signal,
    outputDir: outputDir(ctx, 'ensure', effort.id),
    envFiles: [],
    envWrite: effortEnvWrite(config, record),
    ...listenerOf(ctx),
    ensure: commandList(config.repository?.ensure),
    setupEnsure: commandList(config.worktree?.setup?.ensure),
    ensureTimeoutS: timeoutS,
    resources: [],
    existing: existingResources(config, record?.resources ?? [], timeoutS),
    secrets: projectSecrets(ctx.project, mainRoot),
  });
  const data = { effort: effort.id, branch: effort.branch, path: effort.path };
  if (!setup.ok)
    return {
      steps: setup.steps,
      data,
      ...(setup.diagnostics.length > 0 ? { diagnostics: setup.diagnostics } : {}),
      refusal: {
        error: 'apply_failed',
        message: `ensure stopped: ${setup.message}.`,
        next: { recovery: `fix it, then run \`discern worktree ensure ${effort.id}\` again` },
      },
    };
  return {
    steps: setup.steps,
    data,
    hints:
      setup.steps.length === 0
        ? ['[repository] ensure, [worktree.setup] ensure and the resources’ ensure are empty: nothing to run.']
        : [`${effort.id} is ensured.`],
  };
}

export async function worktreeRename(
  input: DiscernWorktreeRenameInput,
  ctx: ProjectVerbContext,
): Promise<WorktreeRenameOutcome> {
  const found = await locate(ctx, input.target, 'worktree rename');
  if ('refusal' in found) return { refusal: found.refusal };
  const { effort, mainRoot } = found;
  const prefix = ctx.project.config.repository?.branch_prefix ?? 'agent/';
  const problem = nameProblem(input.name, prefix);
  if (problem !== undefined)
    return {
      refusal: {
        error: 'invalid_value',
        message: `"${input.name}" cannot name an effort: ${problem}.`,
        next: { help: '`discern help worktree rename`' },
      },
    };
  const branch = `${prefix}${input.name}`;
  const path = join(effort.path, '..', input.name);
  const run = { cwd: mainRoot, env: ctx.env };
  if ((await git(['rev-parse', '--verify', '--quiet', `refs/heads/${branch}`], run)).code === 0 || existsSync(path)) {
    return {
      refusal: {
        error: 'invalid_value',
        message: `"${input.name}" is taken (branch ${branch} or ${path} exists).`,
        next: { help: '`discern help worktree rename`' },
      },
    };
  }
  const steps: DiscernStep[] = [];
  const renamed = await git(['branch', '-m', effort.branch, branch], run);
  steps.push({
    kind: 'git',
    label: `rename ${effort.branch} to ${branch}`,
    disposition: 'run',
    outcome: renamed.code === 0 ? 'ok' : 'failed',
    duration_s: 0,
  });
  if (renamed.code !== 0)
    return {
      steps,
      refusal: {
        error: 'apply_failed',
        message: `git could not rename the branch: ${gitComplaint(renamed)}. Nothing changed.`,
        next: { recovery: 'fix what git names, then rename again' },
      },
    };
  const moved = await git(['worktree', 'move', effort.path, path], run);
  steps.push({
    kind: 'git',
    label: 'move the worktree',
    disposition: 'run',
    note: path,
    outcome: moved.code === 0 ? 'ok' : 'failed',
    duration_s: 0,
  });
  if (moved.code !== 0) {
    // Put the branch name back: half a rename is worse than none.
    await git(['branch', '-m', branch, effort.branch], run);
    return {
      steps,
      refusal: {
        error: 'apply_failed',
        message: `git could not move the worktree: ${gitComplaint(moved)}. The branch name was put back.`,
        next: { recovery: 'fix what git names, then rename again' },
      },
    };
  }
  const record = (await readTaskRecord(effort.gitDir)) ?? effort.record;
  if (record) await writeTaskRecord(effort.gitDir, { ...record, id: input.name, branch, path });
  steps.push({ kind: 'task-metadata', label: 'record the new name', disposition: 'run', outcome: 'ok', duration_s: 0 });
  await renameRecords(ctx, effort.id, input.name, branch, path);
  return {
    steps,
    data: {
      effort: input.name,
      branch,
      path,
      previous: { effort: effort.id, branch: effort.branch, path: effort.path },
    },
    hints: [`Renamed: work in ${path}.`],
  };
}

export async function worktreePrune(
  input: DiscernWorktreePruneInput,
  ctx: ProjectVerbContext,
): Promise<WorktreePruneOutcome> {
  const { project } = ctx;
  const run = { cwd: project.root, env: ctx.env };
  const dry = input.dry_run === true;
  const listed = await git(['worktree', 'prune', '--dry-run', '--verbose'], run);
  const pruned = [...`${listed.stdout}\n${listed.stderr}`.matchAll(/^Removing worktrees\/([^:]+):/gm)].map(
    (m) => m[1] ?? '',
  );
  const steps: DiscernStep[] = [];
  // A vanished worktree's task record is still in its admin dir until git prunes it: its resources are destroyed
  // first ([worktree.resources] gc), under the names they were created with, or named as kept.
  const collected = await collectResources(project, pruned, dry, ctx, steps);
  if (!dry && pruned.length > 0) {
    const done = await git(['worktree', 'prune'], run);
    steps.push({
      kind: 'git',
      label: 'git worktree prune',
      disposition: 'run',
      outcome: done.code === 0 ? 'ok' : 'failed',
      duration_s: 0,
    });
  }
  const branchExists = async (branch: string): Promise<boolean> =>
    (await git(['rev-parse', '--verify', '--quiet', `refs/heads/${branch}`], run)).code === 0;
  const paths = acceptancePaths(project.commonDir);
  const parked = parkedRecords(project.commonDir);
  const cleared: string[] = [];
  const kinds: { kind: string; records: { id: string; branch: string }[]; remove: (id: string) => Promise<void> }[] = [
    {
      kind: 'submission',
      records: (await submissions.all(paths)).map((r) => ({ id: r.effort, branch: r.branch })),
      remove: (id) => submissions.remove(paths, id),
    },
    {
      kind: 'grant',
      records: (await grants.all(paths)).map((r) => ({ id: r.effort, branch: r.branch })),
      remove: (id) => grants.remove(paths, id),
    },
    {
      kind: 'parked',
      records: (await parked.all()).map((r) => ({ id: r.id, branch: r.branch })),
      remove: (id) => parked.remove(id),
    },
  ];
  for (const { kind, records, remove } of kinds) {
    for (const record of records) {
      if (await branchExists(record.branch)) continue;
      cleared.push(`${kind}/${record.id}`);
      if (!dry) await remove(record.id);
    }
  }
  if (!dry && cleared.length > 0)
    steps.push({
      kind: 'git',
      label: `clear ${cleared.length} record${cleared.length === 1 ? '' : 's'} of efforts whose branch is gone`,
      disposition: 'run',
      outcome: 'ok',
      duration_s: 0,
    });
  const prefix = project.config.repository?.branch_prefix ?? 'agent/';
  const { efforts } = await listEfforts(project.root, ctx.env);
  const held = new Set(efforts.map((e) => e.branch));
  const branches = (await git(['for-each-ref', '--format=%(refname)', `refs/heads/${prefix}`], run)).stdout
    .split('\n')
    .filter(Boolean)
    .map((r) => r.slice('refs/heads/'.length))
    .filter((b) => !held.has(b))
    .sort();
  const data = {
    worktrees_pruned: pruned,
    records_cleared: cleared,
    branches_without_worktree: branches,
    ...(collected.destroyed.length > 0 ? { resources_destroyed: collected.destroyed } : {}),
    ...(collected.kept.length > 0 ? { resources_kept: collected.kept } : {}),
  };
  if (dry)
    return {
      dry_run: true,
      plan: {
        title: `prune would forget ${pruned.length} worktree${pruned.length === 1 ? '' : 's'} and clear ${cleared.length} record${cleared.length === 1 ? '' : 's'}`,
        details: [...pruned, ...cleared, ...collected.destroyed.map((r) => `destroy ${r}`)],
        steps: [],
      },
      data,
    };
  return {
    steps,
    data,
    hints:
      branches.length > 0
        ? [
            `Effort branches without a worktree stay: ${branches.join(', ')} (\`discern worktree setup <branch>\` for a parked one).`,
          ]
        : ['Nothing is left behind.'],
  };
}

async function collectResources(
  project: ProjectVerbContext['project'],
  pruned: readonly string[],
  dry: boolean,
  ctx: ProjectVerbContext,
  steps: DiscernStep[],
): Promise<{ destroyed: string[]; kept: string[] }> {
  const destroyed: string[] = [];
  const kept: string[] = [];
  for (const admin of pruned) {
    const record = await readTaskRecord(join(project.commonDir, 'worktrees', admin));
    if (record === undefined || record.resources.length === 0) continue;
    const collect = record.resources.filter(
      (r) => project.config.worktree?.resources?.[r.name]?.gc !== false && commandList(r.destroy).length > 0,
    );
    for (const r of record.resources) if (!collect.includes(r)) kept.push(`${record.id}/${r.name}`);
    if (dry) {
      destroyed.push(...collect.map((r) => `${record.id}/${r.name}`));
      continue;
    }
    // Its directory is gone: the destroy commands run from the main checkout, with the worktree's names.
    const result = await destroyResources(
      { ...record, resources: collect },
      project.root,
      ctx.env,
      outputDir(ctx, 'prune', record.id),
      steps,
      projectSecrets(project),
    );
    destroyed.push(...result.destroyed.map((name) => `${record.id}/${name}`));
    kept.push(...result.failed.map((name) => `${record.id}/${name}`));
  }
  return { destroyed, kept };
}

/** The worktree went, but resources failed to destroy: said so, with what to do by hand. */
function resourcesLeft(
  effort: Effort,
  failed: readonly string[],
): { error: 'apply_failed'; message: string; next: { recovery: string } } {
  const commands = (effort.record?.resources ?? [])
    .filter((r) => failed.includes(r.name))
    .map((r) => `${r.name}: \`${r.destroy ?? ''}\``);
  return {
    error: 'apply_failed',
    message: `The rest is done, but ${failed.length === 1 ? 'a resource' : `${failed.length} resources`} could not be destroyed (${commands.join('; ')}); their outputs are in the steps.`,
    next: { recovery: 'destroy them by hand; nothing else needs repeating' },
  };
}

/** A removed effort's queue, grant and parked records go with it. */
async function forgetRecords(ctx: ProjectVerbContext, id: string): Promise<void> {
  const paths = acceptancePaths(ctx.project.commonDir);
  await submissions.remove(paths, id);
  await grants.remove(paths, id);
  await parkedRecords(ctx.project.commonDir).remove(id);
}

async function renameRecords(
  ctx: ProjectVerbContext,
  from: string,
  to: string,
  branch: string,
  path: string,
): Promise<void> {
  const paths = acceptancePaths(ctx.project.commonDir);
  const submission = await submissions.read(paths, from);
  if (submission) {
    await submissions.write(paths, { ...submission, effort: to, branch, path });
    await submissions.remove(paths, from);
  }
  const grant = await grants.read(paths, from);
  if (grant) {
    await grants.write(paths, { ...grant, effort: to, branch });
    await grants.remove(paths, from);
  }
}

/** The caller's live view as a setup run's listener, when the caller has one. */
function listenerOf(ctx: ProjectVerbContext): { listener?: GateListener } {
  const live = liveListener(ctx.progress);
  return live ? { listener: live } : {};
}
