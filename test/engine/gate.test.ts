// The gate's pure decisions, table-tested: the plan for each mode, failed_stage narrowing, drift judgement,
// standards verdicts and the never-loosen rule, dirty-set and shortstat parsing, and evidence pruning.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readdirSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gateSettings } from '../../src/engine/config/gate-settings.js';
import { producerCatalog } from '../../src/engine/gate/producers.js';
import { failedStageOf, planGate, planSteps } from '../../src/engine/gate/plan.js';
import { judgeDrift } from '../../src/engine/gate/drift.js';
import { judgeStandard, verdictOf } from '../../src/engine/gate/standard-verdict.js';
import { loosenedStandards, readTrunkStandards } from '../../src/engine/gate/standards-limits.js';
import { newlyDirty, parseDirtySet } from '../../src/engine/gate/dirty-set.js';
import { parseShortstat } from '../../src/engine/gate/proof-summary.js';
import { pruneEvidence } from '../../src/engine/gate/proof-records.js';
import { configDigest } from '../../src/engine/gate/config-digest.js';
import type { DiscernConfig } from '../../generated/types.js';
import type { StandardDefinition } from '../../src/engine/config/standards.js';
import { tempDir } from '../helpers/scratch-repo.js';

const config: DiscernConfig = {
  jobs: {
    format: 'fmt',
    build: 'b',
    lint: 'l',
    typecheck: { run: 't', timeout: 9 },
    test: 'x',
    smoke: ['s1', 's2'],
    e2e: { stage: 'test', run: 'e' },
    empty: { stage: 'check', run: ':' },
  },
  generated: { types: { paths: ['gen/**'], run: 'gen' } },
  standards: {
    cov: { direction: 'up', limit: 80, run: 'c' },
    size: { direction: 'down', limit: 100, run: 'z', measure: 'on-demand' },
    perf: { direction: 'down', limit: 5, run: 'p', inputs: ['src/**'] },
  },
  scopes: { docs: { paths: ['docs/**'], gate: 'lint-docs', timeout: 3 }, src: { paths: ['src/**'] } },
};

function plan(
  mode: 'done' | 'prepare' | 'test',
  extra: Partial<DiscernConfig> = {},
  replayable: string[] = [],
  changed: string[] = ['docs'],
) {
  const c = { ...config, ...extra };
  const settings = gateSettings(c);
  return planGate({
    mode,
    catalog: producerCatalog(c, settings),
    settings,
    changedScopes: changed,
    replayable: new Set(replayable),
  });
}

const labels = (p: ReturnType<typeof plan>): [string, boolean, string[]][] =>
  p.groups.map((g) => [g.stage, g.parallel, g.producers.map((x) => x.label)]);

describe('planGate', () => {
  it('done: fix serially, build with generators, check ∥ test ∥ standards, then gates of changed scopes', () => {
    assert.deepEqual(labels(plan('done', {}, ['perf'])), [
      ['fix', false, ['format']],
      ['build', true, ['build', 'generated:types']],
      ['check/test', true, ['lint', 'typecheck', 'test', 'smoke', 'e2e', 'standard:cov']],
      ['scope_gates', true, ['scope:docs']],
    ]);
  });
  it('done: standards are measured, replayed or deferred', () => {
    assert.deepEqual(
      plan('done', {}, ['perf']).standards.map((s) => [s.producer.label, s.disposition]),
      [
        ['standard:cov', 'measured'],
        ['standard:size', 'deferred'],
        ['standard:perf', 'replayed'],
      ],
    );
  });
  it('done: a scope gate runs only when its scope changed', () => {
    assert.deepEqual(plan('done', {}, [], ['src']).scopeGates, []);
  });
  it('done with concurrent_test_runs: check first, then tests and standards holding a slot', () => {
    const p = plan('done', { gate: { concurrent_test_runs: 2 } }, [], []);
    assert.deepEqual(labels(p).slice(2), [
      ['check', true, ['lint', 'typecheck']],
      ['test', true, ['test', 'smoke', 'e2e', 'standard:cov', 'standard:perf']],
    ]);
    assert.equal(p.groups.at(-1)?.holdsTestSlot, true);
  });
  it('prepare: fix, generated, check — no build, tests or standards', () => {
    assert.deepEqual(labels(plan('prepare')), [
      ['fix', false, ['format']],
      ['generated', true, ['generated:types']],
      ['check', true, ['lint', 'typecheck']],
    ]);
  });
  it('test: only the test stage', () => {
    assert.deepEqual(labels(plan('test')), [['test', true, ['test', 'smoke', 'e2e']]]);
  });
  it('timeouts name the key that set them', () => {
    const catalog = producerCatalog(config, gateSettings(config));
    const of = (label: string) => [...catalog.jobs, ...catalog.scopeGates].find((p) => p.label === label);
    assert.deepEqual([of('typecheck')?.timeoutS, of('typecheck')?.timeoutKey], [9, '[jobs.typecheck] timeout']);
    assert.deepEqual([of('lint')?.timeoutS, of('lint')?.timeoutKey], [600, '[gate] timeout']);
    assert.deepEqual([of('scope:docs')?.timeoutS, of('scope:docs')?.timeoutKey], [3, '[scopes.docs] timeout']);
  });
  it('a dry run lists preconditions first, then every producer, then the standards that will not run', () => {
    const steps = planSteps(plan('done', {}, ['perf']), [{ kind: 'merge-check', label: 'm', disposition: 'gate' }]);
    assert.equal(steps[0]?.kind, 'merge-check');
    assert.deepEqual(
      steps.filter((s) => s.disposition === 'skip').map((s) => s.label),
      ['standard:size', 'standard:perf'],
    );
  });
});

describe('failedStageOf', () => {
  const group = plan('done').groups[2];
  const pick = (...names: string[]) => (group?.producers ?? []).filter((p) => names.includes(p.label));
  it('narrows check/test to what failed', () => {
    assert.ok(group);
    assert.equal(failedStageOf(group, pick('lint')), 'check');
    assert.equal(failedStageOf(group, pick('test')), 'test');
    assert.equal(failedStageOf(group, pick('lint', 'e2e')), 'check/test');
    assert.equal(failedStageOf(group, pick('standard:cov')), 'standards');
  });
});

describe('judgeDrift', () => {
  const owns = { owns: (p: string) => p.startsWith('gen/') };
  const groups = Object.fromEntries(plan('prepare').groups.map((g) => [g.stage, g]));
  const done = Object.fromEntries(plan('done').groups.map((g) => [g.stage, g]));
  it('done: any write is tree_drift naming the stage', () => {
    assert.deepEqual(judgeDrift('done', done['fix']!, ['src/a.ts'], owns), {
      failedStage: 'tree_drift',
      group: 'fix',
      paths: ['src/a.ts'],
    });
  });
  it('prepare: fixers may write; generators may write their own paths; outside them is generated_drift', () => {
    assert.equal(judgeDrift('prepare', groups['fix']!, ['src/a.ts'], owns), undefined);
    assert.equal(judgeDrift('prepare', groups['generated']!, ['gen/x.ts'], owns), undefined);
    assert.deepEqual(judgeDrift('prepare', groups['generated']!, ['gen/x.ts', 'src/b.ts'], owns), {
      failedStage: 'generated_drift',
      group: 'generated',
      paths: ['src/b.ts'],
    });
  });
  it('prepare: a check that writes is tree_drift', () => {
    assert.equal(judgeDrift('prepare', groups['check']!, ['out.txt'], owns)?.failedStage, 'tree_drift');
  });
  it('nothing written, nothing to judge', () => {
    assert.equal(judgeDrift('done', done['build']!, [], owns), undefined);
  });
});

describe('standards', () => {
  const def = (over: Partial<StandardDefinition> = {}): StandardDefinition => ({
    name: 'cov',
    direction: 'up',
    limit: 80,
    commands: ['c'],
    metric: 'cov',
    scale: 1,
    margin: 0,
    measure: 'gate',
    ...over,
  });
  it('a floor: regressed below, held within the margin, improved beyond it with a pin target', () => {
    assert.deepEqual(verdictOf(def({ margin: 0.5 }), 79.9), { verdict: 'regressed', pin_eligible: false });
    assert.deepEqual(verdictOf(def({ margin: 0.5 }), 80.3), { verdict: 'held', pin_eligible: false });
    assert.deepEqual(verdictOf(def({ margin: 0.5 }), 83.1), {
      verdict: 'improved',
      pin_eligible: true,
      pin_target: 82.6,
    });
  });
  it('a ceiling mirrors it', () => {
    assert.deepEqual(verdictOf(def({ direction: 'down', limit: 100, margin: 2 }), 101), {
      verdict: 'regressed',
      pin_eligible: false,
    });
    assert.deepEqual(verdictOf(def({ direction: 'down', limit: 100, margin: 2 }), 90), {
      verdict: 'improved',
      pin_eligible: true,
      pin_target: 92,
    });
  });
  it('per and scale, and the failures of a missing metric or a zero divisor', () => {
    assert.deepEqual(
      judgeStandard(def({ per: { kind: 'metric', metric: 'total' }, scale: 100 }), { cov: 41, total: 50 }),
      { ok: true, value: 82, verdict: 'improved', pin_eligible: true, pin_target: 82 },
    );
    assert.equal(
      (
        judgeStandard(def({ per: { kind: 'extent', extent: 'files', pathspecs: ['src'] } }), { cov: 10 }, 4) as {
          value: number;
        }
      ).value,
      2.5,
    );
    assert.equal(judgeStandard(def(), {}).ok, false);
    assert.match(
      (judgeStandard(def({ per: { kind: 'metric', metric: 'total' } }), { cov: 1, total: 0 }) as { problem: string })
        .problem,
      /divisor is 0/,
    );
    assert.equal((judgeStandard(def({ scale: 3 }), { cov: 0.1 }) as { value: number }).value, 0.3);
  });
  it('never-loosen: lowered floors, raised ceilings, flipped directions, deleted tables and changed measurement are named', () => {
    const trunk = readTrunkStandards(
      '[standards.cov]\ndirection = "up"\nlimit = 80\nrun = "c"\n[standards.size]\ndirection = "down"\nlimit = 100\nrun = "s"\n[standards.gone]\ndirection = "up"\nlimit = 1\nrun = "g"\n[standards.flip]\ndirection = "up"\nlimit = 1\nrun = "f"\n',
    );
    assert.ok(trunk.ok);
    const current = (over: Record<string, Partial<StandardDefinition>>) =>
      trunk.standards.filter((t) => over[t.name] !== undefined).map((t) => ({ ...t, ...over[t.name] }));
    const loosened = loosenedStandards(
      trunk.standards,
      current({ cov: { limit: 79 }, size: { limit: 101 }, flip: { direction: 'down' } }),
    );
    assert.equal(loosened.length, 4);
    assert.deepEqual(
      loosenedStandards(
        trunk.standards,
        current({ cov: { limit: 85, margin: 1 }, size: { limit: 90 }, gone: {}, flip: { limit: 2, timeout: 9 } }),
      ),
      [],
    );
    for (const change of [
      { measure: 'on-demand' as const },
      { scale: 2 },
      { metric: 'other' },
      { commands: ['echo DISCERN_METRIC cov 100'] },
      { per: { kind: 'metric' as const, metric: 'x' } },
      { inputs: ['docs/**'] },
    ]) {
      const named = loosenedStandards(trunk.standards, current({ cov: change, size: {}, gone: {}, flip: {} }));
      assert.equal(named.length, 1, JSON.stringify(change));
      assert.match(named[0] ?? '', /changes how its value is measured/);
    }
  });
  it('a trunk config that does not parse is reported, one for another discern version still compares', () => {
    assert.equal(readTrunkStandards('[standards.cov\n').ok, false);
    assert.equal(
      readTrunkStandards('[standards.cov]\ndirection = "up"\nlimit = 3\n').ok,
      false,
      'a standard without run',
    );
    const future = readTrunkStandards(
      '[future]\nx = 1\n[standards.cov]\ndirection = "up"\nlimit = 3\nrun = "c"\nnew_key = true\n',
    );
    assert.deepEqual(future.ok ? future.standards.map((s) => [s.name, s.direction, s.limit, s.metric]) : future, [
      ['cov', 'up', 3, 'cov'],
    ]);
  });
});

describe('parsing git output', () => {
  it('the dirty set keeps odd paths and both sides of a rename', () => {
    const set = parseDirtySet(' M a b.ts\0R  new\nline.ts\0old.ts\0?? über.md\0');
    assert.deepEqual([...set].sort(), ['a b.ts', 'new\nline.ts', 'old.ts', 'über.md']);
    assert.deepEqual(newlyDirty(new Set(['a b.ts']), set), ['new\nline.ts', 'old.ts', 'über.md']);
  });
  it('shortstat in each of its forms', () => {
    assert.deepEqual(parseShortstat(' 3 files changed, 10 insertions(+), 2 deletions(-)\n'), {
      files_total: 3,
      insertions: 10,
      deletions: 2,
    });
    assert.deepEqual(parseShortstat(' 1 file changed, 1 insertion(+)\n'), {
      files_total: 1,
      insertions: 1,
      deletions: 0,
    });
    assert.deepEqual(parseShortstat(''), { files_total: 0, insertions: 0, deletions: 0 });
  });
});

describe('config digest and evidence store', () => {
  it('the digest ignores key order and notices the trunk', () => {
    assert.equal(
      configDigest({ project: { name: 'a', slug: 'b' } }, 'main'),
      configDigest({ project: { slug: 'b', name: 'a' } }, 'main'),
    );
    assert.notEqual(configDigest({}, 'main'), configDigest({}, 'trunk'));
  });
  it('pruning keeps the most recently written records', async () => {
    const dir = join(tempDir(), 'evidence');
    mkdirSync(dir);
    for (let i = 0; i < 20; i++) {
      const file = join(dir, `${String(i).padStart(2, '0')}.json`);
      writeFileSync(file, '{}');
      utimesSync(file, 1000 + i, 1000 + i);
    }
    assert.equal(await pruneEvidence(dir, 18), 0, 'within the slack nothing goes');
    assert.equal(await pruneEvidence(dir, 8), 12);
    assert.deepEqual(readdirSync(dir).sort(), [
      '12.json',
      '13.json',
      '14.json',
      '15.json',
      '16.json',
      '17.json',
      '18.json',
      '19.json',
    ]);
  });
});
