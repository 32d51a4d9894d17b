// Landings refused and why: accept calls that did not land, grouped by their error slug, with the latest
// message; and submissions an acceptance run refused or failed, grouped by status, with the latest reason.
// The denominator is the accept calls in the window.
import type { ReadEvent } from '../read.js';
import { number, plural, Span, type Detector, type RankedFinding } from './common.js';

export const MIN_REFUSALS = 2;

interface Reason {
  subject: string;
  count: number;
  sample?: string;
  span: Span;
  /** Failed jobs of the refused calls, by label (for the flaky-refusals investigation). */
  failedJobs: Map<string, number>;
}

export class RefusedLandings implements Detector {
  readonly name = 'refused-landings' as const;
  readonly requirement = `at least ${MIN_REFUSALS} accept calls refused with the same error slug (or submissions refused or failed alike)`;
  considered = 0;
  private readonly reasons = new Map<string, Reason>();

  consider({ event, t }: ReadEvent): void {
    if (event.verb !== 'accept') return;
    this.considered++;
    if (event.outcome !== 'ok') {
      const reason = this.reason(event.outcome, event.outcome);
      reason.count++;
      if (typeof event.message === 'string') reason.sample = event.message;
      reason.span.see(t);
      for (const job of event.jobs ?? [])
        if (job.outcome === 'failed') reason.failedJobs.set(job.label, (reason.failedJobs.get(job.label) ?? 0) + 1);
    }
    for (const landing of Array.isArray(event.landings) ? event.landings : []) {
      if (typeof landing.status !== 'string') continue;
      const reason = this.reason(`landing-${landing.status}`, `submission ${landing.status}`);
      reason.count++;
      if (typeof landing.reason === 'string') reason.sample = landing.reason;
      reason.span.see(t);
    }
  }

  private reason(key: string, subject: string): Reason {
    let reason = this.reasons.get(key);
    if (!reason) {
      reason = { subject, count: 0, span: new Span(), failedJobs: new Map() };
      this.reasons.set(key, reason);
    }
    return reason;
  }

  findings(): RankedFinding[] {
    const out: RankedFinding[] = [];
    for (const [key, r] of this.reasons) {
      if (r.count < MIN_REFUSALS) continue;
      const submission = key.startsWith('landing-');
      out.push({
        magnitude: r.count,
        finding: {
          id: `refused-landings:${key}`,
          detector: this.name,
          subject: r.subject,
          title: submission
            ? `Submissions ${r.subject.replace('submission ', '')}`
            : `Landings refused with \`${key}\``,
          observation: submission
            ? `${plural(r.count, 'submission')} ${r.subject.replace('submission ', 'were ')} in ${plural(this.considered, 'accept call')}${r.sample ? `; the latest reason: ${r.sample}` : '.'}`
            : `${r.count} of ${plural(this.considered, 'accept call')} were refused with \`${key}\`${r.sample ? `; the latest message: ${r.sample}` : '.'}`,
          numbers: [
            number(
              submission ? 'submissions' : 'refusals',
              r.count,
              submission ? 'submissions' : 'calls',
              submission
                ? 'submissions with this status, across the accept calls'
                : 'accept calls refused with this slug, of the accept calls',
              this.considered,
            ),
          ],
          ...r.span.fields(),
        },
      });
    }
    return out;
  }

  /** Refused accept calls of this slug in which the job failed. */
  refusalsWithFailedJob(slug: string, label: string): number {
    return this.reasons.get(slug)?.failedJobs.get(label) ?? 0;
  }
}
