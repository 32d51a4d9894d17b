// start: a new effort — its own branch and linked worktree, set up and ready. The facts (existing branches and
// worktrees, the starting commit, env files) are read, a pure plan decides the name and every step, dry_run
// returns that plan, and the executor carries it out. Planning and creating the worktree happen under the
// repository's start lock, so two starts never claim the same name; the setup commands run outside it.
import { existsSync } from 'node:fs';
import { access, constants, lstat, stat } from 'node:fs/promises';
import { basename, dirname, join, relative } from 'node:path';
import { DEFAULT_ENV_FILES, presentEnvFiles } from '../engine/efforts/env-files.js';
import type { StartOutcome } from '../../generated/handlers.js';
import { VERBS } from '../../generated/registry.js';
import type { DiscernLandingAuthority, DiscernStartData, DiscernStartInput } from '../../generated/types.js';
import { planStart, startPlanSteps, worktreeRoot, type StartPlan } from '../engine/efforts/start-plan.js';
import { createWorktree, setUpWorktree, type StartRun } from '../engine/efforts/start-apply.js';
import { taskRecordPath } from '../engine/efforts/task-record.js';
import { allocatePort, heldPorts, PORT_RANGE } from '../engine/efforts/ports.js';
import { copyPatternsAt } from '../engine/efforts/warm/warm-worktree.js';
import { withRepositoryLock } from '../engine/state/repository-lock.js';
import { branchTip } from '../engine/await/branch-tip.js';
import { git } from '../engine/git/git.js';
import { branchesUnder, registeredWorktreePaths } from '../engine/git/ref-store.js';
import { listWorktrees } from '../engine/git/worktree-list.js';
import type { ProjectVerbContext } from './context.js';
import { liveListener } from './gate-session.js';
import { killAt } from '../engine/faults.js';
import { projectSecrets } from '../engine/jobs/project-secrets.js';

export async function start(input: DiscernStartInput, ctx: ProjectVerbContext): Promise<StartOutcome> {
  const { project } = ctx;
  const run = { cwd: project.root, env: ctx.env };
  const help = ctx.surface === 'mcp' ? 'the inputSchema of discern_start in tools/list' : '`discern help start`';
  const retry = ctx.surface === 'mcp' ? 'call discern_start again' : 'run `discern start` again';
  const rerun = ctx.surface === 'mcp' ? 'discern_start' : 'discern start';

  // The main checkout: this one, or (from a linked worktree) the first one git lists.
  const mainRoot =
    project.location === 'main'
      ? project.root
      : ((await listWorktrees(project.root, ctx.env, ctx.signal))[0]?.path ?? project.root);
  const rooted = worktreeRoot(project.config, mainRoot);
  if (!rooted.ok)
    return {
      refusal: {
        error: 'invalid_config',
        message: rooted.message,
        next: { file: 'discern.toml', where: 'key `worktree.root`' },
      },
    };
  const blocked = await notAFolder(rooted.root);
  if (blocked !== undefined)
    return {
      refusal: {
        error: 'invalid_config',
        message: `[worktree] root ${rooted.root} cannot hold efforts' worktrees: ${blocked} is not a folder (a file, or a link to nothing). Point \`worktree.root\` at a folder (or a path that does not exist yet), or move that file.`,
        next: { file: 'discern.toml', where: 'key `worktree.root`' },
      },
    };
  if (rooted.inside) {
    const probe = join(relative(mainRoot, rooted.root), '.discern-probe');
    const ignored = await git(['check-ignore', '-q', '--no-index', '--', probe], { cwd: mainRoot, env: ctx.env });
    if (ignored.code !== 0) {
      return {
        refusal: {
          error: 'precondition_failed',
          message: `[worktree] root ${rooted.root} is inside the checkout and git does not ignore it: every worktree's files would show as untracked. Add \`${relative(mainRoot, rooted.root)}/\` to .gitignore and commit it.`,
          next: { rerun: rerun },
        },
      };
    }
  }

  const fromRef = input.from ?? project.trunk.name;
  const commit =
    input.from === undefined
      ? await branchTip(project.commonDir, project.trunk.name, run)
      : await resolveCommit(input.from, run);
  if (commit === undefined) {
    return {
      refusal: {
        error: 'invalid_value',
        message: `from "${fromRef}" names no commit here: give a branch, tag or commit id (\`git log --oneline\` lists commits).`,
        next: { help },
      },
    };
  }
  const from = { ref: fromRef, commit };

  const denied = await unwritable(rooted.root);
  if (denied !== undefined)
    return {
      refusal: {
        error: 'write_denied',
        message: `Efforts' worktrees go in ${rooted.root}, and ${denied} is not writable.`,
        next: { target: denied, access: 'writable' },
      },
    };

  const envFiles = await presentEnvFiles(
    project.config.worktree?.env_files ?? DEFAULT_ENV_FILES,
    mainRoot,
    from.commit,
    ctx.env,
  );
  const outputDir = join(project.gitDir, 'discern', 'output');
  const copy = await copyPatternsAt(project.config, from.commit, mainRoot, ctx.env);

  const claimed = await withRepositoryLock(project.commonDir, 'start', 60_000, async () => {
    const branches = await branchesUnder(project.commonDir, project.config.repository?.branch_prefix ?? 'agent/', run);
    // A name discern still keeps records for (a queued submission, a grant, an unfinished landing, a parked
    // task) is taken too: a new effort must never inherit another's authority or transaction.
    const recorded = (path: string): boolean =>
      existsSync(path) ||
      ['submissions', 'grants', 'acceptance', 'parked'].some((dir) =>
        existsSync(join(project.commonDir, 'discern', dir, `${basename(path)}.json`)),
      );
    // [worktree] port: chosen under the lock, and recorded before it is released (createWorktree).
    let port: number | undefined;
    if (project.config.worktree?.port === true) {
      port = await allocatePort(await heldPorts(project.commonDir));
      if (port === undefined) return { ok: false as const, problem: 'port' as const };
    }
    const planning = planStart(
      input,
      {
        config: project.config,
        mainRoot,
        from,
        trunk: project.trunk.name,
        branches,
        worktreePaths: registeredWorktreePaths(project.commonDir),
        exists: recorded,
        envFiles,
        copy,
        ...(port !== undefined ? { port } : {}),
      },
      rooted.root,
    );
    if (!planning.ok) return planning;
    if (input.dry_run === true) return { ok: true as const, plan: planning.plan };
    killAt(ctx.env, 'start:locked');
    const created = await createWorktree({
      plan: planning.plan,
      config: project.config,
      commonDir: project.commonDir,
      mainRoot,
      env: ctx.env,
      signal: ctx.signal,
      outputDir,
      secrets: projectSecrets(project, mainRoot),
    });
    if (created.ok) killAt(ctx.env, 'start:worktree-added');
    return { ok: true as const, plan: planning.plan, created };
  });
  if (claimed === 'busy') {
    return {
      refusal: {
        error: 'precondition_failed',
        message: "Another start has held the repository's start lock for over a minute; it may be stuck.",
        next: { rerun: rerun },
      },
    };
  }
  if (!claimed.ok && claimed.problem === 'port')
    return {
      refusal: {
        error: 'precondition_failed',
        message: `[worktree] port is on and every port from ${PORT_RANGE.first} to ${PORT_RANGE.last} is held by another worktree of this repository or in use: tear down finished efforts (\`discern worktree teardown <id>\`) or stop what listens there.`,
        next: { rerun },
      },
    };
  if (!claimed.ok) return { refusal: { error: 'invalid_value', message: claimed.message, next: { help } } };
  const { plan } = claimed;
  const behind = input.from === undefined ? 0 : await behindTrunk(from.commit, project.trunk.name, run);
  const authority = prospectiveAuthority(project.config);

  if (input.dry_run === true || claimed.created === undefined) {
    return {
      dry_run: true,
      plan: {
        title: `start would create ${plan.branch} at ${plan.path}`,
        details: planDetails(plan),
        steps: startPlanSteps(plan),
      },
      data: startData(plan, behind, authority, join(plan.path, '.git', 'discern', 'task-metadata.json'), []),
    };
  }
  if (!claimed.created.ok) {
    return {
      steps: claimed.created.steps,
      refusal: {
        error: 'checkout_failed',
        message: `${claimed.created.message}${claimed.created.undone ? ' Nothing was left behind.' : ` Some of it could not be removed: see the steps (${plan.path}, branch ${plan.branch}).`}`,
        next: {},
      },
    };
  }
  const startRun: StartRun = {
    plan,
    config: project.config,
    commonDir: project.commonDir,
    mainRoot,
    env: ctx.env,
    signal: ctx.signal,
    outputDir,
    secrets: projectSecrets(ctx.project, mainRoot),
  };
  const live = liveListener(ctx.progress);
  if (live) startRun.listener = live;
  const applied = await setUpWorktree(startRun, claimed.created.steps);
  if (!applied.ok) {
    const undone = applied.undone
      ? 'Everything it created was undone: the worktree and branch are gone.'
      : `Undoing was incomplete (see the steps): remove ${plan.path} and branch ${plan.branch} by hand (\`git worktree remove --force ${plan.path}\`, \`git branch -D ${plan.branch}\`).`;
    return {
      steps: applied.steps,
      ...(applied.diagnostics.length > 0 ? { diagnostics: applied.diagnostics } : {}),
      refusal: {
        error: 'apply_failed',
        message: `start stopped: ${applied.message}. ${undone}`,
        next: { recovery: `fix what the first diagnostic or failed step names, then ${retry}` },
      },
    };
  }
  const hint = (ctx.surface === 'mcp' ? VERBS.start.hints.started_mcp : VERBS.start.hints.started).replace(
    '{path}',
    plan.path,
  );
  return {
    steps: applied.steps,
    ...(applied.advisories.length > 0
      ? { advisories: applied.advisories as NonNullable<StartOutcome['advisories']> }
      : {}),
    data: {
      ...startData(plan, behind, authority, taskRecordPath(applied.worktreeGitDir), applied.resources),
      ...(applied.copies.length > 0 ? { copies: applied.copies } : {}),
    },
    hints: [...(plan.nameNote ? [plan.nameNote] : []), hint],
  };
}

function startData(
  plan: StartPlan,
  behind: number | undefined,
  authority: DiscernLandingAuthority,
  recordPath: string,
  resources: string[],
): DiscernStartData {
  return {
    id: plan.id,
    branch: plan.branch,
    path: plan.path,
    from: plan.from,
    ...(behind !== undefined ? { behind_trunk: behind } : {}),
    task: { ...plan.task, record_path: recordPath },
    ...(plan.nameNote ? { name_note: plan.nameNote } : {}),
    ...(plan.port !== undefined ? { port: plan.port } : {}),
    ...(resources.length > 0 ? { resources } : {}),
    landing_authority: authority,
  };
}

function planDetails(plan: StartPlan): string[] {
  return [
    `effort ${plan.id} on branch ${plan.branch}`,
    `worktree ${plan.path}`,
    `from ${plan.from.ref} (${plan.from.commit.slice(0, 12)})`,
    ...(plan.nameNote ? [plan.nameNote] : []),
  ];
}

/**
 * Before any change is made nothing can be authorized; what the owner granted in advance is the boundary a
 * change must stay inside to land without asking.
 */
function prospectiveAuthority(config: ProjectVerbContext['project']['config']): DiscernLandingAuthority {
  const granted = config.acceptance?.pre_authorized ?? [];
  const defined = new Set(Object.keys(config.scopes ?? {}));
  const known = granted.filter((s) => defined.has(s));
  const unknown = granted.filter((s) => !defined.has(s));
  return {
    kind: 'conversation-required',
    ...(known.length > 0 ? { source: '[acceptance] pre_authorized', standing_scopes: known } : {}),
    ...(unknown.length > 0
      ? {
          warnings: unknown.map(
            (s) => `[acceptance] pre_authorized names "${s}", which no [scopes.${s}] table defines: it grants nothing.`,
          ),
        }
      : {}),
  };
}

async function behindTrunk(
  commit: string,
  trunk: string,
  run: { cwd: string; env: Readonly<Record<string, string | undefined>> },
): Promise<number | undefined> {
  const counted = await git(['rev-list', '--count', `${commit}..refs/heads/${trunk}`], run);
  return counted.code === 0 ? Number(counted.stdout.trim()) : undefined;
}

async function resolveCommit(
  spec: string,
  run: { cwd: string; env: Readonly<Record<string, string | undefined>> },
): Promise<string | undefined> {
  const resolved = await git(['rev-parse', '--verify', '--quiet', '--end-of-options', `${spec}^{commit}`], run);
  return resolved.code === 0 ? resolved.stdout.trim() : undefined;
}

/** The first path on the way to `dir` that exists and cannot be written, or undefined when it can be created. */
/** The first existing path on the way to `dir` (itself included) that is not a folder, if any. */
async function notAFolder(dir: string): Promise<string | undefined> {
  for (let at = dir; ;) {
    const info = await lstat(at).catch(() => undefined);
    if (info !== undefined) {
      // A link is followed: a link to a folder is a folder.
      const target = info.isSymbolicLink() ? await stat(at).catch(() => undefined) : info;
      return target?.isDirectory() === true ? undefined : at;
    }
    const up = dirname(at);
    if (up === at) return undefined;
    at = up;
  }
}

async function unwritable(dir: string): Promise<string | undefined> {
  let at = dir;
  while (!existsSync(at)) {
    const up = dirname(at);
    if (up === at) return at;
    at = up;
  }
  return access(at, constants.W_OK).then(
    () => undefined,
    () => at,
  );
}
