// A reviewed Markdown snapshot per verb and mode. Each fixture under test/fixtures/presentations/<verb>/ is an
// envelope a verb test really produced (re-recorded by `npm run snapshots:update`, with what varies between runs
// made neutral); it must still validate against the published result schema, and its authored Markdown must
// equal the reviewed <mode>.md beside it, which must exist. A failed mode's Markdown ends with its registered
// next action. UPDATE_SNAPSHOTS=1 rewrites the .md files from the fixtures as they are: review the diff.
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { VERBS, VERB_IDS } from '../../generated/registry.js';
import type { DiscernResult } from '../../generated/types.js';
import { renderMarkdown } from '../../src/render/markdown/index.js';
import { renderTerminal } from '../../src/render/terminal/index.js';
import { terminalOptions } from '../../src/render/terminal/options.js';
import { FIXTURES, fixtureName } from '../helpers/presentation-fixtures.js';
import { assertPublishedResult } from '../helpers/published-schema.js';

const update = process.env['UPDATE_SNAPSHOTS'] === '1';
const verbs = Object.keys(VERB_IDS);

describe('authored Markdown per verb and mode', () => {
  for (const verb of verbs) {
    const dir = join(FIXTURES, fixtureName(verb));
    const modes = existsSync(dir)
      ? readdirSync(dir)
          .filter((f) => f.endsWith('.json'))
          .map((f) => f.slice(0, -5))
          .sort()
      : [];
    describe(verb, () => {
      it('has fixtures for a success and a failure', () => {
        assert.ok(
          modes.some((m) => m === 'ok' || m === 'dry-run'),
          `${verb}: no success fixture in ${dir}`,
        );
        assert.ok(
          modes.some((m) => m.startsWith('error-')),
          `${verb}: no failure fixture in ${dir}`,
        );
      });
      it('has no snapshot without its fixture', () => {
        const orphans = existsSync(dir)
          ? readdirSync(dir).filter((f) => f.endsWith('.md') && !modes.includes(f.slice(0, -3)))
          : [];
        assert.deepEqual(orphans, [], `${verb}: snapshots whose fixture is gone (\`npm run snapshots:update\`)`);
      });
      for (const mode of modes) {
        it(mode, () => {
          const result = JSON.parse(readFileSync(join(dir, `${mode}.json`), 'utf8')) as DiscernResult;
          assert.equal(result.verb, verb);
          assertPublishedResult(result);
          const markdown = renderMarkdown(result);
          const snapshot = join(dir, `${mode}.md`);
          if (update) writeFileSync(snapshot, markdown);
          assert.ok(
            existsSync(snapshot),
            `${verb} ${mode}: no reviewed snapshot ${snapshot}; \`npm run snapshots:update\` records it, then review it`,
          );
          assert.equal(
            markdown,
            readFileSync(snapshot, 'utf8'),
            `${verb} ${mode}: the Markdown differs from ${snapshot} (\`npm run snapshots:update\` re-records it)`,
          );
          assertSectionOrder(markdown);
          // Drawn for a terminal that is a file (--render and the human view, redirected): no control sequence.
          for (const compact of [false, true]) {
            const drawn = renderTerminal(
              markdown,
              terminalOptions(
                { noColor: false, plain: false, theme: 'auto' },
                { env: { LANG: 'C.UTF-8' }, isTTY: false, columns: 80 },
                compact,
              ),
            );
            assert.ok(!drawn.includes('\x1b'), `${verb} ${mode}: a redirected terminal view holds no escape sequence`);
          }
          // The human view's compact summary selects, never reinterprets: the same state opens it, the same next
          // action closes it.
          const compact = renderMarkdown(result, { compact: true });
          assert.equal(
            compact.split('\n## ')[0],
            markdown.split('\n## ')[0],
            `${verb} ${mode}: the compact view opens with the same state`,
          );
          const nextAt = markdown.lastIndexOf('\n## Next\n');
          if (nextAt >= 0)
            assert.ok(
              compact.endsWith(markdown.slice(nextAt)),
              `${verb} ${mode}: the compact view ends with the same next action`,
            );
          for (const payload of whitespaceSignificant(result))
            assert.ok(
              markdown.includes(payload),
              `${verb} ${mode}: a whitespace-significant payload is kept byte for byte`,
            );
          if (!result.ok) {
            const next = result.hints[result.hints.length - 1] ?? '';
            assert.ok(next.length > 0, `${verb} ${mode}: a failed result carries a next action`);
            assert.ok(
              markdown.trimEnd().endsWith(next.trimEnd()),
              `${verb} ${mode}: the Markdown ends with the next action`,
            );
          }
        });
      }
    });
  }

  it('covers every verb of the registry', () => {
    assert.deepEqual(Object.keys(VERBS).length, verbs.length);
  });
});

/** Manual and map pages and setup pages: reproduced exactly, leading and trailing whitespace included. */
function whitespaceSignificant(result: DiscernResult): string[] {
  const data = (result.ok ? result.data : undefined) as
    Record<string, { content?: unknown; body?: unknown } | undefined> | undefined;
  return [data?.['doc']?.content, data?.['page']?.body].filter(
    (p): p is string => typeof p === 'string' && p.length > 0,
  );
}

/** Owner attention, other actions and the next action come last, in that order. */
function assertSectionOrder(markdown: string): void {
  const at = ['## Owner attention', '## Other actions', '## Next']
    .map((h) => markdown.indexOf(`\n${h}\n`))
    .filter((i) => i >= 0);
  assert.deepEqual(
    at,
    [...at].sort((a, b) => a - b),
    'sections out of order',
  );
}
