// The structured side of a live update: what a terminal view needs to draw rows (one per producer, with its
// state, counts and own time) instead of re-parsing a status sentence. Messages stay the channel for MCP
// progress notifications and plain line output; these events are for views that keep a model
// (docs/decisions/0033-live-region-on-stderr.md).

export type LiveProducerState = 'pending' | 'running' | 'ok' | 'failed' | 'cancelled' | 'skipped';

/** What a producer reported of its own work (DISCERN_PROGRESS) and how much output it wrote so far. */
export interface LiveCounts {
  units?: { kind: string; completed: number; total?: number };
  /** Only the counts the producer established (passed, failed, skipped…). */
  results?: Readonly<Record<string, number>>;
  /** Lines of output so far: a sign of life for a job that reports no progress of its own. */
  outputLines?: number;
}

export type LiveEvent =
  /** The producers a run goes through, in plan order; a new plan starts a new set of rows (accept may gate twice). */
  | { kind: 'plan'; producers: readonly string[] }
  /** A phase of the run; `announce` carries the progress handle, `finished` the run's end. */
  | { kind: 'phase'; phase: string; message: string }
  /** A producer's state now; `elapsedMs` is its own time so far (running) or its duration (ended). */
  | {
      kind: 'producer';
      label: string;
      state: LiveProducerState;
      counts?: LiveCounts;
      elapsedMs?: number;
      detail?: string;
    }
  /** One failing test or obligation a producer reported while running. */
  | { kind: 'failure'; label: string; name: string; message: string; file?: string; line?: number }
  | { kind: 'wait-start'; reason: string; capacity: number; inUse: number }
  | { kind: 'wait-end'; waitedMs: number }
  /** A watch (await) still waiting for its condition. */
  | { kind: 'watch'; what: string; elapsedMs: number };
