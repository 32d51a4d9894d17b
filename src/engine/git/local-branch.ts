// Whether a local branch exists, read from the ref store's files when it has the usual layout (a loose ref,
// or a line in packed-refs) — a git process costs more than the answer. Repositories using the reftable
// backend, or anything unusual, fall back to asking git.
import { existsSync } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { git } from './git.js';

export async function localBranchExists(
  commonDir: string,
  name: string,
  run: { cwd: string; env: Readonly<Record<string, string | undefined>>; signal?: AbortSignal },
): Promise<boolean> {
  if (!existsSync(join(commonDir, 'reftable'))) {
    const loose = await stat(join(commonDir, 'refs', 'heads', ...name.split('/'))).then(
      (info) => info.isFile() && info.size > 0,
      () => false,
    );
    if (loose) return true;
    const packed = await readFile(join(commonDir, 'packed-refs'), 'utf8').catch(() => '');
    const wanted = ` refs/heads/${name}`;
    if (packed.split('\n').some((line) => line.endsWith(wanted) && /^[0-9a-f]{40,64} /.test(line))) return true;
    // Neither file names it: in the files backend that is a definite no.
    if (existsSync(join(commonDir, 'refs'))) return false;
  }
  const result = await git(['show-ref', '--verify', '--quiet', `refs/heads/${name}`], {
    cwd: run.cwd,
    env: run.env,
    ...(run.signal ? { signal: run.signal } : {}),
  });
  return result.code === 0;
}

/** A local branch's commit, read from the ref store's files like localBranchExists; undefined when it has none. */
export async function localBranchTip(
  commonDir: string,
  name: string,
  run: { cwd: string; env: Readonly<Record<string, string | undefined>>; signal?: AbortSignal },
): Promise<string | undefined> {
  if (!existsSync(join(commonDir, 'reftable'))) {
    const loose = await readFile(join(commonDir, 'refs', 'heads', ...name.split('/')), 'utf8').catch(() => '');
    if (/^[0-9a-f]{40,64}\n?$/.test(loose)) return loose.trim();
    if (loose === '') {
      const packed = await readFile(join(commonDir, 'packed-refs'), 'utf8').catch(() => '');
      const wanted = ` refs/heads/${name}`;
      const line = packed.split('\n').find((l) => l.endsWith(wanted) && /^[0-9a-f]{40,64} /.test(l));
      if (line !== undefined) return line.slice(0, line.indexOf(' '));
    }
  }
  const result = await git(['rev-parse', '--verify', '--quiet', `refs/heads/${name}^{commit}`], {
    cwd: run.cwd,
    env: run.env,
    ...(run.signal ? { signal: run.signal } : {}),
  });
  return result.code === 0 ? result.stdout.trim() : undefined;
}
