// The presentation template language: parsing (with its errors and lines), the standalone-line rule, conditions,
// lists, filters, blocks, and whitespace-significant payloads kept byte for byte.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseTemplate, TemplateError } from '../../src/render/template/parse.js';
import { evaluateTemplate, type Block } from '../../src/render/template/evaluate.js';

function render(
  source: string,
  result: unknown,
  blocks: Record<string, Block> = {},
): Record<string, string | undefined> {
  return evaluateTemplate(parseTemplate(source), result, blocks);
}

describe('presentation templates', () => {
  it('drops lines that hold only a block tag, so the output reads like the template', () => {
    const out = render('{{#state}}\n# Title\n\n{{#if ok}}\nGreen.\n{{else}}\nRed.\n{{/if}}\n{{/state}}\n', {
      ok: true,
    });
    assert.equal(out['state'], '# Title\n\nGreen.');
  });

  it('keeps inline tags inline and tidies blank lines to one', () => {
    const out = render('{{#state}}\nA {{#if x}}x{{/if}}b.\n\n\n\n{{#if y}}\nY\n{{/if}}\n\nEnd\n{{/state}}', { x: 1 });
    assert.equal(out['state'], 'A xb.\n\nEnd');
  });

  it('walks lists with position values, bound names and an empty branch', () => {
    const source =
      '{{#state}}\n{{#each rows as row}}\n{{@number}}. {{name | code}}{{#if @last}} (last){{/if}} of {{@root.title}}\n{{else}}\nNone.\n{{/each}}\n{{/state}}';
    assert.equal(
      render(source, { title: 'T', rows: [{ name: 'a' }, { name: 'b' }] })['state'],
      '1. `a` of T\n2. `b` (last) of T',
    );
    assert.equal(render(source, { title: 'T', rows: [] })['state'], 'None.');
  });

  it('walks a map as key and value entries', () => {
    assert.equal(
      render('{{#state}}\n{{#each m}}\n- {{key}}: {{value}}\n{{/each}}\n{{/state}}', { m: { a: 1, b: 2 } })['state'],
      '- a: 1\n- b: 2',
    );
  });

  it('evaluates comparisons, negation, and/or', () => {
    const t = "{{#state}}\n{{#if a == 'x' and !b or n >= 3}}yes{{else}}no{{/if}}\n{{/state}}";
    assert.equal(render(t, { a: 'x' })['state'], 'yes');
    assert.equal(render(t, { a: 'x', b: true })['state'], 'no');
    assert.equal(render(t, { a: 'y', n: 3 })['state'], 'yes');
    assert.equal(render(t, { a: 'y', n: '3' })['state'], 'no');
  });

  it('applies filters in order', () => {
    const out = render(
      "{{#state}}\n{{sha | short | code}} {{n | plural 'file'}} {{one | plural 'match' 'matches'}} {{xs | code-list}} {{c | cell}} {{missing | default 'none'}}\n{{/state}}",
      {
        sha: '0123456789abcdef0123',
        n: 3,
        one: 1,
        xs: ['a', 'b`c'],
        c: 'a|b\nc',
      },
    );
    assert.equal(out['state'], '`0123456789ab` 3 files 1 match `a`, `` b`c `` a\\|b c none');
  });

  it('keeps verbatim and fenced payloads exactly, leading and trailing spaces and blank lines included', () => {
    const page = '  indented\n\n\n\ntrailing   \n';
    const out = render('{{#state}}x{{/state}}\n{{#evidence}}\nPage:\n\n{{page | verbatim}}\n{{/evidence}}', { page });
    assert.ok(out['evidence']?.includes(page), JSON.stringify(out['evidence']));
    const fenced = render('{{#state}}\n{{out | fence}}\n{{/state}}', { out: 'a ```\n  b  ' })['state'];
    assert.equal(fenced, '````text\na ```\n  b  \n````');
    // A file's final line break ends its last line: the fence closes right after it, and blank lines before it stay.
    const file = render("{{#state}}\n{{out | fence 'toml'}}\n{{/state}}", { out: 'a = 1\n\n' })['state'];
    assert.equal(file, '```toml\na = 1\n\n```');
  });

  it('calls blocks with resolved arguments and the whole result', () => {
    const out = render(
      "{{#state}}\n{{> greet 'hi' who}}\n{{/state}}",
      { who: 'you' },
      { greet: ([a, b], r) => `${String(a)} ${String(b)} ${JSON.stringify(r)}` },
    );
    assert.equal(out['state'], 'hi you {"who":"you"}');
  });

  it("keeps a block's Markdown out of the tidying: quoted output keeps trailing spaces and blank lines", () => {
    const output = '```text\ntrail   \n\n\n\nx\n```';
    const out = render('{{#state}}\nS\n{{/state}}\n{{#evidence}}\n{{> out}}\n{{/evidence}}', {}, { out: () => output });
    assert.equal(out['evidence'], output);
  });

  it('leaves an empty section out', () => {
    const out = render('{{#state}}\nS\n{{/state}}\n{{#evidence}}\n{{#if nothing}}\nE\n{{/if}}\n{{/evidence}}', {});
    assert.deepEqual(Object.keys(out), ['state']);
  });

  for (const [source, message] of [
    ['plain text', /text outside a section/],
    ['{{#evidence}}x{{/evidence}}', /no \{\{#state\}\} section/],
    ['{{#evidence}}x{{/evidence}}\n{{#state}}y{{/state}}', /out of order/],
    ['{{#state}}\n{{#if a}}\nx\n{{/state}}', /closes \{\{#if\}\} \(line 2\)/],
    ['{{#state}}\n{{#if}}x{{/if}}{{/state}}', /condition is missing/],
    ['{{#state}}{{this.x}}{{/state}}', /only meaningful inside/],
    ['{{#state}}{{a |}}{{/state}}', /filter name is missing/],
    ['{{#state}}{{#each a b}}{{/each}}{{/state}}', /#each path/],
    ['{{#state}}\n{{#if a}}x{{else}}y{{else}}z{{/if}}{{/state}}', /else\}\} after/],
  ] as const) {
    it(`refuses ${JSON.stringify(source)}`, () => {
      assert.throws(
        () => parseTemplate(source),
        (e: unknown) => e instanceof TemplateError && message.test(e.message),
      );
    });
  }
});

describe("the human view's compact summary", () => {
  it('shows the steps that failed or were cancelled with counts by outcome, and at most three diagnostics', async () => {
    const { readFileSync } = await import('node:fs');
    const { renderMarkdown } = await import('../../src/render/markdown/index.js');
    const result = JSON.parse(
      readFileSync(new URL('../fixtures/presentations/done/error-gate_failed.json', import.meta.url), 'utf8'),
    );
    const many = { ...result, diagnostics: Array.from({ length: 5 }, () => result.diagnostics[0]) };
    const full = renderMarkdown(many);
    const compact = renderMarkdown(many, { compact: true });
    const steps = result.steps as { label: string; outcome: string }[];
    const passed = steps.filter((s) => s.outcome === 'ok');
    assert.ok(passed.length > 0 && steps.some((s) => s.outcome === 'failed'));
    for (const s of passed) assert.ok(full.includes(`| ${s.label} |`) && !compact.includes(`| ${s.label} |`), s.label);
    for (const s of steps.filter((x) => x.outcome === 'failed'))
      assert.ok(compact.includes(`| ${s.label} | failed |`), s.label);
    assert.match(compact, new RegExp(`${steps.length} steps: .*${passed.length} ok`));
    assert.match(compact, /… and 2 more: `--render` or the JSON result shows them\./);
    assert.match(full, /^- \*\*/m);
  });
});
