// The map's links intact: every relative link in a tracked map page names a tracked file or folder of the same
// commit. The gate proves committed work, so it reads what git tracks, not what happens to lie on disk.
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join, posix } from 'node:path';
import { git, gitComplaint } from '../git/git.js';

export interface BrokenLink {
  /** The page, repository-relative. */
  page: string;
  line: number;
  target: string;
}

interface Run {
  root: string;
  env: Readonly<Record<string, string | undefined>>;
  signal?: AbortSignal;
}

const LINK = /\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g;
const FENCE = /^\s*(```|~~~)/;

export async function brokenMapLinks(run: Run, mapDir: string): Promise<BrokenLink[]> {
  const dir = mapDir.replace(/^\.\//, '').replace(/\/+$/, '');
  // Pages are read from disk, and a page that cannot be read has no links: with no map folder there is nothing
  // to check, and git need not list the tree.
  if (!existsSync(join(run.root, dir))) return [];
  const listed = await git(['ls-files', '-z'], {
    cwd: run.root,
    env: run.env,
    ...(run.signal ? { signal: run.signal } : {}),
  });
  if (listed.code !== 0) throw new Error(`git ls-files failed: ${gitComplaint(listed)}`);
  const tracked = new Set(listed.stdout.split('\0').filter((p) => p !== ''));
  const folders = new Set<string>();
  for (const path of tracked)
    for (let at = path.lastIndexOf('/'); at > 0; at = path.lastIndexOf('/', at - 1)) folders.add(path.slice(0, at));
  const pages = [...tracked].filter((p) => p.startsWith(`${dir}/`) && p.toLowerCase().endsWith('.md')).sort();
  const broken: BrokenLink[] = [];
  for (const page of pages) {
    const text = await readFile(join(run.root, page), 'utf8').catch(() => '');
    broken.push(...pageBrokenLinks(page, text, (path) => tracked.has(path) || folders.has(path)));
  }
  return broken;
}

/** Relative links outside fenced code that resolve to nothing tracked (or out of the repository). Pure. */
export function pageBrokenLinks(page: string, text: string, exists: (path: string) => boolean): BrokenLink[] {
  const broken: BrokenLink[] = [];
  const pageDir = posix.dirname(page);
  let fenced = false;
  text.split(/\r?\n/).forEach((line, index) => {
    if (FENCE.test(line)) fenced = !fenced;
    if (fenced) return;
    for (const match of line.replace(/`[^`]*`/g, '').matchAll(LINK)) {
      const raw = match[1] ?? '';
      const target = raw.split('#')[0] ?? '';
      if (target === '' || /^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith('/')) continue;
      let decoded = target;
      try {
        decoded = decodeURIComponent(target);
      } catch {
        // keep it as written
      }
      const resolved = posix.normalize(posix.join(pageDir, decoded)).replace(/\/+$/, '');
      if (resolved === '..' || resolved.startsWith('../') || !exists(resolved))
        broken.push({ page, line: index + 1, target: raw });
    }
  });
  return broken;
}
