// Recurring failure messages: the same first line (normalised: normalise.ts) heading a job's failures across
// runs. The denominator is the job's failures that carried a first line, so a message that heads every failure
// of a job reads differently from one among many.
import { failureKey, normaliseFailure } from '../normalise.js';
import type { ReadEvent } from '../read.js';
import { number, Span, type Detector, type RankedFinding } from './common.js';

export const MIN_OCCURRENCES = 3;
/** Distinct messages tracked; a logbook with more keeps counting the ones it has. */
const MAX_KEYS = 5000;

interface Message {
  label: string;
  signature: string;
  count: number;
  /** The latest raw line, as the job printed it. */
  sample: string;
  span: Span;
}

export class RecurringFailures implements Detector {
  readonly name = 'recurring-failures' as const;
  readonly requirement = `the same normalised first line heading at least ${MIN_OCCURRENCES} failures of one job`;
  considered = 0;
  private readonly messages = new Map<string, Message>();
  private readonly failures = new Map<string, number>();

  consider({ event, t }: ReadEvent): void {
    if (!event.jobs) return;
    let any = false;
    for (const job of event.jobs) {
      if (job.outcome !== 'failed' || typeof job.first !== 'string' || job.first.length === 0) continue;
      any = true;
      this.failures.set(job.label, (this.failures.get(job.label) ?? 0) + 1);
      const signature = normaliseFailure(job.first);
      const key = `${job.label}\u0000${signature}`;
      let message = this.messages.get(key);
      if (!message) {
        if (this.messages.size >= MAX_KEYS) continue;
        message = { label: job.label, signature, count: 0, sample: job.first, span: new Span() };
        this.messages.set(key, message);
      }
      message.count++;
      message.sample = job.first;
      message.span.see(t);
    }
    if (any) this.considered++;
  }

  findings(): RankedFinding[] {
    const out: RankedFinding[] = [];
    for (const m of this.messages.values()) {
      if (m.count < MIN_OCCURRENCES) continue;
      const failures = this.failures.get(m.label) ?? m.count;
      out.push({
        magnitude: m.count,
        finding: {
          id: `recurring-failures:${m.label}:${failureKey(m.signature)}`,
          detector: this.name,
          subject: m.label,
          title: `\`${m.label}\` keeps failing with the same message`,
          observation: `${m.count} of the ${failures} failures of \`${m.label}\` began with the same line, most recently: ${m.sample}`,
          numbers: [
            number(
              'occurrences',
              m.count,
              'runs',
              `failed runs of the job headed by this line, of its failed runs that printed one`,
              failures,
            ),
          ],
          ...m.span.fields(),
        },
      });
    }
    return out;
  }

  /** The normalised line behind a finding of this detector, for investigations. */
  signatureOf(id: string): { label: string; signature: string } | undefined {
    for (const m of this.messages.values())
      if (`recurring-failures:${m.label}:${failureKey(m.signature)}` === id)
        return { label: m.label, signature: m.signature };
    return undefined;
  }
}
