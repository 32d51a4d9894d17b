// The repository's key: 32 random bytes at <git-common-dir>/discern/validation-hmac-key, mode 0600. It keys the
// emergency approval tokens and the MACs that seal discern's gate and acceptance records (seal.ts), so a record
// copied from another repository, written by hand or edited after the fact is not honoured. It guards against
// those, not against a process of the same user that reads the key (docs/decisions/0048).
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createFileExclusive, writeFileAtomic } from './atomic-write.js';

export const KEY_BYTES = 32;

export function repositoryKeyPath(commonDir: string): string {
  return join(commonDir, 'discern', 'validation-hmac-key');
}

/** The key when it exists and has the right size; undefined otherwise (nothing sealed can verify). */
export async function existingRepositoryKey(commonDir: string): Promise<Buffer | undefined> {
  const key = await readFile(repositoryKeyPath(commonDir)).catch(() => undefined);
  return key !== undefined && key.length === KEY_BYTES ? key : undefined;
}

/**
 * The key, created on first use: created exclusively (two first users race to one key). A file of the wrong size
 * is replaced: nothing it signed could be verified anyway.
 */
export async function repositoryKey(
  commonDir: string,
): Promise<{ ok: true; key: Buffer } | { ok: false; path: string; reason: string }> {
  const path = repositoryKeyPath(commonDir);
  try {
    for (let attempt = 0; attempt < 2; attempt++) {
      const existing = await readFile(path).catch((error: NodeJS.ErrnoException) =>
        error.code === 'ENOENT' ? undefined : Promise.reject(error),
      );
      if (existing !== undefined && existing.length === KEY_BYTES) return { ok: true, key: existing };
      // node:crypto loads only when a key is made.
      const fresh = process.getBuiltinModule('node:crypto').randomBytes(KEY_BYTES);
      if (existing !== undefined) {
        await writeFileAtomic(path, fresh, { mode: 0o600 });
        return { ok: true, key: fresh };
      }
      if (await createFileExclusive(path, fresh, { mode: 0o600 })) return { ok: true, key: fresh };
      // Another process created it first: read theirs.
    }
    return { ok: false, path, reason: 'it kept changing while it was read' };
  } catch (error) {
    return { ok: false, path, reason: (error as Error).message };
  }
}
