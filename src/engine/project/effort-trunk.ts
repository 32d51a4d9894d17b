// The trunk an effort lands on, as its task record names it (recorded at start). In an effort's worktree this,
// not the worktree's own discern.toml, says which branch is the trunk: a change that sets [repository] trunk to
// its own branch would otherwise compare itself with itself. An effort started by an earlier discern takes the
// main checkout's trunk at its first read, and that is recorded.
import { basename, dirname, join } from 'node:path';
import { readTaskRecord, writeTaskRecord } from '../efforts/task-record.js';
import { loadConfig } from '../config/load.js';
import { knownValidIn } from '../config/known-valid.js';

/** The recorded trunk of the effort whose worktree git dir this is; undefined for a worktree discern did not start. */
export async function recordedTrunk(gitDir: string, commonDir: string): Promise<string | undefined> {
  const record = await readTaskRecord(gitDir);
  if (record === undefined) return undefined;
  if (record.trunk !== undefined) return record.trunk;
  const trunk = await mainCheckoutTrunk(commonDir);
  if (trunk === undefined) return undefined;
  // Best effort: a record that cannot be written is read the same way next time.
  await writeTaskRecord(gitDir, { ...record, trunk }).catch(() => undefined);
  return trunk;
}

/** [repository] trunk of the main checkout's discern.toml, or the default; undefined when it cannot be read. */
async function mainCheckoutTrunk(commonDir: string): Promise<string | undefined> {
  if (basename(commonDir) !== '.git') return undefined;
  const loaded = await loadConfig(join(dirname(commonDir), 'discern.toml'), 'discern.toml', {
    knownValid: knownValidIn(join(commonDir, 'discern', 'config-valid')),
  });
  if (!loaded.ok) return undefined;
  return loaded.config.repository?.trunk ?? 'main';
}
