// The pure parts of setup, table by table: the recipe over a proposal, the working file read back with its
// evidence, the pages and their owner moments, the next command for a phase, the JSON key locator for recipe
// lines, and the write probe.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { locateJsonKey } from '../../../src/engine/config/locate-json.js';
import { setupBook } from '../../../src/engine/setup/pages.js';
import { applyRecipe, proposalFromConfig, type SetupProposal } from '../../../src/engine/setup/proposal.js';
import { nextSetupCommand, type SetupState } from '../../../src/engine/setup/state.js';
import { probeWrites } from '../../../src/engine/state/write-probe.js';
import { tempDir } from '../../helpers/scratch-repo.js';

const proposal: SetupProposal = {
  project: { name: 'web-shop', slug: 'web-shop', agents: ['claude_code', 'codex'], agents_why: 'the default' },
  trunk: { name: 'main', why: 'checked out' },
  ensure: [{ run: 'npm ci', why: 'the lockfile' }],
  jobs: [
    { name: 'lint', stage: 'check', run: ['npm run lint'], why: 'a lint script' },
    { name: 'test', stage: 'test', run: ['npm test'], why: 'a test script' },
  ],
  scopes: [{ name: 'docs', paths: ['docs/**'], neutral: true, gate: [], why: 'only docs' }],
};

describe('applyRecipe', () => {
  it('replaces what it names, keeps the evidence of a command it repeats, and derives a slug from a new name', () => {
    const { proposal: p, applied } = applyRecipe(
      proposal,
      {
        project: { name: 'Web Shop 2' },
        repository: { ensure: ['npm ci', 'make deps'] },
        jobs: { test: 'npm test', e2e: { stage: 'test', run: ['a', 'b'], timeout: 9 } },
      },
      '/x/setup.json',
    );
    assert.deepEqual(applied, ['project.name', 'repository.ensure', 'jobs']);
    assert.equal(p.project.name, 'Web Shop 2');
    assert.equal(p.project.slug, 'web-shop-2');
    assert.deepEqual(p.ensure, [
      { run: 'npm ci', why: 'the lockfile; the recipe keeps it' },
      { run: 'make deps', why: 'set by the setup recipe setup.json' },
    ]);
    assert.deepEqual(p.jobs, [
      { name: 'test', stage: 'test', run: ['npm test'], why: 'a test script; the recipe keeps it' },
      { name: 'e2e', stage: 'test', run: ['a', 'b'], timeout: 9, why: 'set by the setup recipe setup.json' },
    ]);
    assert.deepEqual(p.scopes, proposal.scopes, 'scopes it leaves out are proposed as usual');
    assert.deepEqual(proposal.jobs.length, 2, 'the proposal itself is not changed');
  });
  it('a slug the recipe gives wins over the derived one', () => {
    assert.equal(
      applyRecipe(proposal, { project: { name: 'Other', slug: 'mine' } }, 'r.toml').proposal.project.slug,
      'mine',
    );
  });
});

describe('proposalFromConfig', () => {
  it('keeps the evidence of what still stands and says what the owner changed or added', () => {
    const p = proposalFromConfig(
      {
        project: { name: 'web-shop' },
        repository: { trunk: 'main', ensure: ['npm ci'] },
        jobs: { lint: 'npx eslint .', test: 'npm test', smoke: 'node x' },
      },
      proposal,
      { root: '/r/web-shop', trunk: 'main' },
    );
    assert.deepEqual(
      p.jobs.map((j) => [j.name, j.why]),
      [
        ['lint', 'changed on the setup branch; setup proposed `npm run lint`'],
        ['test', 'a test script'],
        ['smoke', 'added on the setup branch'],
      ],
    );
    assert.deepEqual(p.ensure, [{ run: 'npm ci', why: 'the lockfile' }]);
    assert.deepEqual(p.scopes, []);
    assert.equal(p.trunk.why, 'checked out');
    assert.equal(p.project.agents_why, 'none named: the default agents');
  });
});

describe('setupBook', () => {
  it('numbers the pages from 1; every moment is in the spine once and every page refers to moments there', () => {
    const book = setupBook(proposal, { root: '/r', branch: 'discern/setup' });
    assert.deepEqual(
      book.pages.map((p) => p.number),
      [1, 2, 3, 4, 5, 6],
    );
    assert.deepEqual(
      book.pages.map((p) => p.title),
      ['Trunk and identity', 'Ensure commands', 'Job `lint`', 'Job `test`', 'Scopes', 'Agents, then proof and landing'],
    );
    const ids = book.moments.map((m) => m.id);
    assert.deepEqual(ids, ['trunk', 'identity', 'ensure', 'job:lint', 'job:test', 'scopes', 'agents', 'land']);
    for (const page of book.pages) for (const id of page.owner_moments) assert.ok(ids.includes(id));
    assert.equal(book.moments.find((m) => m.id === 'land')?.phase, 'done');
    assert.deepEqual(
      book.moments.filter((m) => m.relay_protected).map((m) => m.id),
      ['trunk', 'agents', 'land'],
    );
  });
  it('with no job found, one page asks for one', () => {
    const book = setupBook({ ...proposal, jobs: [] }, { root: '/r', branch: 'discern/setup' });
    assert.ok(book.pages.some((p) => p.title === 'Jobs' && p.owner_moments[0] === 'jobs'));
  });
});

describe('nextSetupCommand', () => {
  const state = { phase: 'begun', draft_commit: 'd', proven: undefined } as unknown as SetupState;
  const cases: [string, Partial<SetupState>, string | undefined, string][] = [
    ['an untouched draft', {}, 'd', 'discern setup step 1'],
    ['the owner committed', {}, 'e', 'discern setup done'],
    ['proven, unchanged', { phase: 'done', proven: { commit: 'e', at: '' } }, 'e', 'discern setup accept'],
    ['proven, then moved', { phase: 'done', proven: { commit: 'e', at: '' } }, 'f', 'discern setup done'],
    ['the branch is gone', {}, undefined, 'discern setup begin'],
  ];
  for (const [name, change, tip, next] of cases)
    it(name, () => assert.equal(nextSetupCommand({ ...state, ...change }, tip), next));
});

describe('locateJsonKey', () => {
  const text =
    '{\n  "project": { "name": "x" },\n  "jobs": {\n    "test": 5,\n    "lint": ["a", "b"]\n  },\n  "odd \\"key\\"": 1\n}\n';
  const cases: [string[], { line: number; column: number } | undefined][] = [
    [['project'], { line: 2, column: 3 }],
    [['project', 'name'], { line: 2, column: 16 }],
    [['jobs', 'test'], { line: 4, column: 5 }],
    [['jobs', 'lint', '1'], { line: 5, column: 5 }],
    [['odd "key"'], { line: 7, column: 3 }],
    [['scopes'], undefined],
  ];
  for (const [path, at] of cases) it(path.join('.'), () => assert.deepEqual(locateJsonKey(text, path), at));
});

describe('probeWrites', () => {
  const dir = tempDir('discern-probe-');
  it('a new file in a directory that exists, or deeper under it, can be written; nothing stays behind', async () => {
    assert.deepEqual(await probeWrites([join(dir, 'a.json'), join(dir, 'x', 'y', 'b.json')]), { ok: true });
    writeFileSync(join(dir, 'exists'), '');
    assert.deepEqual(await probeWrites([join(dir, 'exists')]), { ok: true });
  });
  it('a file standing where a directory must be is the exact path that blocks', async () => {
    writeFileSync(join(dir, 'blocker'), '');
    assert.deepEqual(await probeWrites([join(dir, 'a.json'), join(dir, 'blocker', 'deeper', 'c.json')]), {
      ok: false,
      path: join(dir, 'blocker'),
      reason: 'ENOTDIR',
    });
  });
  it('a directory where the file must be', async () => {
    mkdirSync(join(dir, 'adir'));
    assert.deepEqual(await probeWrites([join(dir, 'adir')]), {
      ok: false,
      path: join(dir, 'adir'),
      reason: 'it is a directory',
    });
  });
});
