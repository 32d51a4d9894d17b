// The gate's live summary: gate events in, updates out, each with its sentence (for MCP notifications) and the
// same news as structure (for the terminal's rows). Driven with a fake clock; nothing here waits on time except
// the quiet flush, which is awaited, never measured.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { liveSummary, type LiveSummaryUpdate } from '../../src/engine/gate/live-summary.js';
import type { LiveEvent } from '../../src/engine/live/live-events.js';

function harness(producers: string[]): {
  send: ReturnType<typeof liveSummary>;
  updates: LiveSummaryUpdate[];
  tick: (ms: number) => void;
} {
  let t = 1_000;
  const updates: LiveSummaryUpdate[] = [];
  const send = liveSummary(
    producers,
    (u) => updates.push(u),
    () => t,
  );
  return { send, updates, tick: (ms) => (t += ms) };
}

const kinds = (u: LiveSummaryUpdate | undefined): string[] =>
  (u?.events ?? []).map((e) => (e.kind === 'producer' ? `producer:${e.label}:${e.state}` : e.kind));

describe('liveSummary', () => {
  it('sends the plan with the first update, then a producer event for each start and end', () => {
    const { send, updates, tick } = harness(['lint', 'test']);
    send({ type: 'phase', phase: 'announce', message: 'R1-AAAA-BBBB-CC — read it back' });
    assert.deepEqual(kinds(updates[0]), ['plan', 'phase']);
    assert.deepEqual(updates[0]?.events?.[0], { kind: 'plan', producers: ['lint', 'test'] });
    assert.equal(updates[0]?.durable, true);
    send({ type: 'producer-start', label: 'lint', group: 'check' });
    assert.deepEqual(kinds(updates[1]), ['producer:lint:running']);
    assert.match(updates[1]?.message ?? '', /running lint · 0\/2 finished/);
    tick(1500);
    send({ type: 'producer-end', label: 'lint', outcome: 'ok', durationMs: 1500 });
    const ended = updates[2]?.events?.[0];
    assert.deepEqual(ended, { kind: 'producer', label: 'lint', state: 'ok', elapsedMs: 1500 });
    assert.equal(updates[2]?.completed, 1);
    assert.equal(updates[2]?.total, 2);
  });

  it('carries counts and elapsed time; a failure is durable and names its place', () => {
    const { send, updates, tick } = harness(['test']);
    send({ type: 'producer-start', label: 'test', group: 'test' });
    tick(300);
    send({
      type: 'producer-progress',
      label: 'test',
      fact: { units: { kind: 'tests', completed: 3, total: 10 }, results: { passed: 3 } },
    });
    const progress = updates.at(-1)?.events?.find((e) => e.kind === 'producer');
    assert.deepEqual(progress, {
      kind: 'producer',
      label: 'test',
      state: 'running',
      counts: { units: { kind: 'tests', completed: 3, total: 10 }, results: { passed: 3 } },
      elapsedMs: 300,
    });
    send({
      type: 'producer-progress',
      label: 'test',
      fact: { failure: { name: 'adds', message: 'expected 3', file: 'src/a.ts', line: 12 } },
    });
    const last = updates.at(-1);
    assert.equal(last?.durable, true);
    assert.match(last?.message ?? '', /test: adds failed — expected 3 \(src\/a\.ts:12\)/);
    assert.deepEqual(last?.events?.at(-1), {
      kind: 'failure',
      label: 'test',
      name: 'adds',
      message: 'expected 3',
      file: 'src/a.ts',
      line: 12,
    });
  });

  it('a throttled count and a skipped producer ride on a quiet update that MCP skips', async () => {
    const { send, updates } = harness(['test', 'lint']);
    send({ type: 'producer-start', label: 'test', group: 'test' });
    send({ type: 'producer-progress', label: 'test', fact: { units: { kind: 'tests', completed: 1 } } });
    send({ type: 'producer-progress', label: 'test', fact: { units: { kind: 'tests', completed: 2 } } });
    send({ type: 'producer-end', label: 'lint', outcome: 'skipped', durationMs: 0 });
    const before = updates.length;
    await new Promise((resolve) => setTimeout(resolve, 400));
    const flushed = updates.slice(before);
    assert.equal(flushed.length, 1, JSON.stringify(flushed));
    assert.equal(flushed[0]?.quiet, true);
    const events = flushed[0]?.events ?? [];
    const row = (label: string): LiveEvent | undefined =>
      events.find((e) => e.kind === 'producer' && e.label === label);
    assert.deepEqual((row('test') as { counts?: unknown } | undefined)?.counts, {
      units: { kind: 'tests', completed: 2 },
    });
    assert.equal((row('lint') as { state?: string } | undefined)?.state, 'skipped');
  });

  it('a wait for a test slot is a pair of events', () => {
    const { send, updates } = harness(['test']);
    send({ type: 'wait-start', id: 'test-slot', reason: 'all 1 test slots are in use', capacity: 1, inUse: 1 });
    send({ type: 'wait-end', id: 'test-slot', waitedMs: 2500 });
    assert.deepEqual(kinds(updates[0]), ['plan', 'wait-start']);
    assert.match(updates[0]?.message ?? '', /waiting for a test slot: 1 of 1 in use/);
    assert.deepEqual(updates[1]?.events, [{ kind: 'wait-end', waitedMs: 2500 }]);
  });
});
