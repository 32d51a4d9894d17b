// One lock orders every edit discern makes to a project's files (discern.toml, agent files, tidied Markdown):
// an edit reads, compares and writes while holding it, so two discern processes never interleave their
// read-modify-write and an edit based on bytes that changed since is redone or refused, never silently lost.
import { withRepositoryLock } from './repository-lock.js';

const WAIT_MS = 30_000;

export class EditLockBusy extends Error {
  readonly code = 'EBUSY';
  constructor() {
    super(`another discern edit of this project's files held the edit lock for over ${WAIT_MS / 1000} s`);
    this.name = 'EditLockBusy';
  }
}

export async function withEditLock<T>(commonDir: string, body: () => Promise<T>): Promise<T> {
  const result = await withRepositoryLock(commonDir, 'edit', WAIT_MS, async () => ({ value: await body() }));
  if (result === 'busy') throw new EditLockBusy();
  return result.value;
}
