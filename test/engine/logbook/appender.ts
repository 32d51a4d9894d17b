// A child process for the concurrency test: appends N events of nearly the maximum line size, as fast as it can.
import { appendLine } from '../../../src/engine/logbook/append.js';
import { MAX_LINE_BYTES } from '../../../src/engine/logbook/event.js';
import { logbookPaths } from '../../../src/engine/logbook/paths.js';

const [dir = '', writer = '0', count = '0'] = process.argv.slice(2);
const paths = logbookPaths(dir);
for (let i = 0; i < Number(count); i++) {
  const base = {
    v: 1,
    at: new Date().toISOString(),
    verb: 'test',
    surface: 'cli',
    actor: 'agent',
    agent: `writer-${writer}`,
    outcome: 'ok',
    ms: i,
    pad: '',
  };
  const pad = MAX_LINE_BYTES - Buffer.byteLength(`${JSON.stringify(base)}\n`) - 8;
  if (!(await appendLine(paths, `${JSON.stringify({ ...base, pad: 'x'.repeat(pad) })}\n`))) process.exit(1);
}
