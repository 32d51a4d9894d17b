// What a pass over an existing effort's worktree (`worktree setup`, `worktree ensure`, update) writes into its
// first env file, and the port claim `worktree setup` makes for an effort that holds none yet: a parked effort's
// worktree made again (park released its port with the worktree), or one started before [worktree] port was on.
import type { DiscernConfig } from '../../../generated/types.js';
import { DEFAULT_ENV_FILES } from '../config/defaults.js';
import { withRepositoryLock } from '../state/repository-lock.js';
import type { EnvWrite } from './env-write.js';
import { allocatePort, heldPorts } from './ports.js';
import { writeTaskRecord, type TaskRecord } from './task-record.js';

export function effortEnvWrite(config: DiscernConfig, record: TaskRecord | undefined): EnvWrite {
  return {
    envFiles: config.worktree?.env_files ?? DEFAULT_ENV_FILES,
    // Only a port the record holds is written: allocating is start's and `worktree setup`'s, under the lock.
    ...(config.worktree?.port === true && record?.port !== undefined ? { port: record.port } : {}),
    inherit: config.worktree?.inherit_env ?? [],
  };
}

/**
 * The record with a port, allocated and written under the repository's start lock (the same lock start allocates
 * under, so the two never hand out one port twice). The record as it was when it holds one already.
 */
export async function claimPort(
  commonDir: string,
  gitDir: string,
  record: TaskRecord,
): Promise<{ ok: true; record: TaskRecord } | { ok: false; reason: 'busy' | 'exhausted' }> {
  if (record.port !== undefined) return { ok: true, record };
  const claimed = await withRepositoryLock(commonDir, 'start', 60_000, async () => {
    const port = await allocatePort(await heldPorts(commonDir));
    if (port === undefined) return undefined;
    const next = { ...record, port };
    await writeTaskRecord(gitDir, next);
    return next;
  });
  if (claimed === 'busy') return { ok: false, reason: 'busy' };
  if (claimed === undefined) return { ok: false, reason: 'exhausted' };
  return { ok: true, record: claimed };
}
