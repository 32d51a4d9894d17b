// The JUnit tag scanner reads attributes as producers write them, including no space after a quoted value, and
// stays linear on a tag that is one long run of name characters.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { scanTags } from '../../src/engine/diagnostics/xml-scan.js';

const attrs = (xml: string): [string, string][][] =>
  [...scanTags(xml)].filter((t) => !t.closing).map((t) => [...t.attrs]);

test('attributes: spaced, tabbed, namespaced, single-quoted, and with no space after a quoted value', () => {
  assert.deepEqual(
    attrs(
      `<testsuite\n  name="a"\ttests='1' xml:lang="en" failures = "1"><testcase name="q"file="z" line='3'classname="C"/></testsuite>`,
    ),
    [
      [
        ['name', 'a'],
        ['tests', '1'],
        ['xml:lang', 'en'],
        ['failures', '1'],
      ],
      [
        ['name', 'q'],
        ['file', 'z'],
        ['line', '3'],
        ['classname', 'C'],
      ],
    ],
  );
});

test('a tag of 200,000 name characters with no "=" is scanned (linear, not quadratic)', () => {
  assert.deepEqual(attrs(`<testsuite ${'a'.repeat(200_000)} name="n"/>`), [[['name', 'n']]]);
});
