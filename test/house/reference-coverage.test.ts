// The reference coverage table (docs/20-reference/reference-coverage.md) is held to its own rules: four cells a
// row, one of six statuses, a named test that exists for each row that holds in whole or in part, none for the
// rest, and each item once. The counts a closing note quotes come from tools/reference-coverage.ts.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import {
  NO_TEST,
  STATUSES,
  parseCoverage,
  readCoverage,
  statusCounts,
  tableCells,
  testReference,
  type CoverageRow,
} from '../../tools/reference-coverage.js';

const repo = fileURLToPath(new URL('../..', import.meta.url));
const { badHeaders, rows } = readCoverage(repo);
const where = (row: CoverageRow): string => `line ${row.line} (${row.item})`;
/** The only registered slugs a check may keep for later: tidy has no check that raises them yet. */
const RESERVABLE = ['diagrams_misaligned', 'tables_malformed'];

describe('the reference coverage table', () => {
  it('has rows, under tables whose header is exactly Item, Reference, Status, Checked by', () => {
    assert.deepEqual(badHeaders, []);
    assert.ok(rows.length > 200, `only ${rows.length} rows`);
  });

  it('gives every row four cells, an item and a reference', () => {
    for (const row of rows) {
      assert.equal(row.cells.length, 4, `${where(row)} has ${row.cells.length} cells`);
      assert.ok(row.item.length > 0, `${where(row)} names no item`);
      assert.ok(row.reference.length > 0, `${where(row)} names no reference`);
    }
  });

  it('gives every row one of the six statuses', () => {
    for (const row of rows)
      assert.ok((STATUSES as readonly string[]).includes(row.status), `${where(row)}: status "${row.status}"`);
  });

  it('names, for each row that holds in whole or in part, a test file that holds the quoted title', () => {
    const files = new Map<string, string>();
    for (const row of rows.filter((r) => r.status === 'holds' || r.status === 'partial')) {
      const partial = row.status === 'partial';
      const ref = testReference(row.checkedBy, partial);
      assert.ok(ref, `${where(row)}: "Checked by" is not \`test/…/x.test.ts\` › title`);
      assert.match(ref.file, /^test\/.+\.test\.ts$/, `${where(row)}: ${ref.file} is not a test file`);
      assert.ok(ref.title.length >= 6, `${where(row)}: the title substring "${ref.title}" is too short to name a test`);
      if (partial) assert.ok(ref.note, `${where(row)}: a partial row says in parentheses what does not hold`);
      if (!files.has(ref.file)) {
        assert.ok(existsSync(`${repo}${ref.file}`), `${where(row)}: ${ref.file} does not exist`);
        files.set(ref.file, readFileSync(`${repo}${ref.file}`, 'utf8'));
      }
      assert.ok(files.get(ref.file)?.includes(ref.title), `${where(row)}: ${ref.file} has no test "${ref.title}"`);
    }
  });

  it('names no test for a row that is missing, left out, reserved or unexercised', () => {
    for (const row of rows.filter((r) => r.status !== 'holds' && r.status !== 'partial'))
      assert.equal(row.checkedBy, NO_TEST, `${where(row)} is ${row.status}: "Checked by" is ${NO_TEST}`);
  });

  it('keeps reserved for the two slugs no check raises yet', () => {
    for (const row of rows.filter((r) => r.status === 'reserved'))
      assert.ok(
        RESERVABLE.some((slug) => row.item.includes(`\`${slug}\``)),
        `${where(row)}: only ${RESERVABLE.join(' and ')} may be reserved`,
      );
  });

  it('lists each item once', () => {
    const seen = new Map<string, number>();
    for (const row of rows) {
      const first = seen.get(row.item);
      assert.equal(first, undefined, `${where(row)} repeats the item of line ${first ?? 0}`);
      seen.set(row.item, row.line);
    }
  });

  it('counts every row under exactly one status', () => {
    const counts = statusCounts(rows);
    assert.equal(
      STATUSES.reduce((sum, status) => sum + counts[status], 0),
      rows.length,
    );
  });
});

describe('reading the table', () => {
  it('splits cells on unescaped pipes only', () => {
    assert.deepEqual(tableCells('| a | `b\\|c` | d |'), ['a', '`b|c`', 'd']);
  });

  it('reads only tables headed by Item, and reports a header with other columns', () => {
    const page = [
      '## One',
      '',
      '| Status | Meaning |',
      '| --- | --- |',
      '| holds | yes |',
      '',
      '| Item | Reference | Status | Checked by |',
      '| --- | --- | --- | --- |',
      '| x | 001 §A | missing | — |',
      '',
      '## Two',
      '',
      '| Item | Where | Status |',
      '| --- | --- | --- |',
      '| y | 001 §B | holds |',
    ].join('\n');
    const table = parseCoverage(page);
    assert.deepEqual(table.badHeaders, [13]);
    assert.deepEqual(
      table.rows.map((r) => [r.section, r.item, r.status, r.cells.length]),
      [
        ['One', 'x', 'missing', 4],
        ['Two', 'y', 'holds', 3],
      ],
    );
  });

  it('reads a test reference, and the note of a partial one', () => {
    assert.deepEqual(testReference('`test/a.test.ts` › does (a thing) well', false), {
      file: 'test/a.test.ts',
      title: 'does (a thing) well',
    });
    assert.deepEqual(testReference('`test/a.test.ts` › does a thing (but not that)', true), {
      file: 'test/a.test.ts',
      title: 'does a thing',
      note: 'but not that',
    });
    assert.equal(testReference('—', false), undefined);
  });
});
