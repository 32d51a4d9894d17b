// After a landing: the effort's resources destroyed in reverse, its worktree removed, and its branch deleted —
// the branch only when the trunk contains all of it, so no commit is ever lost.
import type { GateListener } from '../gate/events.js';
import { join } from 'node:path';
import type { DiscernStep } from '../../../generated/types.js';
import { commandList } from '../config/commands.js';
import { DEFAULT_GATE_TIMEOUT_S } from '../config/gate-settings.js';
import type { TaskRecord } from '../efforts/task-record.js';
import { git, gitComplaint } from '../git/git.js';
import { outputFileName } from '../jobs/output-dir.js';
import { runJob } from '../jobs/run-job.js';

type Env = Readonly<Record<string, string | undefined>>;

export async function destroyResources(
  record: TaskRecord | undefined,
  path: string,
  env: Env,
  outputDir: string,
  steps: DiscernStep[],
  secrets: readonly string[] = [],
  /** Told as each destroy command starts and ends: a landing's live view and journal. */
  listener?: GateListener,
): Promise<{ destroyed: string[]; failed: string[] }> {
  const destroyed: string[] = [];
  const failed: string[] = [];
  for (const resource of [...(record?.resources ?? [])].reverse()) {
    const commands = commandList(resource.destroy);
    if (commands.length === 0) continue;
    const label = `destroy resource ${resource.name}`;
    listener?.({ type: 'producer-start', label, group: 'cleanup' });
    const result = await runJob({
      label: `resource:${resource.name}`,
      commands,
      cwd: path,
      // The names it was created under, even if the effort was renamed since.
      env: {
        ...env,
        DISCERN_EFFORT: record?.id ?? '',
        DISCERN_BRANCH: record?.branch ?? '',
        DISCERN_WORKTREE: path,
        ...(resource.env ?? {}),
      },
      timeoutS: DEFAULT_GATE_TIMEOUT_S,
      timeoutKey: '[gate] timeout',
      outputPath: join(outputDir, outputFileName(`destroy-${resource.name}`)),
      secrets,
    });
    steps.push({
      kind: 'resource-destroy',
      label: `destroy resource:${resource.name}`,
      disposition: 'run',
      note: commands.join(' && '),
      outcome: result.outcome,
      duration_s: Math.round(result.durationMs / 1000),
      output_path: result.outputPath,
    });
    listener?.({
      type: 'producer-end',
      label,
      outcome: result.outcome,
      durationMs: result.durationMs,
      outputPath: result.outputPath,
    });
    (result.outcome === 'ok' ? destroyed : failed).push(resource.name);
  }
  return { destroyed, failed };
}

/**
 * Removes a worktree. Without `force` git refuses one with uncommitted or untracked changes (ignored output such
 * as node_modules goes with it); `force` is only for a person who asked to lose those changes.
 */
export async function removeWorktree(
  mainRoot: string,
  path: string,
  env: Env,
  steps: DiscernStep[],
  force = false,
): Promise<boolean> {
  const removed = await git(['worktree', 'remove', ...(force ? ['--force'] : []), path], { cwd: mainRoot, env });
  steps.push({
    kind: 'git',
    label: 'remove the worktree',
    disposition: 'run',
    note: path,
    outcome: removed.code === 0 ? 'ok' : 'failed',
    duration_s: 0,
  });
  return removed.code === 0;
}

export async function deleteBranchIfLanded(
  mainRoot: string,
  branch: string,
  trunk: string,
  env: Env,
  steps: DiscernStep[],
): Promise<{ deleted: boolean; reason?: string }> {
  const run = { cwd: mainRoot, env };
  const tip = await git(['rev-parse', '--verify', '--quiet', `refs/heads/${branch}`], run);
  if (tip.code !== 0) return { deleted: true };
  const head = tip.stdout.trim();
  const contained = (await git(['merge-base', '--is-ancestor', head, `refs/heads/${trunk}`], run)).code === 0;
  if (!contained) {
    steps.push({
      kind: 'git',
      label: `keep branch ${branch}`,
      disposition: 'skip',
      note: `it holds commits ${trunk} does not contain`,
      outcome: 'skipped',
    });
    return { deleted: false, reason: `${branch} holds commits ${trunk} does not contain` };
  }
  // Compare-and-swap: a commit added to the branch meanwhile keeps it.
  const deleted = await git(['update-ref', '-d', `refs/heads/${branch}`, head], run);
  steps.push({
    kind: 'git',
    label: `delete branch ${branch}`,
    disposition: 'run',
    outcome: deleted.code === 0 ? 'ok' : 'failed',
    duration_s: 0,
  });
  return deleted.code === 0 ? { deleted: true } : { deleted: false, reason: gitComplaint(deleted) };
}
