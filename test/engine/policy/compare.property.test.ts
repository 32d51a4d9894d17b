// A property of the policy comparison accept applies: for random edits of an effort's discern.toml, either a
// change the owner must approve is reported (the landing is refused as an unconsented policy change), or the
// edited file grants exactly the trunk's authority and requires every trunk job as the trunk has it. It fails
// when a shape that loosens the rules is classified as needing no approval.
/* eslint-disable @typescript-eslint/no-explicit-any -- edits write into arbitrary tables of a TOML document */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import type { DiscernConfig } from '../../../generated/types.js';
import { canonicalJson } from '../../../src/engine/gate/canonical-json.js';
import { effortPolicyChanges, needsPolicyApproval } from '../../../src/engine/policy/compare.js';
import { sized } from '../../helpers/test-size.js';

const RUNS = sized('DISCERN_POLICY_RUNS', { bounded: 400, full: 5000 });
const SEED = 20261202;

const TRUNK: DiscernConfig = {
  project: { name: 'trust' },
  repository: { trunk: 'main' },
  jobs: {
    lint: 'eslint .',
    test: { run: ['npm test'], timeout: 300 },
    e2e: { stage: 'test', run: 'npm run e2e', timeout: 600 },
  },
  scopes: { docs: { paths: ['docs/**'], neutral: true }, api: { paths: ['src/api/**'] } },
  acceptance: { pre_authorized: ['docs'] },
  gate: { timeout: 900, fail_fast: true },
  standards: { size: { direction: 'down', limit: 10, run: 'echo DISCERN_METRIC size 5' } },
  checkpoints: { api: { scope: 'api', question: 'Is the API change compatible?' } },
};

/** The edited file as a loose document: edits reach into any table. */
type Doc = Record<string, any>;
type Edit = (c: Doc) => void;

const names = fc.constantFrom('lint', 'test', 'e2e', 'docs', 'api', 'all', 'smoke', 'new');
const commands = fc.constantFrom('true', ':', 'eslint .', 'npm test', 'npm run e2e', 'exit 0', '');
const numbers = fc.constantFrom(0, 1, 5, 10, 60, 300, 600, 900, 5000);

/** One edit an agent might make to its copy of the trunk's discern.toml. */
const edit: fc.Arbitrary<Edit> = fc.oneof(
  names.map((n) => (c: Doc) => void delete c.jobs?.[n]),
  fc.tuple(names, commands).map(
    ([n, cmd]) =>
      (c: Doc) =>
        void ((c.jobs ??= {})[n] = cmd),
  ),
  fc.tuple(names, numbers).map(([n, t]) => (c: Doc) => {
    const job = c.jobs?.[n];
    if (job && typeof job === 'object' && !Array.isArray(job)) job.timeout = t;
  }),
  fc.tuple(names, fc.constantFrom('fix', 'build', 'check', 'test')).map(([n, stage]) => (c: Doc) => {
    const job = c.jobs?.[n];
    if (job && typeof job === 'object' && !Array.isArray(job)) job.stage = stage;
  }),
  fc.tuple(names, fc.constantFrom(['**'], ['src/**'], ['docs/**'], ['docs/**', 'src/**'])).map(
    ([n, paths]) =>
      (c: Doc) =>
        void ((c.scopes ??= {})[n] = { ...(c.scopes[n] ?? {}), paths }),
  ),
  fc.tuple(names, fc.boolean()).map(([n, neutral]) => (c: Doc) => {
    if (c.scopes?.[n]) c.scopes[n].neutral = neutral;
  }),
  fc
    .subarray(['docs', 'api', 'all', 'new'])
    .map((list) => (c: Doc) => void ((c.acceptance ??= {}).pre_authorized = list)),
  fc.constant((c: Doc) => void delete c.acceptance),
  numbers.map((t) => (c: Doc) => void ((c.gate ??= {}).timeout = t)),
  fc.boolean().map((b) => (c: Doc) => void ((c.gate ??= {}).fail_fast = b)),
  fc.constantFrom('main', 'agent/work', 'release').map((t) => (c: Doc) => void ((c.repository ??= {}).trunk = t)),
  fc.constantFrom('trust', 'renamed').map((name) => (c: Doc) => void ((c.project ??= {}).name = name)),
  numbers.map((limit) => (c: Doc) => {
    if (c.standards?.size) c.standards.size.limit = limit;
  }),
  fc.constant((c: Doc) => void delete c.standards?.size),
  names.map((n) => (c: Doc) => void ((c.generated ??= {})[n] = { paths: ['src/**'], run: 'true' })),
  fc.constant((c: Doc) => void delete c.checkpoints),
);

interface Job {
  run: string[];
  stage: string | undefined;
  timeout: unknown;
}

const STAGES: Record<string, string> = {
  format: 'fix',
  build: 'build',
  lint: 'check',
  typecheck: 'check',
  test: 'test',
  smoke: 'test',
};

function job(name: string, value: unknown): Job {
  const t =
    value !== null && typeof value === 'object' && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : { run: value };
  const run = t['run'];
  return {
    run: (Array.isArray(run) ? run : [run]).map((x) => String(x).trim()),
    stage: (t['stage'] as string | undefined) ?? STAGES[name],
    timeout: t['timeout'],
  };
}

/** The timeout holds at least as tight as the trunk's: the same, or a real limit below it. */
function noLooser(trunk: unknown, change: unknown): boolean {
  if (canonicalJson(trunk) === canonicalJson(change)) return true;
  return typeof trunk === 'number' && typeof change === 'number' && change > 0 && (trunk === 0 || change < trunk);
}

describe('policy comparison: random edits of an effort discern.toml', () => {
  it('either need the owner’s approval, or keep the trunk’s authority and every trunk job', () => {
    fc.assert(
      fc.property(fc.array(edit, { minLength: 1, maxLength: 5 }), (edits) => {
        const edited = JSON.parse(JSON.stringify(TRUNK)) as Doc;
        for (const e of edits) e(edited);
        const changes = effortPolicyChanges(TRUNK, TRUNK, edited as DiscernConfig);
        if (needsPolicyApproval(changes).length > 0) return;
        // A loosened limit is left to its own proposal and approval (approve_standard), never waved through.
        for (const c of changes.filter((x) => x.approval === 'approve_standard')) assert.equal(c.kind, 'loosening');
        const after = edited as DiscernConfig;
        // Authority: the same scopes; pre_authorized no wider than the trunk's.
        assert.equal(canonicalJson(after.scopes), canonicalJson(TRUNK.scopes), 'the trunk scopes');
        const granted = after.acceptance?.pre_authorized ?? [];
        for (const name of granted)
          assert.ok(TRUNK.acceptance?.pre_authorized?.includes(name), `${name} is granted by the trunk`);
        assert.equal(canonicalJson(after.generated), canonicalJson(TRUNK.generated));
        assert.equal(after.repository?.trunk, TRUNK.repository?.trunk);
        // Every trunk job, as the trunk has it (a tighter timeout allowed).
        for (const [name, value] of Object.entries(TRUNK.jobs ?? {})) {
          const theirs = (after.jobs as Record<string, unknown> | undefined)?.[name];
          assert.ok(theirs !== undefined, `${name} is still required`);
          const a = job(name, value);
          const b = job(name, theirs);
          assert.deepEqual(b.run, a.run, `${name} runs the trunk's command`);
          assert.equal(b.stage, a.stage);
          assert.ok(noLooser(a.timeout, b.timeout), `${name}'s timeout is no looser`);
        }
        assert.equal(after.gate?.fail_fast, TRUNK.gate?.fail_fast);
        assert.ok(noLooser(TRUNK.gate?.timeout, after.gate?.timeout), 'the gate timeout is no looser');
        // A standard the trunk holds is kept, with its direction.
        assert.ok(after.standards?.['size'] !== undefined);
        assert.equal(after.standards['size']?.direction, 'down');
        assert.ok(after.checkpoints?.['api'] !== undefined, 'the trunk checkpoint is kept');
      }),
      { seed: SEED, numRuns: RUNS },
    );
  });

  it('a rule the trunk gained after the effort left it is not one the effort removes', () => {
    const base = JSON.parse(JSON.stringify(TRUNK)) as DiscernConfig;
    const trunk = { ...TRUNK, jobs: { ...TRUNK.jobs, audit: 'npm audit' } } as DiscernConfig;
    assert.deepEqual(effortPolicyChanges(trunk, base, base), []);
    const dropped = { ...base, jobs: { lint: 'eslint .' } } as DiscernConfig;
    assert.deepEqual(
      needsPolicyApproval(effortPolicyChanges(trunk, base, dropped)).map((c: Doc) => c.key),
      ['jobs.test', 'jobs.e2e'],
    );
  });
});
