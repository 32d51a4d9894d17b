// The slowest jobs and their trend. Only passing runs are timed: a failure stops early or times out, and says
// how the job failed, not how long it takes. Durations are whole seconds (the steps' duration_s). The trend
// compares the median of the last RECENT runs with the median of the runs before them, and is stated only when
// both sides have RECENT runs.
import type { ReadEvent } from '../read.js';
import { median, number, Span, type Detector, type RankedFinding } from './common.js';

export const MIN_TIMED_RUNS = 5;
export const RECENT = 10;
const SLOWEST = 3;
/** A job outside the slowest few is still reported when its recent median grew this much (and by 2 s). */
const GROWTH = 0.5;

interface JobTimes {
  durations: number[];
  span: Span;
  /** Test-stage calls that waited for a slot and ran this job (for the slot-contention investigation). */
  inWaitedCalls: number;
}

export interface Trend {
  recent: number;
  earlier: number;
  change: number;
}

export class SlowJobs implements Detector {
  readonly name = 'slow-jobs' as const;
  readonly requirement = `at least ${MIN_TIMED_RUNS} timed passing runs of a job; a trend needs ${RECENT} recent and ${RECENT} earlier runs`;
  considered = 0;
  private readonly jobs = new Map<string, JobTimes>();

  consider({ event, t }: ReadEvent): void {
    if (!event.jobs) return;
    let timed = false;
    for (const job of event.jobs) {
      if (job.outcome !== 'ok' || typeof job.s !== 'number' || !Number.isFinite(job.s) || job.s < 0) continue;
      timed = true;
      let record = this.jobs.get(job.label);
      if (!record) {
        record = { durations: [], span: new Span(), inWaitedCalls: 0 };
        this.jobs.set(job.label, record);
      }
      record.durations.push(job.s);
      record.span.see(t);
      if (typeof event.waited_ms === 'number' && event.waited_ms > 0) record.inWaitedCalls++;
    }
    if (timed) this.considered++;
  }

  findings(): RankedFinding[] {
    const eligible = [...this.jobs]
      .filter(([, r]) => r.durations.length >= MIN_TIMED_RUNS)
      .map(([label, r]) => ({ label, r, median: median(r.durations), trend: trendOf(r.durations) }));
    eligible.sort((a, b) => b.median - a.median || a.label.localeCompare(b.label));
    const chosen = eligible.filter(
      (j, i) =>
        i < SLOWEST ||
        (j.trend !== undefined &&
          j.trend.recent - j.trend.earlier >= 2 &&
          j.trend.recent >= j.trend.earlier * (1 + GROWTH)),
    );
    return chosen.map(({ label, r, median: m, trend }) => {
      const trendText = trend
        ? `; the median of its last ${RECENT} runs is ${trend.recent} s against ${trend.earlier} s before (${trend.change >= 0 ? '+' : ''}${trend.change} %)`
        : '';
      return {
        magnitude: m,
        finding: {
          id: `slow-jobs:${label}`,
          detector: this.name,
          subject: label,
          title: `\`${label}\` takes ${m} s`,
          observation: `\`${label}\` took ${m} s at the median over ${r.durations.length} passing runs${trendText}.`,
          numbers: [
            number('median_s', m, 's', `median duration of the job's passing runs`),
            number('runs', r.durations.length, 'runs', 'timed passing runs'),
            ...(trend
              ? [
                  number('recent_median_s', trend.recent, 's', `median of the last ${RECENT} passing runs`),
                  number(
                    'earlier_median_s',
                    trend.earlier,
                    's',
                    `median of the ${r.durations.length - RECENT} passing runs before them`,
                  ),
                  number('change_percent', trend.change, 'percent', 'recent median against earlier median'),
                ]
              : []),
          ],
          ...r.span.fields(),
        },
      };
    });
  }

  /** How many test-slot-waiting calls ran this job, of its timed runs. */
  waitedCalls(label: string): { waited: number; runs: number } {
    const r = this.jobs.get(label);
    return { waited: r?.inWaitedCalls ?? 0, runs: r?.durations.length ?? 0 };
  }
}

function trendOf(durations: readonly number[]): Trend | undefined {
  if (durations.length < RECENT * 2) return undefined;
  const recent = median(durations.slice(-RECENT));
  const earlier = median(durations.slice(0, -RECENT));
  return { recent, earlier, change: earlier === 0 ? 0 : Math.round(((recent - earlier) / earlier) * 1000) / 10 };
}
