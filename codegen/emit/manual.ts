// Bundles the manual: every docs/<NN-section>/<slug>.md page (front matter checked against
// spec/meta/manual-page.schema.json) plus the reference pages generated from spec/, with the search index
// precomputed, into generated/manual.ts. docs/decisions/ holds decision records and is not part of the manual.
import { lstatSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { buildIndex, extractFields, splitFrontMatter, type SearchDocument } from '../../src/engine/search/index.js';
import type { ManualBundle, ManualPage, ManualRegion } from '../../src/engine/manual/types.js';
import { createAjv } from '../spec/ajv.js';
import { ProblemList } from '../spec/errors.js';
import type { SpecModel } from '../spec/types.js';
import type { Contracts } from '../schemas/contracts.js';
import type { Grammar } from '../schemas/cli-grammar.js';
import { referencePages } from './reference-pages.js';
import { withCodeHeader } from './provenance.js';

const SECTION_DIR = /^(\d\d)-([a-z][a-z-]*)$/;
const PAGE_FILE = /^([a-z0-9][a-z0-9-]*)\.md$/;
export const REFERENCE_SECTION = 'reference';

interface FrontMatter {
  id: string;
  title: string;
  description: string;
  order: number;
  aliases?: string[];
}

export function emitManual(root: string, model: SpecModel, contracts: Contracts, grammar: Grammar): Map<string, string> {
  const problems = new ProblemList();
  const ajv = createAjv();
  const validateFrontMatter = ajv.compile(JSON.parse(readFileSync(join(root, 'spec/meta/manual-page.schema.json'), 'utf8')) as object);
  const docsDir = join(root, 'docs');
  const pages: ManualPage[] = [];
  const regions: ManualRegion[] = [];
  for (const dir of readdirSync(docsDir).sort()) {
    const section = SECTION_DIR.exec(dir);
    if (!section) continue; // decisions/ and any non-section entry are not manual pages
    const name = section[2] ?? dir;
    for (const file of readdirSync(join(docsDir, dir)).sort()) {
      const rel = `docs/${dir}/${file}`;
      const info = lstatSync(join(docsDir, dir, file));
      if (info.isSymbolicLink()) {
        problems.add(rel, '', 'manual pages may not be symbolic links (the manual must not reach outside docs/)');
        continue;
      }
      const page = PAGE_FILE.exec(file);
      if (!info.isFile() || !page) {
        problems.add(rel, '', 'a manual section holds only <slug>.md files (lowercase letters, digits and -)');
        continue;
      }
      const slug = page[1] ?? file;
      const { frontMatter, body } = splitFrontMatter(readFileSync(join(docsDir, dir, file), 'utf8'));
      if (frontMatter === null) {
        problems.add(rel, '', 'missing front matter (--- id, title, description, order, aliases ---)');
        continue;
      }
      const meta = parseYaml(frontMatter) as unknown;
      if (!validateFrontMatter(meta)) {
        for (const e of validateFrontMatter.errors ?? []) problems.add(rel, e.instancePath, `front matter ${e.message ?? e.keyword}`);
        continue;
      }
      const fm = meta as FrontMatter;
      if (fm.id !== slug) problems.add(rel, '/id', `id must equal the file's slug "${slug}"`);
      pages.push(makePage(dir, name, slug, fm, body, false));
    }
    regions.push({ name, dir, title: sectionTitle(name), page_count: 0 });
  }
  let reference = regions.find((r) => r.name === REFERENCE_SECTION);
  if (!reference) {
    reference = { name: REFERENCE_SECTION, dir: `90-${REFERENCE_SECTION}`, title: sectionTitle(REFERENCE_SECTION), page_count: 0 };
    regions.push(reference);
  }
  for (const generated of referencePages(model, contracts, grammar)) {
    if (pages.some((p) => p.target === `${REFERENCE_SECTION}/${generated.slug}`)) {
      problems.add(`docs/${reference.dir}/${generated.slug}.md`, '', 'this page is generated from spec/; remove the hand-written file');
      continue;
    }
    pages.push(makePage(reference.dir, REFERENCE_SECTION, generated.slug, generated, generated.content, true));
  }
  const ids = new Map<string, string>();
  for (const page of pages) {
    const other = ids.get(page.id);
    if (other) problems.add(`docs/${page.path}`, '/id', `id "${page.id}" is also used by docs/${other}`);
    ids.set(page.id, page.path);
  }
  problems.throwIfAny();

  const regionOrder = new Map(regions.map((r) => [r.name, r.dir]));
  pages.sort((a, b) => (regionOrder.get(a.section) ?? '').localeCompare(regionOrder.get(b.section) ?? '') || a.order - b.order || a.slug.localeCompare(b.slug));
  for (const region of regions) region.page_count = pages.filter((p) => p.section === region.name).length;
  regions.sort((a, b) => a.dir.localeCompare(b.dir));
  const bundle: ManualBundle = { pages, regions: regions.filter((r) => r.page_count > 0), index: buildIndex(pages.map(searchDocument)) };
  const body = `/** The bundled manual (see src/engine/manual/bundle.ts for its type); JSON text parses faster than a literal. */\nexport const MANUAL_DATA: unknown = JSON.parse(${JSON.stringify(JSON.stringify(bundle))});\n`;
  return new Map([['generated/manual.ts', withCodeHeader(['docs/*/*.md', 'spec/'], body)]]);
}

function makePage(dir: string, section: string, slug: string, fm: FrontMatter, content: string, generated: boolean): ManualPage {
  return {
    target: `${section}/${slug}`,
    path: `${dir}/${slug}.md`,
    section,
    slug,
    id: fm.id,
    title: fm.title,
    description: fm.description,
    order: fm.order,
    aliases: fm.aliases ?? [],
    content,
    generated,
  };
}

function searchDocument(page: ManualPage): SearchDocument {
  const fields = extractFields(page.content);
  return {
    target: page.target,
    path: page.path,
    section: page.section,
    title: page.title,
    description: page.description,
    aliases: page.aliases,
    headings: fields.headings,
    code: fields.code,
    body: fields.body,
  };
}

function sectionTitle(name: string): string {
  const words = name.split('-');
  return [words[0] ? words[0].charAt(0).toUpperCase() + words[0].slice(1) : '', ...words.slice(1)].join(' ');
}
