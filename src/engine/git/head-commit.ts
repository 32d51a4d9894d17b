// The commit HEAD names, read from the ref store's files when it has the usual layout — HEAD holding a sha or
// `ref: refs/heads/<branch>`, the branch a loose ref or a packed-refs line — because a warm read-only call must
// not pay for a git process. Anything else (reftable, a symbolic ref outside refs/heads, an unreadable file)
// asks git. null: HEAD has no commit yet (an unborn branch).
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const SHA = /^[0-9a-f]{40}([0-9a-f]{24})?$/;

export async function headCommit(
  checkout: { root: string; gitDir: string; commonDir: string },
  env: Readonly<Record<string, string | undefined>>,
  signal?: AbortSignal,
): Promise<string | null> {
  const fromFiles = headFromFiles(checkout.gitDir, checkout.commonDir);
  if (fromFiles !== undefined) return fromFiles;
  // Loaded only when the files do not say: the warm path answers without it.
  const { git } = await import('./git.js');
  const result = await git(['rev-parse', '--verify', '--quiet', 'HEAD^{commit}'], {
    cwd: checkout.root,
    env,
    ...(signal ? { signal } : {}),
  });
  const sha = result.stdout.trim();
  return result.code === 0 && SHA.test(sha) ? sha : null;
}

/** undefined: the files do not say for certain. */
export function headFromFiles(gitDir: string, commonDir: string): string | null | undefined {
  if (existsSync(join(commonDir, 'reftable'))) return undefined;
  const head = read(join(gitDir, 'HEAD'))?.trim();
  if (head === undefined) return undefined;
  if (SHA.test(head)) return head;
  const ref = /^ref: (refs\/heads\/\S+)$/.exec(head)?.[1];
  if (ref === undefined) return undefined;
  const loose = read(join(commonDir, ...ref.split('/')));
  if (loose !== undefined) {
    const sha = loose.trim();
    return SHA.test(sha) ? sha : undefined;
  }
  const packed = read(join(commonDir, 'packed-refs'));
  const wanted = ` ${ref}`;
  for (const line of packed?.split('\n') ?? []) {
    if (line.endsWith(wanted)) {
      const sha = line.slice(0, line.length - wanted.length);
      return SHA.test(sha) ? sha : undefined;
    }
  }
  // Neither file names the branch: in the files backend that is an unborn branch.
  return existsSync(join(commonDir, 'refs')) ? null : undefined;
}

function read(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
}
