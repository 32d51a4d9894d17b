// A file named by the caller, as the project-relative path git history uses. Relative paths are relative to
// the project root on every surface (an MCP server has no caller directory); absolute ones must lie inside
// the project, symbolic links resolved. Nothing outside the project, and nothing in .git, is ever looked up.
import { realpathSync } from 'node:fs';
import { isAbsolute, posix, relative, sep } from 'node:path';

export type ProjectFile = { ok: true; path: string } | { ok: false; reason: string };

export function projectFile(root: string, raw: string): ProjectFile {
  let rel: string;
  if (isAbsolute(raw)) {
    const within = inside(root, raw) ?? inside(root, realOrSelf(raw));
    if (within === undefined) return { ok: false, reason: `${raw} is outside the project (${root})` };
    rel = within;
  } else {
    rel = raw;
  }
  rel = posix.normalize(rel.split(sep).join('/'));
  while (rel.startsWith('./')) rel = rel.slice(2);
  if (rel.endsWith('/')) rel = rel.slice(0, -1);
  if (rel === '..' || rel.startsWith('../')) return { ok: false, reason: `${raw} leads outside the project` };
  if (rel === '' || rel === '.') return { ok: false, reason: `${raw} names the project root, not a file` };
  if (rel.split('/').some((segment) => segment.toLowerCase() === '.git'))
    return { ok: false, reason: `${raw} is inside .git, which has no history of its own` };
  return { ok: true, path: rel };
}

/** `path` relative to `root` when it lies inside it (or is it). */
function inside(root: string, path: string): string | undefined {
  const rel = relative(root, path);
  if (rel === '') return '.';
  return rel === '..' || rel.startsWith(`..${sep}`) || isAbsolute(rel) ? undefined : rel;
}

function realOrSelf(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}
