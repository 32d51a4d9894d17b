// Public surface of checkpoints: evaluate the governing checkpoints at a revision, read where its questions
// stand in a checkout, record declarations, and bind them to Proof. Verbs (done, accept, checkpoints) and any
// landing path that must serve checkpoint questions without running jobs use these.
import type { CheckpointEvaluation } from './evaluate-revision.js';
import { readStore, syncStore, writeStore, type Declarations, type QuestionStore } from './store.js';

export { evaluateCheckpointsAt, type CheckpointEvaluation, type CheckpointResult, type EvaluateOptions } from './evaluate-revision.js';
export { declarationsFrom, unknownDeclarations, type DeclarationInput } from './declarations.js';
export { outstandingLines, proofCheckpoints, questionOf, reviewQuestions, variancesNeeded, type Review } from './review.js';
export { declarationsCurrent, declarationsIdentity, readStore, stateOf, storePath, syncStore, writeStore, type Declarations, type QuestionStore, type QuestionState } from './store.js';
export { compileCheckpoints, type CheckpointDefinition } from './definitions.js';
export type { CheckpointDrop } from './governing-config.js';

/**
 * Records declarations for the questions `evaluation` raises in the checkout whose git directory is `gitDir`
 * (and refreshes the record of every firing question). Callers validate the ids first (unknownDeclarations).
 */
export async function recordDeclarations(gitDir: string, evaluation: CheckpointEvaluation, declarations: Declarations, now = new Date().toISOString()): Promise<QuestionStore> {
  const next = syncStore(await readStore(gitDir), evaluation, declarations, now);
  await writeStore(gitDir, next);
  return next;
}
