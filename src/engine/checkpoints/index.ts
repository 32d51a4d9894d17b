// Public surface of checkpoints: evaluate the governing checkpoints at a revision, read where its questions
// stand in a checkout, record declarations, and bind them to Proof. Verbs (done, accept, checkpoints) and any
// landing path that must serve checkpoint questions without running jobs use these.
import { evaluateCheckpointsAt, type CheckpointEvaluation, type EvaluateOptions } from './evaluate-revision.js';
import { unknownDeclarations } from './declarations.js';
import { reviewQuestions, type Review } from './review.js';
import { readStore, syncStore, writeStore, type Declarations, type QuestionStore } from './store.js';

export {
  evaluateCheckpointsAt,
  type CheckpointEvaluation,
  type CheckpointResult,
  type EvaluateOptions,
} from './evaluate-revision.js';
export { declarationsFrom, unknownDeclarations, type DeclarationInput } from './declarations.js';
export {
  outstandingLines,
  proofCheckpoints,
  questionOf,
  reviewQuestions,
  variancesNeeded,
  type Review,
} from './review.js';
export {
  declarationsCurrent,
  declarationsIdentity,
  readStore,
  stateOf,
  storePath,
  syncStore,
  writeStore,
  type Declarations,
  type QuestionStore,
  type QuestionState,
} from './store.js';
export { compileCheckpoints, type CheckpointDefinition } from './definitions.js';
export type { CheckpointDrop } from './governing-config.js';

/**
 * Records declarations for the questions `evaluation` raises in the checkout whose git directory is `gitDir`
 * (and refreshes the record of every firing question). Callers validate the ids first (unknownDeclarations).
 */
export async function recordDeclarations(
  gitDir: string,
  evaluation: CheckpointEvaluation,
  declarations: Declarations,
  now = new Date().toISOString(),
): Promise<QuestionStore> {
  const previous = await readStore(gitDir);
  const next = syncStore(previous, evaluation, declarations, now);
  // Unchanged (no checkpoint governs, or nothing new fired or was declared): nothing is written.
  if (JSON.stringify(next) !== JSON.stringify(previous)) await writeStore(gitDir, next);
  return next;
}

export interface ServeOptions extends EvaluateOptions {
  /** The git directory of the checkout whose record holds the declarations (`git rev-parse --absolute-git-dir`). */
  gitDir: string;
  /** Declarations to record before reviewing; validated first (unknown ids record nothing). */
  declarations?: Declarations;
  /** false: review against the record without writing it (a preview). */
  record?: boolean;
}

export interface Served {
  evaluation: CheckpointEvaluation;
  review: Review;
  /** Set when a declaration names no question the revision raises: nothing was recorded. */
  unknown?: string;
}

/**
 * Serves the checkpoint questions of a revision without running any job: evaluate under the merge-base's
 * config, record the given declarations (bound to each question's definition and subject), and review where
 * every question stands. `review.outstanding` holds the stop questions still without a current declaration;
 * `proofCheckpoints(review)` is what a record of the landing should carry.
 */
export async function serveQuestions(options: ServeOptions): Promise<Served> {
  const evaluation = await evaluateCheckpointsAt(options);
  const declarations = options.declarations ?? { met: [], unmet: [] };
  const unknown =
    declarations.met.length + declarations.unmet.length > 0 ? unknownDeclarations(declarations, evaluation) : undefined;
  if (unknown !== undefined)
    return { evaluation, review: reviewQuestions(evaluation, await readStore(options.gitDir)), unknown };
  const store =
    options.record === false
      ? await readStore(options.gitDir)
      : await recordDeclarations(options.gitDir, evaluation, declarations);
  return { evaluation, review: reviewQuestions(evaluation, store) };
}
