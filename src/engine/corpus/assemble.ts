// Turns a folder's Markdown files into a corpus: targets, sections and regions, titles and descriptions.
// The manual (at generation time) and a project's map (at run time) are assembled by the same rules, so the
// discovery funnel behaves the same over both.
import { extractFields, splitFrontMatter } from '../search/index.js';
import type { FrontMatterReader, FrontMatterValue } from './front-matter.js';
import { pageMeta, type PageMeta } from './page-meta.js';
import { regionNamesOf, strippedName, targetsOf } from './corpus-names.js';
import type { AssemblyProblem, Corpus, CorpusPage, CorpusRegion } from './types.js';

export interface SourceFile {
  /** Path inside the corpus folder, forward slashes, e.g. 10-guides/connect.md. */
  path: string;
  text: string;
}

export type { AssemblyProblem } from './types.js';

const OVERVIEW = /^(readme|index)\.md$/i;
const DESCRIPTION_LIMIT = 200;
const UNORDERED = 1000;

export function assembleCorpus(
  files: readonly SourceFile[],
  /** frontMatterReader()'s, awaited by the caller: the YAML parser loads only where pages are read. */
  readFrontMatter: FrontMatterReader,
): {
  corpus: Corpus;
  problems: AssemblyProblem[];
  frontMatter: Map<string, Record<string, FrontMatterValue>>;
} {
  const problems: AssemblyProblem[] = [];
  const frontMatter = new Map<string, Record<string, FrontMatterValue>>();
  const bodies = new Map<string, string>();
  const metas = new Map<string, PageMeta>();
  for (const file of files) {
    const split = splitFrontMatter(file.text);
    let data: Record<string, FrontMatterValue> = {};
    if (split.frontMatter !== null) {
      const read = readFrontMatter(split.frontMatter);
      if (read.ok) data = read.data;
      // The front matter starts on the file's second line, after the opening ---.
      else
        problems.push({
          kind: 'front-matter',
          path: file.path,
          pointer: '',
          message: `front matter, line ${read.line + 1} of the file: ${read.reason}; the page is listed without it`,
        });
    }
    const typed = pageMeta(data);
    for (const message of typed.problems)
      problems.push({
        kind: 'front-matter',
        path: file.path,
        pointer: '',
        message: `front matter ${message}; it is ignored`,
      });
    frontMatter.set(file.path, data);
    metas.set(file.path, typed.meta);
    bodies.set(file.path, split.body);
  }
  const paths = files.map((f) => f.path);
  const regionNames = regionNamesOf(paths, problems);
  const targets = targetsOf(paths, regionNames, problems);
  const pages = paths.map((path) =>
    page(path, targets.get(path) ?? path, regionNames, bodies.get(path) ?? '', metas.get(path) ?? {}),
  );
  const regions = regionsOf(pages, regionNames);
  const order = new Map(regions.map((r, i) => [r.name, i]));
  // Within a region its overview (README.md or index.md) comes first, then front-matter order, then path.
  const overview = (p: CorpusPage): number =>
    OVERVIEW.test(p.path.slice(p.path.indexOf('/') + 1)) && p.path.includes('/') ? 0 : 1;
  pages.sort(
    (a, b) =>
      (order.get(a.section) ?? -1) - (order.get(b.section) ?? -1) ||
      overview(a) - overview(b) ||
      a.order - b.order ||
      (a.path < b.path ? -1 : a.path > b.path ? 1 : 0),
  );
  return { corpus: { pages, regions }, problems, frontMatter };
}

function page(
  path: string,
  target: string,
  regionNames: ReadonlyMap<string, string>,
  body: string,
  meta: PageMeta,
): CorpusPage {
  const segments = path.split('/');
  const file = segments[segments.length - 1] ?? path;
  const slug = strippedName(file.replace(/\.md$/i, ''));
  return {
    target,
    path,
    section: segments.length > 1 ? (regionNames.get(segments[0] ?? '') ?? '') : '',
    slug,
    id: meta.id ?? slug,
    title: meta.title ?? firstHeading(body) ?? slug,
    description: meta.description ?? firstParagraph(body),
    order: meta.order ?? UNORDERED,
    aliases: meta.aliases ?? [],
    publish: meta.publish !== false,
    content: body,
    generated: false,
  };
}

/** One region per top-level folder; its README.md or index.md (its front matter, or else its text) names it. */
function regionsOf(pages: readonly CorpusPage[], regionNames: ReadonlyMap<string, string>): CorpusRegion[] {
  const dirs = [...regionNames.keys()].sort();
  return dirs.map((dir) => {
    const inRegion = pages.filter((p) => p.path.startsWith(`${dir}/`));
    const overview = inRegion.find((p) => OVERVIEW.test(p.path.slice(dir.length + 1)));
    return {
      name: regionNames.get(dir) ?? dir,
      dir,
      title: overview?.title ?? titleCase(strippedName(dir)),
      description: overview?.description ?? '',
      page_count: inRegion.length,
    };
  });
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
