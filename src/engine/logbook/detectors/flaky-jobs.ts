// Flaky jobs: a job that failed on a tree and later passed on that same tree. Code cannot explain the change,
// so something else did (timing, order, the network, shared state). Only runs whose tree is known count: the
// checkout was clean at one HEAD before and after the call (tree-probe.ts). The denominator is the trees the
// job failed on, so "2 of 2" and "2 of 40" read differently. Memory grows with failed trees only.
import { normaliseFailure } from '../normalise.js';
import type { ReadEvent } from '../read.js';
import { number, plural, Span, type Detector, type RankedFinding } from './common.js';

export const MIN_FLIPPED_TREES = 2;

interface FailedTree {
  /** A failure not yet followed by a pass on this tree, and its normalised first line. */
  pending: boolean;
  signature?: string;
  flipped: boolean;
}

interface JobRecord {
  runs: number;
  failures: number;
  failedTrees: Map<string, FailedTree>;
  flipped: number;
  span: Span;
  /** Normalised first lines of the failures a pass on the same tree later contradicted. */
  signatures: Map<string, number>;
}

export class FlakyJobs implements Detector {
  readonly name = 'flaky-jobs' as const;
  readonly requirement = `a job that failed and later passed on the same tree, on at least ${MIN_FLIPPED_TREES} trees (runs on a clean checkout whose HEAD held still during the call)`;
  considered = 0;
  private readonly jobs = new Map<string, JobRecord>();

  consider({ event, t }: ReadEvent): void {
    if (!event.jobs || typeof event.tree !== 'string') return;
    this.considered++;
    for (const job of event.jobs) {
      if (job.outcome !== 'ok' && job.outcome !== 'failed') continue;
      let record = this.jobs.get(job.label);
      if (!record) {
        record = { runs: 0, failures: 0, failedTrees: new Map(), flipped: 0, span: new Span(), signatures: new Map() };
        this.jobs.set(job.label, record);
      }
      record.runs++;
      const tree = record.failedTrees.get(event.tree);
      if (job.outcome === 'failed') {
        record.failures++;
        const signature = typeof job.first === 'string' ? normaliseFailure(job.first) : undefined;
        if (tree) {
          tree.pending = true;
          if (signature !== undefined) tree.signature = signature;
        } else
          record.failedTrees.set(event.tree, {
            pending: true,
            flipped: false,
            ...(signature !== undefined ? { signature } : {}),
          });
      } else if (tree?.pending) {
        tree.pending = false;
        if (!tree.flipped) {
          tree.flipped = true;
          record.flipped++;
          record.span.see(t);
          if (tree.signature !== undefined)
            record.signatures.set(tree.signature, (record.signatures.get(tree.signature) ?? 0) + 1);
        }
      }
    }
  }

  findings(): RankedFinding[] {
    const out: RankedFinding[] = [];
    for (const [label, r] of this.jobs) {
      if (r.flipped < MIN_FLIPPED_TREES) continue;
      out.push({
        magnitude: r.flipped,
        finding: {
          id: `flaky-jobs:${label}`,
          detector: this.name,
          subject: label,
          title: `\`${label}\` is flaky`,
          observation: `\`${label}\` failed and then passed on the same tree on ${r.flipped} of the ${plural(r.failedTrees.size, 'tree')} it failed on (${r.failures} failures in ${plural(r.runs, 'run')} on a known tree).`,
          numbers: [
            number(
              'flipped_trees',
              r.flipped,
              'trees',
              'trees where a failure was followed by a pass, of the trees the job failed on',
              r.failedTrees.size,
            ),
            number('failures', r.failures, 'runs', 'failed runs, of the runs on a known tree', r.runs),
          ],
          ...r.span.fields(),
        },
      });
    }
    return out;
  }

  /** How many of a job's contradicted failures showed this normalised first line. */
  signatureCount(label: string, signature: string): number {
    return this.jobs.get(label)?.signatures.get(signature) ?? 0;
  }
}
