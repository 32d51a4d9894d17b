// The index of the project's decision records: every `<number>-<slug>.md` under `<[map] dir>/decisions/`,
// listed by number with its title and a link, in a region discern owns in that folder's README.md. A title
// comes from the record's front matter `title`, else its first `#` heading (without a repeated number), else
// its file name.
import { readFile, readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { DEFAULT_MAP_DIR } from '../config/defaults.js';
import { frontMatterReader, type FrontMatterReader } from '../corpus/front-matter.js';
import { splitFrontMatter } from '../search/index.js';

const RECORD = /^(\d+)[-_ ]?(.*)\.md$/i;

export interface DecisionRecord {
  number: string;
  title: string;
  file: string;
}

/** `<[map] dir>/decisions`, project-relative. */
export function decisionsDir(mapDir: string | undefined): string {
  return `${(mapDir ?? DEFAULT_MAP_DIR).replace(/^(\.\/)+/, '').replace(/\/+$/, '')}/decisions`;
}

/** The records in the decisions folder, by number; undefined when there is no such folder. */
export async function decisionRecords(root: string, dir: string): Promise<DecisionRecord[] | undefined> {
  const abs = join(root, dir);
  const info = await stat(abs).catch(() => undefined);
  if (!info?.isDirectory()) return undefined;
  const records: DecisionRecord[] = [];
  // An unreadable folder lists no records rather than failing the plan (and the gate) with a crash.
  for (const file of (await readdir(abs).catch(() => [] as string[])).sort()) {
    const match = RECORD.exec(file);
    if (!match) continue;
    const full = join(abs, file);
    if (!(await stat(full).catch(() => undefined))?.isFile()) continue;
    const text = await readFile(full, 'utf8').catch(() => '');
    records.push({
      number: match[1] ?? '',
      title: titleOf(text, match[1] ?? '', match[2] ?? file, await frontMatterReader()),
      file,
    });
  }
  return records.sort((a, b) => Number(a.number) - Number(b.number) || (a.file < b.file ? -1 : 1));
}

function titleOf(text: string, number: string, slug: string, readFrontMatter: FrontMatterReader): string {
  const split = splitFrontMatter(text);
  if (split.frontMatter !== null) {
    const read = readFrontMatter(split.frontMatter);
    const title = read.ok ? read.data['title'] : undefined;
    if (typeof title === 'string' && title.trim() !== '') return oneLine(title);
  }
  const heading = /^#[ \t]+(.+?)[ \t#]*$/m.exec(split.body)?.[1];
  if (heading) {
    const withoutNumber = heading
      .replace(new RegExp(`^(?:ADR[ -]?)?0*${Number(number)}\\s*(?:[—–:.-]\\s*)?`, 'i'), '')
      .trim();
    return oneLine(withoutNumber || heading);
  }
  const words = slug.replace(/[-_]+/g, ' ').trim();
  return words ? words.charAt(0).toUpperCase() + words.slice(1) : `Decision ${number}`;
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/** The index's Markdown: one line per record. */
export function indexBody(records: readonly DecisionRecord[]): string {
  if (records.length === 0) return '_No decision records yet._';
  return records
    .map((r) => `- ${r.number} — [${r.title.replace(/([[\]])/g, '\\$1')}](${encodeURI(r.file)})`)
    .join('\n');
}
