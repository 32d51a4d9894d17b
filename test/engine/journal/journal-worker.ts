// A child process that writes journal records on command (see ../state/child-pool.ts): for the SIGKILL and
// concurrent-writer tests.
import { openOperation, type OperationWriter } from '../../../src/engine/journal/index.js';
import { serve } from '../state/child-serve.js';

const writers = new Map<string, OperationWriter>();

serve({
  async open(c) {
    const writer = await openOperation(String(c['dir']), {
      verb: String(c['verb'] ?? 'test'),
      checkout: String(c['checkout']),
      branch: 'main',
    });
    writers.set(writer.handle, writer);
    return writer.handle;
  },
  /** Opens `count` operations at once (as concurrently as one process can). */
  async openMany(c) {
    const count = Number(c['count']);
    const opened = await Promise.all(
      Array.from({ length: count }, () =>
        openOperation(String(c['dir']), { verb: 'test', checkout: String(c['checkout']), branch: null }),
      ),
    );
    await Promise.all(
      opened.map((w) =>
        w.finish({ outcome: 'completed', result: { ok: true, verb: 'test' }, account: [`by ${process.pid}`] }),
      ),
    );
    return opened.map((w) => w.handle);
  },
  /** Keeps the record busy: a unit every millisecond and a new phase every 25 units, until killed. */
  churn(c) {
    const writer = writers.get(String(c['handle']));
    if (writer === undefined) throw new Error('no such writer');
    let units = 0;
    writer.addPgid(process.pid);
    const timer = setInterval(() => {
      units += 1;
      writer.producer('unit', {
        state: 'running',
        units: { kind: 'tests', completed: units, total: null },
        results: { passed: units },
      });
      if (units % 25 === 0)
        writer.setProgress({
          phase: `phase-${units / 25}`,
          state: 'running',
          reason: 'churning',
          next: 'wait',
          owner_must_act: false,
        });
    }, 1);
    timer.unref();
    return true;
  },
});
