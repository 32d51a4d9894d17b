// The names a corpus's regions and pages are read by: folder and file names without number prefixes or .md,
// made unique (names.ts) where dropping those, or case, makes two names one. Each renaming is reported.
import { grantNames, type NameGrant } from './names.js';
import type { AssemblyProblem } from './types.js';

const NUMBER_PREFIX = /^\d+-/;

/** A folder or file name without its ordering prefix: 10-guides → guides. */
export function strippedName(segment: string): string {
  const stripped = segment.replace(NUMBER_PREFIX, '');
  return stripped === '' ? segment : stripped;
}

/** Each top-level folder's region name: its name without the number prefix, or the folder itself when taken. */
export function regionNamesOf(paths: readonly string[], problems: AssemblyProblem[]): Map<string, string> {
  const dirs = [...new Set(paths.filter((p) => p.includes('/')).map((p) => p.split('/')[0] ?? ''))];
  const grants = grantNames(
    dirs.map((dir) => ({
      source: dir,
      candidates: [strippedName(dir)],
      exact: dir,
      distance: strippedName(dir) === dir ? 0 : 1,
    })),
  );
  for (const dir of dirs) report(problems, dir, 'region', grants.get(dir));
  return new Map(dirs.map((dir) => [dir, grants.get(dir)?.name ?? dir]));
}

/**
 * Each page's target: region/…/slug with number prefixes and .md dropped; when another page has that, the path
 * without .md, and when even that is taken (a.md beside a.MD), the path itself.
 */
export function targetsOf(
  paths: readonly string[],
  regionNames: ReadonlyMap<string, string>,
  problems: AssemblyProblem[],
): Map<string, string> {
  const requests = paths.map((path) => {
    const segments = path.split('/');
    const file = segments[segments.length - 1] ?? path;
    const stem = file.replace(/\.md$/i, '');
    const folders = segments.slice(0, -1);
    const short = [
      ...folders.map((dir, i) => (i === 0 ? (regionNames.get(dir) ?? dir) : strippedName(dir))),
      strippedName(stem),
    ].join('/');
    const renamed =
      [...folders, stem].filter((segment) => strippedName(segment) !== segment).length + (file.endsWith('.md') ? 0 : 1);
    return { source: path, candidates: [short, [...folders, stem].join('/')], exact: path, distance: renamed };
  });
  const grants = grantNames(requests);
  for (const path of paths) report(problems, path, 'page', grants.get(path));
  return new Map(paths.map((path) => [path, grants.get(path)?.name ?? path]));
}

function report(
  problems: AssemblyProblem[],
  source: string,
  what: 'region' | 'page',
  grant: NameGrant | undefined,
): void {
  const displaced = grant?.displaced;
  if (grant === undefined || displaced === undefined) return;
  const message =
    what === 'region'
      ? `the region name "${displaced.wanted}" belongs to ${displaced.by}/, so this folder is the region "${grant.name}"`
      : `the target "${displaced.wanted}" belongs to ${displaced.by}, so this page is read as "${grant.name}"`;
  problems.push({ kind: 'name-collision', path: what === 'region' ? `${source}/` : source, pointer: '', message });
}
