// The Markdown files discern owns in a project: the [instructions] sources (globs allowed; the default file
// only when it exists) and every .md page under [map] dir. Paths are relative to the project root; nothing
// outside the root, behind a symbolic link or under a dot-directory is included.
import { lstat, readdir, realpath } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { DEFAULT_MAP_DIR } from '../config/defaults.js';
import { git } from '../git/git.js';
import { compilePattern } from '../scopes/index.js';
import { isTable } from '../toml-edit/format.js';

export const DEFAULT_INSTRUCTIONS = ['discern/instructions.md'];
const GLOB = /[*?[{]/;

export async function ownedMarkdown(
  root: string,
  tree: Record<string, unknown>,
  env: Readonly<Record<string, string | undefined>>,
): Promise<string[]> {
  const instructions = isTable(tree['instructions']) ? tree['instructions']['sources'] : undefined;
  const sources = Array.isArray(instructions) ? instructions.map(String) : DEFAULT_INSTRUCTIONS;
  const map = isTable(tree['map']) && typeof tree['map']['dir'] === 'string' ? tree['map']['dir'] : DEFAULT_MAP_DIR;
  const found = new Set<string>();
  const globs = sources.filter((s) => GLOB.test(s));
  if (globs.length > 0) {
    const listed = await git(['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: root, env });
    const files = listed.code === 0 ? listed.stdout.split('\0').filter(Boolean) : [];
    for (const pattern of globs) {
      const compiled = compilePattern(pattern);
      if (compiled.ok) for (const f of files) if (compiled.test(f) && (await inside(root, f))) found.add(f);
    }
  }
  for (const s of sources.filter((s) => !GLOB.test(s))) {
    const path = s.replace(/^\.\//, '');
    if (await inside(root, path)) found.add(path);
  }
  for (const page of await mapPages(root, map.replace(/^\.\//, '').replace(/\/+$/, ''))) found.add(page);
  return [...found].sort();
}

/** A regular file (not a link) whose real path lies inside the root. */
async function inside(root: string, path: string): Promise<boolean> {
  try {
    const info = await lstat(join(root, path));
    if (!info.isFile()) return false;
    const real = await realpath(join(root, path));
    const realRoot = await realpath(root);
    return real.startsWith(realRoot + sep);
  } catch {
    return false;
  }
}

async function mapPages(root: string, dir: string): Promise<string[]> {
  const pages: string[] = [];
  const realRoot = await realpath(root).catch(() => root);
  const start = join(root, dir);
  const real = await realpath(start).catch(() => undefined);
  if (real === undefined || !(real === realRoot || real.startsWith(realRoot + sep))) return pages;
  const walk = async (folder: string): Promise<void> => {
    const names = await readdir(folder).catch(() => [] as string[]);
    for (const name of names.sort()) {
      if (name.startsWith('.')) continue;
      const full = join(folder, name);
      const info = await lstat(full).catch(() => undefined);
      if (!info || info.isSymbolicLink()) continue;
      if (info.isDirectory()) await walk(full);
      else if (info.isFile() && name.toLowerCase().endsWith('.md'))
        pages.push(relative(root, full).split(sep).join('/'));
    }
  };
  if ((await lstat(start).catch(() => undefined))?.isDirectory()) await walk(start);
  return pages;
}
