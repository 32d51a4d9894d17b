// update: bring the trunk's (or `from`'s) new work into this branch. Everything is read first — what comes in,
// the overlap, and whether the merge conflicts (computed in the object store, never in the tree) — so a conflict
// or a dry run changes nothing. Then a fast-forward or a merge commit, then the [generated] regenerations,
// whose changes are committed. It holds the checkout's operation lock, so no done or prepare races it.
import { randomBytes } from 'node:crypto';
import { basename, join } from 'node:path';
import type { UpdateOutcome } from '../../generated/handlers.js';
import { VERBS } from '../../generated/registry.js';
import type { DiscernStep, DiscernUpdateData, DiscernUpdateInput } from '../../generated/types.js';
import { readIncoming, type Incoming } from '../engine/efforts/incoming.js';
import { regenerate } from '../engine/efforts/regenerate.js';
import { loadConfig } from '../engine/config/load.js';
import { existingResources, runSetupSteps, type SetupResult } from '../engine/efforts/setup-steps.js';
import { readTaskRecord } from '../engine/efforts/task-record.js';
import { effortEnvWrite } from '../engine/efforts/effort-env.js';
import { listWorktrees } from '../engine/git/worktree-list.js';
import { commandList } from '../engine/config/commands.js';
import { DEFAULT_GATE_TIMEOUT_S } from '../engine/config/gate-settings.js';
import { gateConfig } from '../engine/gate/gate-config.js';
import { git, gitComplaint } from '../engine/git/git.js';
import { keepWhatIncomingOverwrites, trunkKeepsIgnoredFiles } from '../engine/git/incoming-overwrites.js';
import { readWorkingState } from '../engine/git/porcelain-status.js';
import { classify } from '../engine/scopes/index.js';
import type { ProjectVerbContext } from './context.js';
import { readBack } from './done-facts.js';
import { liveListener, releaseOperationLock, statePathsOf, takeOperationLock } from './gate-session.js';
import { killAt } from '../engine/faults.js';
import { projectSecrets } from '../engine/jobs/project-secrets.js';

const FILES_SHOWN = 50;
const OVERLAP_SHOWN = 50;

export async function update(input: DiscernUpdateInput, ctx: ProjectVerbContext): Promise<UpdateOutcome> {
  const { project } = ctx;
  const mcp = ctx.surface === 'mcp';
  const rerun = mcp ? 'discern_update' : 'discern update';
  const run = { cwd: project.root, env: ctx.env };

  const gate = gateConfig(project.config);
  if (!gate.ok) {
    const [first] = gate.issues;
    return {
      data: { issues: gate.issues },
      refusal: {
        error: 'invalid_config',
        message: `discern.toml: \`${first.path}\` ${first.message}.`,
        next: { file: 'discern.toml', where: `key \`${first.path}\`` },
      },
    };
  }
  const state = await readWorkingState(project.root, ctx.env, ctx.signal);
  if (state.detached || state.branch === null || state.head === null) {
    return {
      refusal: {
        error: 'detached_head',
        message:
          'HEAD is detached (or has no commit): update merges into a branch, so check out the branch this work belongs to.',
        next: { rerun },
      },
    };
  }
  if (state.changed > 0) {
    return {
      refusal: {
        error: 'dirty_worktree',
        message: `The worktree has ${state.changed} uncommitted change${state.changed === 1 ? '' : 's'}${state.untracked > 0 ? ` (${state.untracked} untracked)` : ''}: a merge must not mix with them. Commit or stash them first.`,
        next: { rerun, standalone: mcp ? 'discern_prepare' : 'discern prepare' },
      },
    };
  }
  const fromRef = input.from ?? project.trunk.name;
  const spec = input.from === undefined ? `refs/heads/${project.trunk.name}` : input.from;
  const resolved = await git(['rev-parse', '--verify', '--quiet', '--end-of-options', `${spec}^{commit}`], run);
  if (resolved.code !== 0) {
    return {
      refusal: {
        error: 'invalid_value',
        message: `from "${fromRef}" names no commit here: give a branch, tag or commit id.`,
        next: { help: mcp ? 'the inputSchema of discern_update in tools/list' : '`discern help update`' },
      },
    };
  }
  const main = resolved.stdout.trim();
  const head = state.head;
  const incoming = await readIncoming(run, head, main);
  if (incoming.base === null) {
    return {
      refusal: {
        error: 'invalid_value',
        message: `${fromRef} shares no history with ${state.branch}: there is nothing to merge it with.`,
        next: { help: mcp ? 'the inputSchema of discern_update in tools/list' : '`discern help update`' },
      },
    };
  }
  const data = updateData(incoming, head, main, gate.gate.scopes);

  if (incoming.behind === 0) return { data, hints: [VERBS.update.hints.current.replace('{from}', fromRef)] };
  if (incoming.conflicts.length > 0) {
    return {
      data: { ...data, conflicts: incoming.conflicts },
      refusal: {
        error: 'conflict',
        message: `Merging ${fromRef} into ${state.branch} conflicts in ${incoming.conflicts.length} path${incoming.conflicts.length === 1 ? '' : 's'} (${incoming.conflicts.slice(0, 5).join(', ')}${incoming.conflicts.length > 5 ? ', …' : ''}); the worktree was not touched. Merge it yourself (\`git merge ${fromRef}\`), resolve and commit, then call update again — or rework the overlapping change.`,
        next: {},
      },
    };
  }
  const fastForward = incoming.ahead === 0;
  if (input.dry_run === true) {
    return {
      dry_run: true,
      plan: {
        title: `update would ${fastForward ? 'fast-forward' : 'merge'} ${state.branch} to include ${fromRef} (${incoming.behind} commit${incoming.behind === 1 ? '' : 's'})`,
        details: [
          `merge-base ${incoming.base.slice(0, 12)}`,
          `${incoming.files.length} incoming file${incoming.files.length === 1 ? '' : 's'}`,
          ...(incoming.overlap.length > 0
            ? [`${incoming.overlap.length} path${incoming.overlap.length === 1 ? '' : 's'} changed on both sides`]
            : []),
        ],
        steps: [
          {
            kind: 'merge-check',
            label: 'the merge is clean (computed without touching the tree)',
            disposition: 'gate',
          },
          {
            kind: 'git',
            label: fastForward
              ? `fast-forward ${state.branch} to ${main.slice(0, 12)}`
              : `merge ${fromRef} into ${state.branch}`,
            disposition: 'run',
          },
          ...Object.keys(project.config.generated ?? {}).map((name) => ({
            kind: 'job' as const,
            label: `generated:${name}`,
            disposition: 'run' as const,
            note: 'its changes committed',
          })),
        ],
      },
      data: { ...data, fast_forward: fastForward },
    };
  }

  const paths = statePathsOf(project);
  const probe = {
    root: project.root,
    env: ctx.env,
    signal: ctx.signal,
    base: project.trunk.name,
    baseRef: `refs/heads/${project.trunk.name}`,
    mergeCheck: false,
    standards: [],
    stateDir: paths.checkoutDir,
  };
  const lock = await takeOperationLock(
    paths,
    { verb: 'update', attempt: `A-${randomBytes(6).toString('hex')}`, checkout: project.root },
    probe,
  );
  if ('denied' in lock) {
    const f = lock.denied.failure;
    return {
      steps: lock.denied.steps,
      diagnostics: f.diagnostics,
      refusal: {
        error: 'write_denied',
        message: f.message,
        next: { target: f.target ?? paths.checkoutDir, access: 'writable' },
      },
    };
  }
  if ('busy' in lock) {
    const verb = typeof lock.busy?.['verb'] === 'string' ? lock.busy['verb'] : 'run';
    return {
      refusal: {
        error: 'incomplete',
        message: `Another ${verb} is running in this checkout${lock.busy ? ` (pid ${lock.busy.pid})` : ''}; update would change the tree under it.`,
        next: { wait: `read the running one back with \`${readBack(ctx)}\` and let it finish` },
      },
    };
  }
  try {
    killAt(ctx.env, 'update:locked');
    const steps: DiscernStep[] = [
      {
        kind: 'merge-check',
        label: 'the merge is clean (computed without touching the tree)',
        disposition: 'gate',
        outcome: 'ok',
        duration_s: 0,
      },
    ];
    // The worktree is about to move: what it ignores and the trunk starts tracking is saved first.
    const guarded = await keepWhatIncomingOverwrites(
      project.root,
      head,
      main,
      ctx.env,
      await trunkKeepsIgnoredFiles(project.root, main, ctx.env),
    );
    if (!guarded.ok)
      return {
        steps,
        data,
        refusal:
          guarded.reason === 'untracked'
            ? {
                error: 'dirty_worktree',
                message: `${fromRef} starts tracking ${guarded.paths.slice(0, 5).join(', ')}${guarded.paths.length > 5 ? ', …' : ''}, untracked in this worktree: the merge would overwrite ${guarded.paths.length === 1 ? 'it' : 'them'}. Commit, move or ignore ${guarded.paths.length === 1 ? 'it' : 'them'} first; nothing was changed.`,
                next: {
                  rerun: mcp ? 'discern_update' : 'discern update',
                  standalone: mcp ? 'discern_done with standalone: true' : 'discern done --standalone',
                },
              }
            : {
                error: 'apply_failed',
                message: `Nothing was changed: the files the merge would overwrite could not be checked (${guarded.message}).`,
                next: {
                  recovery: `fix what git names, then ${mcp ? 'call discern_update again' : 'run `discern update` again'}`,
                },
              },
      };
    const kept = guarded.kept.length > 0 ? { ignored_file_changes: guarded.kept } : {};
    const began = performance.now();
    const merged = fastForward
      ? await git(['merge', '--ff-only', '--no-edit', main], run)
      : await git(['merge', '--no-ff', '--no-edit', '-m', `Merge ${fromRef} into ${state.branch}`, main], run);
    steps.push({
      kind: 'git',
      label: fastForward ? `fast-forward to ${main.slice(0, 12)}` : `merge ${fromRef}`,
      disposition: 'run',
      outcome: merged.code === 0 ? 'ok' : 'failed',
      duration_s: Math.round((performance.now() - began) / 1000),
    });
    if (merged.code !== 0) {
      // Not a conflict (that was ruled out): a hook, a missing identity, a file in the way. Put the tree back.
      await git(['merge', '--abort'], run);
      const now = await git(['rev-parse', 'HEAD'], run);
      const restored = now.stdout.trim() === head;
      return {
        steps,
        data,
        refusal: {
          error: 'apply_failed',
          message: `git could not ${fastForward ? 'fast-forward' : 'merge'}: ${gitComplaint(merged)}.${restored ? ' The branch and worktree are as they were.' : ''}`,
          next: {
            recovery: `fix what git names, then ${mcp ? 'call discern_update again' : 'run `discern update` again'}`,
          },
        },
      };
    }
    const after = (await git(['rev-parse', 'HEAD'], run)).stdout.trim();
    killAt(ctx.env, 'update:merged');
    // What came in may need what it depends on (a new package): the checkout converges before anything runs in it.
    const ensured = await ensureAfterMerge(ctx);
    steps.push(...ensured.steps);
    if (!ensured.ok)
      return {
        steps,
        data: { ...data, ...kept, fast_forward: fastForward, range: { ...data.range, after } },
        ...(ensured.diagnostics.length > 0 ? { diagnostics: ensured.diagnostics } : {}),
        refusal: {
          error: 'apply_failed',
          message: `The merge is done (${after.slice(0, 12)}), but ${ensured.message}; the [generated] regenerations did not run.`,
          next: {
            recovery: `fix it, then run \`discern worktree ensure\` here and ${mcp ? 'call discern_done' : 'run `discern done`'}`,
          },
        },
      };
    const regen = await regenerate({
      root: project.root,
      env: ctx.env,
      signal: ctx.signal,
      generators: project.config.generated ?? {},
      owns: gate.gate.generated.owns,
      outputDir: join(paths.outputs, `update-${Date.now()}`),
      message: `Regenerate after merging ${fromRef}`,
      secrets: projectSecrets(project),
    });
    steps.push(...regen.steps);
    killAt(ctx.env, 'update:regenerated');
    const finalHead = regen.committed ?? after;
    const result: DiscernUpdateData = {
      ...data,
      ...kept,
      fast_forward: fastForward,
      range: { ...data.range, after: finalHead },
      ...(regen.regenerated.length > 0 ? { regenerated: regen.regenerated } : {}),
    };
    // The merge stands; what the generators should have re-materialised on it is not (all) written and committed.
    if (regen.failure !== undefined) {
      return {
        steps,
        data: result,
        ...(regen.diagnostics.length > 0 ? { diagnostics: regen.diagnostics } : {}),
        refusal: {
          error: 'partial_materialization',
          message: `The merge is done (${finalHead.slice(0, 12)}), but ${regen.failure}.`,
          next: {
            recovery: `fix the generator, commit its output, then ${mcp ? 'call discern_done' : 'run `discern done`'}`,
          },
        },
      };
    }
    const hints = [
      ...(incoming.overlap.length > 0
        ? [VERBS.update.hints.overlap.replace('{count}', String(incoming.overlap.length))]
        : []),
      ...(guarded.kept.length > 0
        ? [
            `The merge replaced ${guarded.kept.length} ignored file${guarded.kept.length === 1 ? '' : 's'} (${guarded.kept.map((k) => k.path).join(', ')}); each was saved first, and data.ignored_file_changes has the command that restores it.`,
          ]
        : []),
      mcp ? VERBS.update.hints.merged_mcp : VERBS.update.hints.merged,
    ];
    return { steps, data: result, hints };
  } finally {
    releaseOperationLock(lock);
  }
}

/** [repository] ensure, and in an effort's worktree its [worktree.setup] ensure and its resources' ensure. */
async function ensureAfterMerge(ctx: ProjectVerbContext): Promise<SetupResult> {
  const { project } = ctx;
  // The merged discern.toml: what came in may bring the ensure its own dependencies need. A merged file that no
  // longer loads leaves the one read before the merge (done reports it next).
  const merged = await loadConfig(project.configPath);
  const config = merged.ok ? merged.config : project.config;
  const timeoutS = config.gate?.timeout ?? DEFAULT_GATE_TIMEOUT_S;
  const linked = project.location === 'worktree';
  const record = linked ? await readTaskRecord(project.gitDir) : undefined;
  // inherit_env reads the main checkout's env files: from a linked worktree, the first checkout git lists.
  const mainRoot = linked
    ? ((await listWorktrees(project.root, ctx.env, ctx.signal))[0]?.path ?? project.root)
    : project.root;
  const live = liveListener(ctx.progress);
  return runSetupSteps({
    id: record?.id ?? basename(project.root),
    branch: record?.branch ?? '',
    path: project.root,
    mainRoot,
    env: ctx.env,
    signal: ctx.signal,
    outputDir: join(statePathsOf(project).outputs, `update-ensure-${Date.now()}`),
    envFiles: [],
    ...(linked ? { envWrite: effortEnvWrite(config, record) } : {}),
    ensure: commandList(config.repository?.ensure),
    ...(linked ? { setupEnsure: commandList(config.worktree?.setup?.ensure) } : {}),
    ensureTimeoutS: timeoutS,
    resources: [],
    existing: existingResources(config, record?.resources ?? [], timeoutS),
    secrets: projectSecrets(project),
    ...(live ? { listener: live } : {}),
  });
}

function updateData(
  incoming: Incoming,
  head: string,
  main: string,
  scopes: Parameters<typeof classify>[1],
): DiscernUpdateData {
  return {
    behind: incoming.behind,
    fast_forward: false,
    commits: incoming.commits,
    commits_total: incoming.behind,
    ...(incoming.behind > incoming.commits.length ? { commits_truncated: true } : {}),
    files: incoming.files.slice(0, FILES_SHOWN),
    files_total: incoming.files.length,
    ...(incoming.files.length > FILES_SHOWN ? { files_truncated: true } : {}),
    overlap: incoming.overlap.slice(0, OVERLAP_SHOWN),
    overlap_total: incoming.overlap.length,
    scopes_incoming: classify(incoming.changes, scopes).scopes,
    range: { base: incoming.base, before: head, main },
  };
}
