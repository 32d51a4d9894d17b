// The questions a change raises, as results show them: each firing checkpoint with its state against the
// store, which stop questions are still outstanding (no current declaration), the declarations on record, and
// what a Proof carries. Pure.
import type {
  DiscernCheckpointDrop,
  DiscernCheckpointQuestion,
  DiscernCheckpointUnmet,
  DiscernProofCheckpoints,
} from '../../../generated/types.js';
import type { CheckpointEvaluation, CheckpointResult } from './evaluate-revision.js';
import { MATCHED_SHOWN, stateOf, type QuestionStore } from './store.js';

export interface Review {
  /** Every question the change raises (firing checkpoints), stop and advise, with its state. */
  questions: DiscernCheckpointQuestion[];
  /** Stop questions awaiting a declaration or reopened: done refuses while any remain. */
  outstanding: DiscernCheckpointQuestion[];
  advise: DiscernCheckpointQuestion[];
  declaredMet: string[];
  declaredUnmet: DiscernCheckpointUnmet[];
  drops: DiscernCheckpointDrop[];
}

export function reviewQuestions(evaluation: CheckpointEvaluation, store: QuestionStore): Review {
  const questions = evaluation.results.filter((r) => r.holds).map((r) => questionOf(r, store));
  const declaredUnmet: DiscernCheckpointUnmet[] = [];
  for (const q of questions) {
    if (q.state === 'declared_unmet')
      declaredUnmet.push({
        id: q.id,
        why: q.declaration?.why ?? '',
        mode: q.mode,
        definition_hash: q.definition_hash,
        subject: q.subject,
      });
  }
  return {
    questions,
    outstanding: questions.filter(
      (q) => q.mode === 'stop' && (q.state === 'awaiting_declaration' || q.state === 'reopened'),
    ),
    advise: questions.filter((q) => q.mode === 'advise'),
    declaredMet: questions.filter((q) => q.state === 'declared_met').map((q) => q.id),
    declaredUnmet,
    drops: evaluation.drops.map((d) => ({
      kind: d.kind,
      reason: d.reason,
      ...(d.checkpoint !== undefined ? { checkpoint: d.checkpoint } : {}),
    })),
  };
}

export function questionOf(r: CheckpointResult, store: QuestionStore): DiscernCheckpointQuestion {
  const { state, declaration } = stateOf(r, store.questions[r.id]);
  return {
    id: r.id,
    mode: r.mode,
    question: r.question,
    ...(r.questionFile !== undefined ? { question_file: r.questionFile } : {}),
    ...(r.teach !== undefined ? { teach: r.teach } : {}),
    ...(r.reference !== undefined ? { reference: r.reference } : {}),
    state,
    definition_hash: r.definitionHash,
    subject: r.subject,
    matched: r.matched.slice(0, MATCHED_SHOWN).map((f) => f.path),
    matched_total: r.matched.length,
    why: r.why,
    ...(declaration
      ? {
          declaration: {
            conclusion: declaration.conclusion,
            ...(declaration.why !== undefined ? { why: declaration.why } : {}),
            declared_at: declaration.declared_at,
            current: declaration.current,
          },
        }
      : {}),
  };
}

/** What a Proof records about checkpoints; undefined when there is nothing to record. */
export function proofCheckpoints(review: Review): DiscernProofCheckpoints | undefined {
  if (review.declaredMet.length === 0 && review.declaredUnmet.length === 0 && review.drops.length === 0)
    return undefined;
  return {
    declared_met: review.declaredMet,
    declared_unmet: review.declaredUnmet,
    ...(review.drops.length > 0 ? { drops: review.drops } : {}),
  };
}

/** Unmet stop declarations: landing them needs the owner's variance. */
export function variancesNeeded(checkpoints: DiscernProofCheckpoints | undefined): DiscernCheckpointUnmet[] {
  return (checkpoints?.declared_unmet ?? []).filter((u) => u.mode === 'stop');
}

/** One line per outstanding question, for refusal messages. */
export function outstandingLines(outstanding: readonly DiscernCheckpointQuestion[]): string {
  return outstanding
    .map(
      (q) =>
        `${q.id}${q.state === 'reopened' ? ' (reopened: its files changed since the declaration)' : ''} — “${q.question}”`,
    )
    .join('; ');
}
