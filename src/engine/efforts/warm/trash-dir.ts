// Where installs set aside for deletion wait (trash.ts), and their deletion: kept apart from trash.ts so the
// detached discern that deletes them (spare-background.ts) needs nothing that starts it.
import { readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';

export function trashDir(commonDir: string): string {
  return join(commonDir, 'discern', 'trash');
}

export async function emptyTrash(commonDir: string): Promise<void> {
  const dir = trashDir(commonDir);
  for (const name of await readdir(dir).catch(() => [] as string[]))
    await rm(join(dir, name), { recursive: true, force: true }).catch(() => undefined);
}
