// Turns a folder's Markdown files into a corpus: targets, sections and regions, titles and descriptions.
// The manual (at generation time) and a project's map (at run time) are assembled by the same rules, so the
// discovery funnel behaves the same over both.
import { extractFields, splitFrontMatter } from '../search/index.js';
import { readFrontMatter, type FrontMatterValue } from './front-matter.js';
import { grantNames, type NameGrant } from './names.js';
import type { Corpus, CorpusPage, CorpusRegion } from './types.js';

export interface SourceFile {
  /** Path inside the corpus folder, forward slashes, e.g. 10-guides/connect.md. */
  path: string;
  text: string;
}

export interface AssemblyProblem {
  /** front-matter: it could not be read, and the page is listed from its text; name-collision: a region or
   * page could not have its usual name, because another has it, and is named by its path instead. */
  kind: 'front-matter' | 'name-collision';
  path: string;
  pointer: string;
  message: string;
}

const NUMBER_PREFIX = /^\d+-/;
const OVERVIEW = /^(readme|index)\.md$/i;
const DESCRIPTION_LIMIT = 200;
const UNORDERED = 1000;

/** A folder or file name without its ordering prefix: 10-guides → guides. */
export function strippedName(segment: string): string {
  const stripped = segment.replace(NUMBER_PREFIX, '');
  return stripped === '' ? segment : stripped;
}

export function assembleCorpus(files: readonly SourceFile[]): { corpus: Corpus; problems: AssemblyProblem[]; frontMatter: Map<string, Record<string, FrontMatterValue>> } {
  const problems: AssemblyProblem[] = [];
  const frontMatter = new Map<string, Record<string, FrontMatterValue>>();
  const bodies = new Map<string, string>();
  for (const file of files) {
    const split = splitFrontMatter(file.text);
    let meta: Record<string, FrontMatterValue> = {};
    if (split.frontMatter !== null) {
      const read = readFrontMatter(split.frontMatter);
      if (read.ok) meta = read.data;
      else problems.push({ kind: 'front-matter', path: file.path, pointer: '', message: `front matter line ${read.line}: ${read.reason}` });
    }
    frontMatter.set(file.path, meta);
    bodies.set(file.path, split.body);
  }
  const paths = files.map((f) => f.path);
  const regionNames = regionNamesOf(paths, problems);
  const targets = targetsOf(paths, regionNames, problems);
  const pages = paths.map((path) => page(path, targets.get(path) ?? path, regionNames, bodies.get(path) ?? '', frontMatter.get(path) ?? {}));
  const regions = regionsOf(pages, regionNames, frontMatter);
  const order = new Map(regions.map((r, i) => [r.name, i]));
  // Within a region its overview (README.md or index.md) comes first, then front-matter order, then path.
  const overview = (p: CorpusPage): number => (OVERVIEW.test(p.path.slice(p.path.indexOf('/') + 1)) && p.path.includes('/') ? 0 : 1);
  pages.sort((a, b) => (order.get(a.section) ?? -1) - (order.get(b.section) ?? -1) || overview(a) - overview(b) || a.order - b.order || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return { corpus: { pages, regions }, problems, frontMatter };
}

/** Each top-level folder's region name: its name without the number prefix, or the folder itself when taken. */
function regionNamesOf(paths: readonly string[], problems: AssemblyProblem[]): Map<string, string> {
  const dirs = [...new Set(paths.filter((p) => p.includes('/')).map((p) => p.split('/')[0] ?? ''))];
  const grants = grantNames(dirs.map((dir) => ({ source: dir, candidates: [strippedName(dir)], exact: dir, distance: strippedName(dir) === dir ? 0 : 1 })));
  for (const dir of dirs) report(problems, dir, 'region', grants.get(dir));
  return new Map(dirs.map((dir) => [dir, grants.get(dir)?.name ?? dir]));
}

/**
 * Each page's target: region/…/slug with number prefixes and .md dropped; when another page has that, the path
 * without .md, and when even that is taken (a.md beside a.MD), the path itself.
 */
function targetsOf(paths: readonly string[], regionNames: ReadonlyMap<string, string>, problems: AssemblyProblem[]): Map<string, string> {
  const requests = paths.map((path) => {
    const segments = path.split('/');
    const file = segments[segments.length - 1] ?? path;
    const stem = file.replace(/\.md$/i, '');
    const folders = segments.slice(0, -1);
    const short = [...folders.map((dir, i) => (i === 0 ? (regionNames.get(dir) ?? dir) : strippedName(dir))), strippedName(stem)].join('/');
    const renamed = [...folders, stem].filter((segment) => strippedName(segment) !== segment).length + (file.endsWith('.md') ? 0 : 1);
    return { source: path, candidates: [short, [...folders, stem].join('/')], exact: path, distance: renamed };
  });
  const grants = grantNames(requests);
  for (const path of paths) report(problems, path, 'page', grants.get(path));
  return new Map(paths.map((path) => [path, grants.get(path)?.name ?? path]));
}

function report(problems: AssemblyProblem[], source: string, what: 'region' | 'page', grant: NameGrant | undefined): void {
  const displaced = grant?.displaced;
  if (grant === undefined || displaced === undefined) return;
  const message =
    what === 'region'
      ? `the region name "${displaced.wanted}" belongs to ${displaced.by}/, so this folder is the region "${grant.name}"`
      : `the target "${displaced.wanted}" belongs to ${displaced.by}, so this page is read as "${grant.name}"`;
  problems.push({ kind: 'name-collision', path: what === 'region' ? `${source}/` : source, pointer: '', message });
}

function page(path: string, target: string, regionNames: ReadonlyMap<string, string>, body: string, meta: Record<string, FrontMatterValue>): CorpusPage {
  const segments = path.split('/');
  const file = segments[segments.length - 1] ?? path;
  const slug = strippedName(file.replace(/\.md$/i, ''));
  return {
    target,
    path,
    section: segments.length > 1 ? (regionNames.get(segments[0] ?? '') ?? '') : '',
    slug,
    id: text(meta['id']) ?? slug,
    title: text(meta['title']) ?? firstHeading(body) ?? slug,
    description: text(meta['description']) ?? firstParagraph(body),
    order: typeof meta['order'] === 'number' ? meta['order'] : UNORDERED,
    aliases: Array.isArray(meta['aliases']) ? meta['aliases'] : [],
    publish: meta['publish'] !== false,
    content: body,
    generated: false,
  };
}

/** One region per top-level folder; its README.md or index.md front matter (or heading) names it. */
function regionsOf(pages: readonly CorpusPage[], regionNames: ReadonlyMap<string, string>, frontMatter: Map<string, Record<string, FrontMatterValue>>): CorpusRegion[] {
  const dirs = [...regionNames.keys()].sort();
  return dirs.map((dir) => {
    const inRegion = pages.filter((p) => p.path.startsWith(`${dir}/`));
    const overview = inRegion.find((p) => OVERVIEW.test(p.path.slice(dir.length + 1)));
    const meta = overview ? (frontMatter.get(overview.path) ?? {}) : {};
    const name = regionNames.get(dir) ?? dir;
    return {
      name,
      dir,
      title: text(meta['title']) ?? overview?.title ?? titleCase(strippedName(dir)),
      description: text(meta['description']) ?? overview?.description ?? '',
      page_count: inRegion.length,
    };
  });
}

function text(value: FrontMatterValue | undefined): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
}

function firstHeading(body: string): string | undefined {
  const match = /^#[ \t]+(.+?)[ \t#]*$/m.exec(body);
  return match?.[1]?.trim();
}

function firstParagraph(body: string): string {
  const fields = extractFields(body.replace(/^#[ \t]+.*$/m, ''));
  const flat = fields.body;
  return flat.length <= DESCRIPTION_LIMIT ? flat : `${flat.slice(0, DESCRIPTION_LIMIT).replace(/\s+\S*$/, '')}…`;
}

function titleCase(name: string): string {
  const words = name.split(/[-_ ]+/).filter(Boolean);
  return [words[0] ? words[0].charAt(0).toUpperCase() + words[0].slice(1) : name, ...words.slice(1)].join(' ');
}
