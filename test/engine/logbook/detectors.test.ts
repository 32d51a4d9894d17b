// Each detector on a crafted logbook: it reports with its evidence and denominators when the minimum sample is
// met, and nothing one short of it; investigations relate findings that are present; the window and the top-N cut.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { analyse, TOP_FINDINGS } from '../../../src/engine/logbook/analyse.js';
import { tempDir } from '../../helpers/scratch-repo.js';
import { Craft, testRun } from './craft.js';

async function run(
  craft: Craft,
  options: { all?: boolean; stats?: boolean } = {},
): Promise<Awaited<ReturnType<typeof analyse>>> {
  const path = join(tempDir('discern-logbook-'), 'active.jsonl');
  craft.write(path);
  return analyse({ path, all: options.all === true, stats: options.stats === true });
}

function finding(analysis: Awaited<ReturnType<typeof analyse>>, id: string) {
  return analysis.findings.find((f) => f.id === id);
}

describe('flaky-jobs', () => {
  it('a job that failed then passed on the same tree, on two trees', async () => {
    const c = new Craft();
    for (const tree of ['t1', 't2']) {
      c.add(testRun(tree, [['unit', 'failed', 2, 'Error: socket hang up']]));
      c.add(testRun(tree, [['unit', 'ok', 2]]));
    }
    c.add(testRun('t3', [['unit', 'failed', 2, 'AssertionError: 1 !== 2']]));
    c.add(testRun('t4', [['unit', 'ok', 2]]));
    const a = await run(c);
    const f = finding(a, 'flaky-jobs:unit');
    assert.ok(f, JSON.stringify(a.findings));
    assert.deepEqual(f.numbers[0], {
      name: 'flipped_trees',
      value: 2,
      of: 3,
      unit: 'trees',
      meaning: f.numbers[0]?.meaning,
    });
    assert.equal(f.numbers[1]?.value, 3);
    assert.equal(f.numbers[1]?.of, 6);
    assert.equal(a.detectors.find((d) => d.name === 'flaky-jobs')?.considered, 6);
  });
  it('one flipped tree is noise; a pass on another tree is no flip; runs without a known tree do not count', async () => {
    const c = new Craft();
    c.add(testRun('t1', [['unit', 'failed', 2]]));
    c.add(testRun('t1', [['unit', 'ok', 2]]));
    c.add(testRun('t2', [['unit', 'failed', 2]]));
    c.add(testRun('t3', [['unit', 'ok', 2]]));
    c.add(testRun(undefined, [['unit', 'failed', 2]]));
    c.add(testRun(undefined, [['unit', 'ok', 2]]));
    const a = await run(c);
    assert.equal(finding(a, 'flaky-jobs:unit'), undefined);
    assert.equal(a.detectors.find((d) => d.name === 'flaky-jobs')?.considered, 4);
  });
});

describe('slow-jobs', () => {
  it('the slowest jobs by median, with the trend of the last 10 runs against the earlier ones', async () => {
    const c = new Craft();
    for (let i = 0; i < 25; i++)
      c.add(
        testRun(`t${i}`, [
          ['e2e', 'ok', i < 15 ? 40 : 60],
          ['unit', 'ok', 3],
          ['lint', 'ok', 1],
        ]),
      );
    c.add(testRun('tx', [['e2e', 'failed', 1]]));
    const a = await run(c);
    const e2e = finding(a, 'slow-jobs:e2e');
    assert.ok(e2e);
    const n = Object.fromEntries(e2e.numbers.map((x) => [x.name, x.value]));
    assert.deepEqual(n, { median_s: 40, runs: 25, recent_median_s: 60, earlier_median_s: 40, change_percent: 50 });
    assert.ok(finding(a, 'slow-jobs:unit') && finding(a, 'slow-jobs:lint'));
    assert.ok(
      a.findings.findIndex((f) => f.id === 'slow-jobs:e2e') < a.findings.findIndex((f) => f.id === 'slow-jobs:unit'),
    );
  });
  it('fewer than 5 passing runs: nothing; no trend before 20 runs', async () => {
    const c = new Craft();
    for (let i = 0; i < 4; i++) c.add(testRun(`t${i}`, [['e2e', 'ok', 40]]));
    for (let i = 0; i < 19; i++) c.add(testRun(`u${i}`, [['unit', 'ok', 3]]));
    const a = await run(c);
    assert.equal(finding(a, 'slow-jobs:e2e'), undefined);
    assert.deepEqual(
      finding(a, 'slow-jobs:unit')?.numbers.map((x) => x.name),
      ['median_s', 'runs'],
    );
  });
});

describe('recurring-failures', () => {
  it('the same first line, numbers and quoted values masked, heading three failures of a job', async () => {
    const c = new Craft();
    for (const port of [4123, 5001, 6002])
      c.add(
        testRun(`t${port}`, [
          ['unit', 'failed', 2, `Error: connect ECONNREFUSED 127.0.0.1:${port} in "/tmp/x${port}"`],
        ]),
      );
    c.add(testRun('tz', [['unit', 'failed', 2, 'TypeError: x is not a function']]));
    const a = await run(c);
    const f = a.findings.filter((x) => x.detector === 'recurring-failures');
    assert.equal(f.length, 1);
    assert.match(f[0]?.id ?? '', /^recurring-failures:unit:[0-9a-f]{10}$/);
    assert.deepEqual([f[0]?.numbers[0]?.value, f[0]?.numbers[0]?.of], [3, 4]);
    assert.match(f[0]?.observation ?? '', /6002/, 'the latest raw line is quoted');
  });
  it('two occurrences are not enough', async () => {
    const c = new Craft();
    for (const port of [1, 2]) c.add(testRun(`t${port}`, [['unit', 'failed', 2, `Error: port ${port}`]]));
    assert.equal((await run(c)).findings.length, 0);
  });
});

describe('refused-landings', () => {
  it('accept refusals by slug, of the accept calls, with the latest message; and refused submissions', async () => {
    const c = new Craft();
    c.add({ verb: 'accept', outcome: 'awaiting_consent', message: 'Landing needs consent for docs' });
    c.add({ verb: 'accept', outcome: 'awaiting_consent', message: 'Landing needs consent for src' });
    c.add({ verb: 'accept', outcome: 'gate_failed', message: 'The gate failed' });
    c.add({
      verb: 'accept',
      outcome: 'ok',
      landings: [{ status: 'landed' }, { status: 'refused', reason: 'not proven' }],
    });
    c.add({ verb: 'accept', outcome: 'ok', landings: [{ status: 'refused', reason: 'behind the trunk' }] });
    const a = await run(c);
    const consent = finding(a, 'refused-landings:awaiting_consent');
    assert.deepEqual([consent?.numbers[0]?.value, consent?.numbers[0]?.of], [2, 5]);
    assert.match(consent?.observation ?? '', /consent for src/);
    assert.equal(finding(a, 'refused-landings:gate_failed'), undefined, 'one refusal is below the minimum');
    assert.ok(finding(a, 'refused-landings:landing-refused'));
  });
});

describe('test-slot-waits', () => {
  it('the calls that waited, of the job-running calls, and how long', async () => {
    const c = new Craft();
    for (let i = 0; i < 3; i++) c.add(testRun(`t${i}`, [['unit', 'ok', 3]], { waited_ms: 15_000 }));
    for (let i = 0; i < 3; i++) c.add(testRun(`u${i}`, [['unit', 'ok', 3]]));
    c.add({ verb: 'status' });
    const a = await run(c);
    const f = finding(a, 'test-slot-waits:repository');
    const n = Object.fromEntries((f?.numbers ?? []).map((x) => [x.name, [x.value, x.of]]));
    assert.deepEqual(n, {
      waited_calls: [3, 6],
      total_wait_s: [45, undefined],
      median_wait_s: [15, undefined],
      longest_wait_s: [15, undefined],
    });
  });
  it('less than 30 s in all is not reported', async () => {
    const c = new Craft();
    for (let i = 0; i < 5; i++) c.add(testRun(`t${i}`, [['unit', 'ok', 3]], { waited_ms: 5_000 }));
    assert.equal(finding(await run(c), 'test-slot-waits:repository'), undefined);
  });
});

describe('actor-outcomes', () => {
  it('a gap two standard errors wide with 10 calls each side', async () => {
    const c = new Craft();
    for (let i = 0; i < 20; i++)
      c.add({ verb: 'done', actor: 'agent', agent: 'codex', outcome: i < 18 ? 'ok' : 'gate_failed' });
    for (let i = 0; i < 20; i++) c.add({ verb: 'done', actor: 'human', outcome: i < 8 ? 'ok' : 'gate_failed' });
    const a = await run(c);
    const f = finding(a, 'actor-outcomes:done');
    assert.deepEqual(
      f?.numbers.map((x) => [x.name, x.value, x.of]),
      [
        ['agent_ok', 18, 20],
        ['human_ok', 8, 20],
        ['gap_points', 50, undefined],
      ],
    );
    assert.deepEqual(a.population, {
      analyzed: 40,
      agent: 20,
      human: 20,
      unknown: 0,
      identities: [
        { actor: 'agent', name: 'codex', events: 20 },
        { actor: 'human', events: 20 },
      ],
    });
  });
  it('a small gap, or too few calls on one side, is not reported', async () => {
    const c = new Craft();
    for (let i = 0; i < 20; i++) c.add({ verb: 'done', actor: 'agent', outcome: i < 15 ? 'ok' : 'gate_failed' });
    for (let i = 0; i < 20; i++) c.add({ verb: 'done', actor: 'human', outcome: i < 13 ? 'ok' : 'gate_failed' });
    for (let i = 0; i < 30; i++) c.add({ verb: 'test', actor: 'agent', outcome: 'ok' });
    for (let i = 0; i < 9; i++) c.add({ verb: 'test', actor: 'human', outcome: 'gate_failed' });
    assert.equal((await run(c)).findings.length, 0);
  });
});

describe('investigations', () => {
  function linked(): Craft {
    const c = new Craft();
    for (const [i, tree] of ['t1', 't2', 't3'].entries()) {
      c.add(testRun(tree, [['unit', 'failed', 2, `Error: socket hang up (attempt ${i})`]]));
      c.add(testRun(tree, [['unit', 'ok', 2]]));
    }
    for (let i = 0; i < 3; i++)
      c.add({
        verb: 'accept',
        outcome: 'gate_failed',
        message: 'The gate failed at test',
        jobs: [{ label: 'unit', kind: 'job', outcome: 'failed', s: 2 }],
      });
    for (let i = 0; i < 4; i++) c.add(testRun(`w${i}`, [['e2e', 'ok', 60]], { waited_ms: 20_000 }));
    for (let i = 0; i < 2; i++) c.add(testRun(`v${i}`, [['e2e', 'ok', 60]]));
    return c;
  }
  it('relate present findings, repeating their observations and numbers', async () => {
    const a = await run(linked());
    const ids = new Set(a.findings.map((f) => f.id));
    assert.deepEqual(a.investigations.map((i) => i.relationship).sort(), [
      'flaky-refusals',
      'flaky-signature',
      'slot-contention',
    ]);
    for (const inv of a.investigations) {
      assert.ok(
        inv.sources.every((id) => ids.has(id)),
        `${inv.id} cites present findings`,
      );
      for (const e of inv.evidence) {
        const source = a.findings.find((f) => f.id === e.finding);
        assert.equal(e.observation, source?.observation);
        assert.deepEqual(e.numbers, source?.numbers);
      }
      assert.ok(inv.boundary && inv.interpretation && inv.action && inv.falsifier);
    }
    const signature = a.investigations.find((i) => i.relationship === 'flaky-signature');
    assert.equal(signature?.link?.[0]?.value, 3);
  });
  it('none when the linking count is below its requirement', async () => {
    const c = new Craft();
    // Flaky on two trees with different first lines; a recurring line that never preceded a pass.
    c.add(testRun('t1', [['unit', 'failed', 2, 'Error: a']]));
    c.add(testRun('t1', [['unit', 'ok', 2]]));
    c.add(testRun('t2', [['unit', 'failed', 2, 'Error: b']]));
    c.add(testRun('t2', [['unit', 'ok', 2]]));
    for (let i = 0; i < 3; i++) c.add(testRun(`z${i}`, [['unit', 'failed', 2, 'Error: always']]));
    const a = await run(c);
    assert.ok(finding(a, 'flaky-jobs:unit'));
    assert.ok(a.findings.some((f) => f.detector === 'recurring-failures'));
    assert.deepEqual(a.investigations, []);
  });
  it('the top 5 by default, every one with all; their sources are always present', async () => {
    const c = new Craft();
    for (let j = 0; j < 7; j++) {
      for (let t = 0; t < 3; t++) {
        c.add(testRun(`j${j}t${t}`, [[`job${j}`, 'failed', 1, `Error: timeout ${t}`]]));
        c.add(testRun(`j${j}t${t}`, [[`job${j}`, 'ok', 1]]));
      }
    }
    const top = await run(c);
    assert.equal(top.investigations.length, 5);
    assert.equal(top.investigationsTotal, 7);
    const ids = new Set(top.findings.map((f) => f.id));
    assert.ok(top.investigations.every((i) => i.sources.every((id) => ids.has(id))));
    assert.equal((await run(c, { all: true })).investigations.length, 7);
  });
  it('keep the findings they cite when the top 10 would cut them', async () => {
    const c = linked();
    // Twelve jobs with a recurring message each, five times: they outrank the linked one (three times).
    for (let j = 0; j < 12; j++)
      for (let i = 0; i < 5; i++) c.add(testRun(`j${j}-${i}`, [[`job${j}`, 'failed', 1, `Error: broken ${j}`]]));
    const top = await run(c);
    assert.ok(top.findingsTotal > top.findings.length && top.findings.length > TOP_FINDINGS);
    const ids = new Set(top.findings.map((f) => f.id));
    assert.equal(top.investigations.length, 3);
    assert.ok(top.investigations.every((i) => i.sources.every((id) => ids.has(id))));
    const all = await run(c, { all: true });
    assert.equal(all.findings.length, all.findingsTotal);
  });
});

describe('window and stats', () => {
  it('the 30 days ending at the latest event by default; every event with all', async () => {
    const c = new Craft();
    c.add({ verb: 'status' });
    c.skipDays(60);
    c.add({ verb: 'status', outcome: 'no_trunk' });
    c.add({ verb: 'done', surface: 'mcp', actor: 'agent', ms: 300 });
    const windowed = await run(c, { stats: true });
    assert.equal(windowed.population.analyzed, 2);
    assert.equal(windowed.window.days, 30);
    assert.equal(windowed.summary.events, 3);
    assert.deepEqual(windowed.stats?.by_outcome, [
      { outcome: 'no_trunk', events: 1 },
      { outcome: 'ok', events: 1 },
    ]);
    assert.deepEqual(windowed.stats?.by_surface, [
      { surface: 'cli', events: 1 },
      { surface: 'mcp', events: 1 },
    ]);
    const all = await run(c, { all: true, stats: true });
    assert.equal(all.population.analyzed, 3);
    assert.deepEqual(all.window, { days: null });
    assert.deepEqual(all.stats?.by_verb, [
      { verb: 'status', events: 2, ok: 1, median_ms: 100 },
      { verb: 'done', events: 1, ok: 1, median_ms: 300 },
    ]);
    assert.equal(all.stats?.span_s, 60 * 86_400 + 120);
  });
});
