// Investigations: registered relationships between findings. Each one names the findings it relates (all of
// them present in the result), repeats their observations and numbers as they stand, adds the count that ties
// them together, and says what the evidence cannot show, what the findings together suggest, how to check it,
// and what would prove it wrong. A relationship is stated only when its tying count clears its requirement;
// otherwise there is no investigation, and an empty list says exactly that.
import type { DiscernPatternsFinding, DiscernPatternsInvestigation } from '../../../generated/types.js';
import { number } from './detectors/common.js';
import type { FlakyJobs } from './detectors/flaky-jobs.js';
import type { RecurringFailures } from './detectors/recurring-failures.js';
import type { RefusedLandings } from './detectors/refused-landings.js';
import type { SlowJobs } from './detectors/slow-jobs.js';
import { MIN_WAITED_CALLS } from './detectors/test-slot-waits.js';

export const MIN_LINK = 2;

export interface InvestigationSources {
  flaky: FlakyJobs;
  recurring: RecurringFailures;
  refused: RefusedLandings;
  slow: SlowJobs;
}

const TREE_BOUNDARY =
  "The logbook holds each failed job's first diagnostic line, not its output, and knows a tree only for runs on a clean checkout whose HEAD held still during the call";

export function investigate(
  findings: readonly DiscernPatternsFinding[],
  sources: InvestigationSources,
): DiscernPatternsInvestigation[] {
  const by = (detector: string): DiscernPatternsFinding[] => findings.filter((f) => f.detector === detector);
  const out: DiscernPatternsInvestigation[] = [];
  for (const flaky of by('flaky-jobs')) {
    const job = flaky.subject;
    for (const recurring of by('recurring-failures').filter((f) => f.subject === job)) {
      const signature = sources.recurring.signatureOf(recurring.id);
      const link = signature ? sources.flaky.signatureCount(job, signature.signature) : 0;
      if (link < MIN_LINK) continue;
      out.push(
        build(
          'flaky-signature',
          [flaky, recurring],
          [
            number(
              'contradicted_failures',
              link,
              'trees',
              'trees where a failure headed by this line was followed by a pass on the same tree',
            ),
          ],
          {
            boundary: `${TREE_BOUNDARY}; it cannot tell what differed between the failing and the passing run.`,
            interpretation: `The line that keeps heading \`${job}\`'s failures is also what its failures look like when a rerun of the same tree passes: it is more likely the symptom of the job's nondeterminism than of a defect in the code.`,
            action: `Run \`${job}\` several times on one unchanged tree (\`discern test\` repeatedly, without editing) and read the output of each failing run (its output_path): check whether this line appears only in the failing runs and what precedes it.`,
            falsifier: `\`${job}\` fails with this line on every rerun of some tree (a deterministic failure), or its failures that a rerun contradicted show other lines as often as this one.`,
          },
        ),
      );
    }
    for (const refused of by('refused-landings').filter((f) => !f.id.startsWith('refused-landings:landing-'))) {
      const slug = refused.id.slice('refused-landings:'.length);
      const link = sources.refused.refusalsWithFailedJob(slug, job);
      if (link < MIN_LINK) continue;
      out.push(
        build(
          'flaky-refusals',
          [flaky, refused],
          [
            number(
              'refusals_with_job_failed',
              link,
              'calls',
              `accept calls refused with \`${slug}\` in which \`${job}\` failed`,
            ),
          ],
          {
            boundary: `${TREE_BOUNDARY}; a refused landing records its slug, its message and its failed jobs, not whether a rerun would have passed.`,
            interpretation: `Some landings were refused by a failure of \`${job}\`, a job that also fails intermittently: part of those refusals may be the job's noise rather than a problem in the submitted work.`,
            action: `For a refused submission, rerun its validation on the same commit (\`discern done --rerun\` in its worktree) and see whether \`${job}\` passes; stabilise or quarantine the job if it does.`,
            falsifier: `\`${job}\` fails again on every rerun of the refused submissions' trees: the refusals were deserved.`,
          },
        ),
      );
    }
  }
  const waits = by('test-slot-waits')[0];
  if (waits) {
    for (const slow of by('slow-jobs')) {
      const { waited, runs } = sources.slow.waitedCalls(slow.subject);
      if (waited < MIN_WAITED_CALLS) continue;
      out.push(
        build(
          'slot-contention',
          [waits, slow],
          [
            number(
              'waited_calls_running_job',
              waited,
              'calls',
              `calls that waited for a slot and then ran \`${slow.subject}\`, of its timed passing runs`,
              runs,
            ),
          ],
          {
            boundary:
              'The logbook records how long each call waited and how long its jobs took, not which call held the slot it waited for.',
            interpretation: `\`${slow.subject}\` runs in the calls that hold test slots, and it is among the slowest jobs: its duration plausibly sets how long other calls wait.`,
            action: `Compare the waits with \`${slow.subject}\`'s durations over the same days; then make it faster, or raise [gate] concurrent_test_runs, and watch whether the waits shrink.`,
            falsifier: `The waits stay as long after \`${slow.subject}\` gets faster, or calls wait in periods when no call ran \`${slow.subject}\`.`,
          },
        ),
      );
    }
  }
  return out;
}

function build(
  relationship: string,
  sources: readonly [DiscernPatternsFinding, DiscernPatternsFinding],
  link: DiscernPatternsInvestigation['link'],
  text: Pick<DiscernPatternsInvestigation, 'boundary' | 'interpretation' | 'action' | 'falsifier'>,
): DiscernPatternsInvestigation {
  return {
    id: `${relationship}:${sources.map((s) => s.id).join('+')}`,
    relationship,
    sources: [sources[0].id, sources[1].id],
    evidence: [evidenceOf(sources[0]), evidenceOf(sources[1])],
    ...(link ? { link } : {}),
    ...text,
  };
}

/** A source finding's observation and numbers, repeated exactly as the finding states them. */
function evidenceOf(finding: DiscernPatternsFinding): DiscernPatternsInvestigation['evidence'][number] {
  return { finding: finding.id, observation: finding.observation, numbers: finding.numbers };
}
