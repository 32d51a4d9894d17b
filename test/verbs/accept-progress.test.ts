// accept's integration gate reports live progress: when the trunk moved, accept composes the effort over it and
// runs the gate there through done, and the caller's live channel hears that run — its plan, its producers
// starting and ending — as it hears done's own.
import { describe, it, after } from 'node:test';
import assert from 'node:assert/strict';
import type { LiveEvent } from '../../src/engine/live/live-events.js';
import type { LiveUpdate } from '../../src/verbs/context.js';
import { invoke } from '../../src/verbs/invoke.js';
import { call } from '../helpers/drive.js';
import { effort, trackedRepo } from '../helpers/efforts.js';
import { cleanEnv, type ScratchRepo } from '../helpers/scratch-repo.js';

const repos: ScratchRepo[] = [];
after(() => repos.forEach((r) => r.cleanup()));

describe('accept and live progress', () => {
  it('a composed acceptance reports its integration gate: the plan, then the test job running and ending', async () => {
    const r = trackedRepo(repos);
    const a = await effort(r, 'alpha', 'alpha.txt', 'a\n');
    const b = await effort(r, 'beta', 'beta.txt', 'b\n');
    const first = await call('accept', { confirmed: true }, a.path);
    assert.ok(first.ok, JSON.stringify(first, null, 2));

    const updates: LiveUpdate[] = [];
    const result = await invoke(
      'accept',
      { confirmed: true },
      {
        surface: 'cli',
        defaultTarget: b.path,
        env: cleanEnv(),
        signal: new AbortController().signal,
        progress: (u) => updates.push(u),
      },
    );
    assert.ok(result.ok, JSON.stringify(result, null, 2));
    const events: LiveEvent[] = updates.flatMap((u) => [...(u.events ?? [])]);
    assert.ok(
      events.some((e) => e.kind === 'plan' && e.producers.includes('test')),
      JSON.stringify(events),
    );
    const states = events
      .filter((e): e is Extract<LiveEvent, { kind: 'producer' }> => e.kind === 'producer' && e.label === 'test')
      .map((e) => e.state);
    assert.deepEqual([states[0], states.at(-1)], ['running', 'ok'], JSON.stringify(states));
    assert.ok(
      updates.some(
        (u) =>
          u.durable === true &&
          /R1-[0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{2} — read it back with discern progress/.test(u.message),
      ),
      "the integration run's handle is announced",
    );
  });
});
