// Time lost waiting for test slots ([gate] concurrent_test_runs): the calls that waited, of the calls that ran
// jobs and so could have waited, and how long. A cap that makes calls wait is doing its job; the question this
// answers is how much waiting it costs.
import type { ReadEvent } from '../read.js';
import { median, number, plural, Span, type Detector, type RankedFinding } from './common.js';

export const MIN_WAITED_CALLS = 3;
export const MIN_TOTAL_WAIT_MS = 30_000;
const SLOT_VERBS = new Set(['done', 'test', 'standards']);

export class TestSlotWaits implements Detector {
  readonly name = 'test-slot-waits' as const;
  readonly requirement = `at least ${MIN_WAITED_CALLS} calls that waited for a test slot, ${MIN_TOTAL_WAIT_MS / 1000} s in all`;
  considered = 0;
  private readonly waits: number[] = [];
  private readonly span = new Span();

  consider({ event, t }: ReadEvent): void {
    const waited = typeof event.waited_ms === 'number' && event.waited_ms > 0 ? event.waited_ms : 0;
    if (!(SLOT_VERBS.has(event.verb) && event.jobs && event.jobs.length > 0) && waited === 0) return;
    this.considered++;
    if (waited > 0) {
      this.waits.push(waited);
      this.span.see(t);
    }
  }

  findings(): RankedFinding[] {
    const total = this.waits.reduce((a, b) => a + b, 0);
    if (this.waits.length < MIN_WAITED_CALLS || total < MIN_TOTAL_WAIT_MS) return [];
    const seconds = (ms: number): number => Math.round(ms / 100) / 10;
    return [
      {
        magnitude: total,
        finding: {
          id: 'test-slot-waits:repository',
          detector: this.name,
          subject: 'repository',
          title: `${seconds(total)} s spent waiting for test slots`,
          observation: `${this.waits.length} of ${plural(this.considered, 'job-running call')} waited for a test slot, ${seconds(total)} s in all (median ${seconds(median(this.waits))} s, longest ${seconds(longest(this.waits))} s).`,
          numbers: [
            number(
              'waited_calls',
              this.waits.length,
              'calls',
              'calls that waited for a slot, of the calls that ran jobs',
              this.considered,
            ),
            number('total_wait_s', seconds(total), 's', 'time spent waiting, all calls together'),
            number('median_wait_s', seconds(median(this.waits)), 's', 'median wait of the calls that waited'),
            number('longest_wait_s', seconds(longest(this.waits)), 's', 'longest single wait'),
          ],
          ...this.span.fields(),
        },
      },
    ];
  }

  get waitedCalls(): number {
    return this.waits.length;
  }
}

function longest(values: readonly number[]): number {
  let max = 0;
  for (const v of values) if (v > max) max = v;
  return max;
}
