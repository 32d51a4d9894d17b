// A branch's tip read from the ref store's files (a loose ref, else packed-refs) without starting git: a wait
// re-reads refs on every wake, and a git process per wake would cost more CPU than the whole wait may use.
// Repositories using reftable, or anything unusual, fall back to asking git.
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { git } from '../git/git.js';

export async function branchTip(
  commonDir: string,
  branch: string,
  run: { cwd: string; env: Readonly<Record<string, string | undefined>> },
): Promise<string | undefined> {
  if (!existsSync(join(commonDir, 'reftable'))) {
    const loose = await readFile(join(commonDir, 'refs', 'heads', ...branch.split('/')), 'utf8').catch(() => undefined);
    if (loose !== undefined && /^[0-9a-f]{40,64}\s*$/.test(loose)) return loose.trim();
    if (loose === undefined) {
      const packed = await readFile(join(commonDir, 'packed-refs'), 'utf8').catch(() => '');
      const wanted = ` refs/heads/${branch}`;
      const line = packed.split('\n').find((l) => l.endsWith(wanted) && /^[0-9a-f]{40,64} /.test(l));
      if (line !== undefined) return line.slice(0, line.indexOf(' '));
      if (existsSync(join(commonDir, 'refs'))) return undefined;
    }
  }
  const result = await git(['rev-parse', '--verify', '--quiet', `refs/heads/${branch}`], run);
  return result.code === 0 ? result.stdout.trim() : undefined;
}
