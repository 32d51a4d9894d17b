// The MCP progress notifier on its own: every notification's progress is greater than the one before, across a
// run that reports several plans in turn (accept: its setup rows, then the composed gate from 0 again) and across
// thousands of messages within one step (a long job's counts, the heartbeat), and it stays below the total.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { progressNotifier, type ProgressNotification } from '../../src/surfaces/mcp/progress.js';

function collect(): {
  sent: ProgressNotification['params'][];
  notifier: NonNullable<ReturnType<typeof progressNotifier>>;
} {
  const sent: ProgressNotification['params'][] = [];
  const notifier = progressNotifier('token', (n) => {
    sent.push(n.params);
    return Promise.resolve();
  });
  assert.ok(notifier);
  return { sent, notifier };
}

describe('MCP progress notifier', () => {
  it('increases strictly when a second plan counts from 0 again, and stays below each total', () => {
    const { sent, notifier } = collect();
    try {
      for (const completed of [0, 1, 2]) notifier.progress({ message: `setup ${completed}`, completed });
      for (const completed of [0, 0, 1, 2, 3]) notifier.progress({ message: `gate ${completed}`, completed, total: 3 });
      notifier.progress({ message: 'ensure after the landing', completed: 0 });
    } finally {
      notifier.stop();
    }
    assert.equal(sent.length, 9);
    for (let i = 1; i < sent.length; i++)
      assert.ok((sent[i]?.progress ?? 0) > (sent[i - 1]?.progress ?? 0), JSON.stringify(sent));
    for (const p of sent) if (p.total !== undefined) assert.ok(p.progress < p.total, JSON.stringify(p));
  });

  it('keeps increasing over 50,000 messages within one step', () => {
    const { sent, notifier } = collect();
    try {
      for (let i = 0; i < 50_000; i++) notifier.progress({ message: `tests ${i}`, completed: 1, total: 2 });
    } finally {
      notifier.stop();
    }
    assert.equal(sent.length, 50_000);
    for (let i = 1; i < sent.length; i++) assert.ok((sent[i]?.progress ?? 0) > (sent[i - 1]?.progress ?? 0));
    assert.ok((sent.at(-1)?.progress ?? 3) < 2);
  });
});
