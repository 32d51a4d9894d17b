// The reference coverage table (docs/20-reference/reference-coverage.md): its rows, read from the page's Markdown
// tables, and the number of rows per status. `npx tsx tools/reference-coverage.ts` prints the counts;
// test/house/reference-coverage.test.ts holds the table to its rules.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const COVERAGE_PAGE = 'docs/20-reference/reference-coverage.md';
export const STATUSES = ['holds', 'partial', 'missing', 'left-out', 'reserved', 'unexercised'] as const;
export type CoverageStatus = (typeof STATUSES)[number];
export const COLUMNS = ['Item', 'Reference', 'Status', 'Checked by'] as const;
/** What a row with no test says in its last column. */
export const NO_TEST = '—';

export interface CoverageRow {
  /** The `##` heading the row's table sits under. */
  section: string;
  /** 1-based line of the row in the page. */
  line: number;
  cells: string[];
  item: string;
  reference: string;
  status: string;
  checkedBy: string;
}

export interface CoverageTable {
  /** Lines of a coverage table whose header is not exactly the four columns. */
  badHeaders: number[];
  rows: CoverageRow[];
}

/** Splits a table row on its unescaped pipes; `\|` stays inside a cell. */
export function tableCells(line: string): string[] {
  const body = line.trim().replace(/^\|/, '').replace(/\|$/, '');
  const cells: string[] = [];
  let cell = '';
  for (let i = 0; i < body.length; i++) {
    const c = body[i];
    if (c === '\\' && body[i + 1] === '|') {
      cell += '|';
      i++;
    } else if (c === '|') {
      cells.push(cell.trim());
      cell = '';
    } else cell += c;
  }
  cells.push(cell.trim());
  return cells;
}

/** Every row of the page's coverage tables: the tables whose header names an Item column. */
export function parseCoverage(text: string): CoverageTable {
  const lines = text.split('\n');
  const rows: CoverageRow[] = [];
  const badHeaders: number[] = [];
  let section = '';
  let inTable = false;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? '';
    const heading = /^##\s+(.*)$/.exec(line);
    if (heading) section = heading[1]?.trim() ?? '';
    if (!line.trim().startsWith('|')) {
      inTable = false;
      continue;
    }
    if (!inTable) {
      // A table's first line is its header; the line after it is the delimiter row.
      inTable = true;
      const header = tableCells(line);
      if (header[0] !== 'Item') inTable = false;
      else if (header.join('|') !== COLUMNS.join('|')) badHeaders.push(i + 1);
      i++;
      if (!inTable) {
        // Skip the rest of a table that is not a coverage table (the status legend).
        while (i + 1 < lines.length && (lines[i + 1] ?? '').trim().startsWith('|')) i++;
      }
      continue;
    }
    const cells = tableCells(line);
    rows.push({
      section,
      line: i + 1,
      cells,
      item: cells[0] ?? '',
      reference: cells[1] ?? '',
      status: cells[2] ?? '',
      checkedBy: cells[3] ?? '',
    });
  }
  return { badHeaders, rows };
}

export interface TestReference {
  file: string;
  title: string;
  /** For a partial row: what does not hold, from the parenthesis after the title. */
  note?: string;
}

/** Reads "`test/…/x.test.ts` › title substring" with, for a partial row, a trailing "(what is missing)". */
export function testReference(checkedBy: string, partial: boolean): TestReference | undefined {
  const at = checkedBy.indexOf(' › ');
  if (at < 0) return undefined;
  const file = checkedBy
    .slice(0, at)
    .trim()
    .replace(/^`(.*)`$/, '$1');
  let title = checkedBy.slice(at + 3).trim();
  let note: string | undefined;
  if (partial) {
    const open = title.lastIndexOf(' (');
    if (open < 0 || !title.endsWith(')')) return { file, title };
    note = title.slice(open + 2, -1).trim();
    title = title.slice(0, open).trim();
  }
  return { file, title, ...(note !== undefined ? { note } : {}) };
}

export function statusCounts(rows: readonly CoverageRow[]): Record<CoverageStatus, number> {
  const counts = Object.fromEntries(STATUSES.map((s) => [s, 0])) as Record<CoverageStatus, number>;
  for (const row of rows)
    if ((STATUSES as readonly string[]).includes(row.status)) counts[row.status as CoverageStatus]++;
  return counts;
}

export function readCoverage(root: string): CoverageTable {
  return parseCoverage(readFileSync(`${root}${COVERAGE_PAGE}`, 'utf8'));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { rows } = readCoverage(fileURLToPath(new URL('..', import.meta.url)));
  // `--list <status>…` prints the items of those statuses, by section, instead of the counts.
  const listed = process.argv.slice(2).filter((a) => a !== '--list');
  if (process.argv.includes('--list')) {
    let section = '';
    for (const row of rows.filter((r) => listed.length === 0 || listed.includes(r.status))) {
      if (row.section !== section) process.stdout.write(`${(section = row.section)}\n`);
      process.stdout.write(`  ${row.status}: ${row.item}\n`);
    }
    process.exit(0);
  }
  const counts = statusCounts(rows);
  const width = Math.max(...STATUSES.map((s) => s.length));
  for (const status of STATUSES) process.stdout.write(`${status.padEnd(width)}  ${counts[status]}\n`);
  process.stdout.write(`${'total'.padEnd(width)}  ${rows.length}\n`);
}
