// Bundles the manual: every docs/<NN-section>/<slug>.md page (front matter checked against
// spec/meta/manual-page.schema.json) plus the reference pages generated from spec/, assembled by the same
// rules a project's map is (src/engine/corpus), with the search index precomputed, into generated/manual-pages.ts and generated/manual-index.ts.
// docs/decisions/ holds decision records and is not part of the manual.
import { lstatSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { parseDocument } from 'yaml';
import { readerWith } from '../../src/engine/corpus/front-matter.js';
import { assembleCorpus, type SourceFile } from '../../src/engine/corpus/assemble.js';
import { indexCorpus } from '../../src/engine/corpus/search-documents.js';
import type { CorpusPage } from '../../src/engine/corpus/types.js';
import { createAjv } from '../spec/ajv.js';
import { ProblemList } from '../spec/errors.js';
import type { SpecModel } from '../spec/types.js';
import type { Contracts } from '../schemas/contracts.js';
import type { Grammar } from '../schemas/cli-grammar.js';
import { referencePages } from './reference-pages.js';
import { docRegions, fillRegions, withoutRegionMarkers } from './doc-regions.js';
import type { McpSchemaEntry } from './mcp-model.js';
import { withCodeHeader } from './provenance.js';
import { parsedJson } from './json-text.js';

const SECTION_DIR = /^\d\d-[a-z][a-z-]*$/;
const PAGE_FILE = /^[a-z0-9][a-z0-9-]*\.md$/;
export const REFERENCE_SECTION = 'reference';

export function emitManual(
  root: string,
  model: SpecModel,
  contracts: Contracts,
  grammar: Grammar,
  schemas: readonly McpSchemaEntry[],
): Map<string, string> {
  const problems = new ProblemList();
  const validateFrontMatter = createAjv().compile(
    JSON.parse(readFileSync(join(root, 'spec/meta/manual-page.schema.json'), 'utf8')) as object,
  );
  const docsDir = join(root, 'docs');
  const files: SourceFile[] = [];
  const regions = docRegions(model, contracts);
  const pagesRewritten = new Map<string, string>();
  for (const dir of readdirSync(docsDir).sort()) {
    if (!SECTION_DIR.test(dir)) continue; // decisions/ and any non-section entry are not manual pages
    for (const file of readdirSync(join(docsDir, dir)).sort()) {
      const rel = `docs/${dir}/${file}`;
      const info = lstatSync(join(docsDir, dir, file));
      if (info.isSymbolicLink())
        problems.add(rel, '', 'manual pages may not be symbolic links (the manual must not reach outside docs/)');
      else if (!info.isFile() || !PAGE_FILE.test(file))
        problems.add(rel, '', 'a manual section holds only <slug>.md files (lowercase letters, digits and -)');
      else {
        const written = readFileSync(join(docsDir, dir, file), 'utf8');
        const filled = fillRegions(written, regions);
        for (const problem of filled.problems) problems.add(rel, '', problem);
        // A page whose lists are stale is rewritten; the manual serves it without the region markers.
        if (filled.text !== written) pagesRewritten.set(rel, filled.text);
        files.push({ path: `${dir}/${file}`, text: withoutRegionMarkers(filled.text) });
      }
    }
  }
  const { corpus, problems: assembly, frontMatter } = assembleCorpus(files, readerWith(parseDocument));
  for (const p of assembly) problems.add(`docs/${p.path}`, p.pointer, p.message);
  for (const file of files) {
    const meta = frontMatter.get(file.path);
    const rel = `docs/${file.path}`;
    if (!file.text.startsWith('---'))
      problems.add(rel, '', 'missing front matter (--- id, title, description, order, aliases ---)');
    else if (meta && !validateFrontMatter(meta))
      for (const e of validateFrontMatter.errors ?? [])
        problems.add(rel, e.instancePath, `front matter ${e.message ?? e.keyword}`);
    const slug = file.path.split('/')[1]?.replace(/\.md$/, '');
    if (meta && typeof meta['id'] === 'string' && meta['id'] !== slug)
      problems.add(rel, '/id', `id must equal the file's slug "${slug ?? ''}"`);
  }

  let reference = corpus.regions.find((r) => r.name === REFERENCE_SECTION);
  if (!reference) {
    reference = {
      name: REFERENCE_SECTION,
      dir: `90-${REFERENCE_SECTION}`,
      title: 'Reference',
      description: '',
      page_count: 0,
    };
    corpus.regions.push(reference);
  }
  for (const generated of referencePages(model, contracts, grammar, schemas)) {
    if (corpus.pages.some((p) => p.target === `${REFERENCE_SECTION}/${generated.slug}`)) {
      problems.add(
        `docs/${reference.dir}/${generated.slug}.md`,
        '',
        'this page is generated from spec/; remove the hand-written file',
      );
      continue;
    }
    const page: CorpusPage = {
      target: `${REFERENCE_SECTION}/${generated.slug}`,
      path: `${reference.dir}/${generated.slug}.md`,
      section: REFERENCE_SECTION,
      slug: generated.slug,
      id: generated.id,
      title: generated.title,
      description: generated.description,
      order: generated.order,
      aliases: generated.aliases,
      publish: true,
      content: generated.content,
      generated: true,
    };
    corpus.pages.push(page);
  }
  const ids = new Map<string, string>();
  for (const page of corpus.pages) {
    const other = ids.get(page.id);
    if (other) problems.add(`docs/${page.path}`, '/id', `id "${page.id}" is also used by docs/${other}`);
    ids.set(page.id, page.path);
  }
  problems.throwIfAny();

  const regionOrder = new Map(corpus.regions.map((r) => [r.name, r.dir]));
  corpus.pages.sort(
    (a, b) =>
      (regionOrder.get(a.section) ?? '').localeCompare(regionOrder.get(b.section) ?? '') ||
      a.order - b.order ||
      a.slug.localeCompare(b.slug),
  );
  for (const region of corpus.regions) region.page_count = corpus.pages.filter((p) => p.section === region.name).length;
  corpus.regions.sort((a, b) => a.dir.localeCompare(b.dir));
  const bundle = indexCorpus({ pages: corpus.pages, regions: corpus.regions.filter((r) => r.page_count > 0) });
  // Two modules: a search reads only the index, a page or the listing only the pages (src/engine/manual/bundle.ts).
  // JSON text parses faster than a literal.
  const { index, ...pages } = bundle;
  const module = (what: string, name: string, value: unknown): string =>
    `/** The bundled manual's ${what} (see src/engine/manual/bundle.ts for its type); JSON text parses faster than a literal. */\nexport const ${name}: unknown = ${parsedJson(value)};\n`;
  const sources = ['docs/*/*.md', 'spec/'];
  return new Map([
    ['generated/manual-pages.ts', withCodeHeader(sources, module('pages and regions', 'MANUAL_PAGES', pages))],
    ['generated/manual-index.ts', withCodeHeader(sources, module('search index', 'MANUAL_INDEX', index))],
    ...pagesRewritten,
  ]);
}
