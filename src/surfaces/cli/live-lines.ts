// The live view when stderr is not a terminal (a log, a pipe, an agent's captured output, TERM=dumb): one
// plain line per fact worth keeping — the progress handle, a job starting, a job ending with its outcome and
// time, a failure, a wait — and no control sequences, no redraws (docs/decisions/0033-live-region-on-stderr.md).
import { applyUpdate, emptyModel, type LiveModel } from './live-model.js';
import { plainLine } from './live-render.js';
import type { LiveWriter } from './live-region.js';

export function liveLines(stream: { write(chunk: string): unknown }, options: { now?: () => number } = {}): LiveWriter {
  const now = options.now ?? Date.now;
  let model: LiveModel = emptyModel(now());
  let closed = false;
  return {
    progress: (update) => {
      if (closed) return;
      const applied = applyUpdate(model, update, now());
      model = applied.model;
      const lines = applied.facts.map(plainLine).filter((l): l is string => l !== undefined);
      if (lines.length > 0) stream.write(lines.map((l) => `${l}\n`).join(''));
    },
    line: (text) => {
      stream.write(`${text}\n`);
    },
    close: () => {
      closed = true;
    },
  };
}
