// The checkout's open checkpoint questions and their declarations, one JSON file under the checkout's own git
// directory (<git-dir>/discern/checkpoint-open-questions), written atomically. Per checkout because a
// declaration is about this checkout's change; kept beside the Proof marker it feeds. One entry per checkpoint
// id: a changed definition replaces the entry (a new question), a changed subject keeps the declaration but no
// longer counts it (the question reopens) until it is declared again.
import { join } from 'node:path';
import { writeFileAtomic } from '../state/atomic-write.js';
import { stateRecordOrUndefined } from '../state/state-record.js';
import type { CheckpointMode } from './definitions.js';
import type { CheckpointEvaluation, CheckpointResult } from './evaluate-revision.js';

export const STORE_FORMAT = 1 as const;
export const MATCHED_SHOWN = 12;

export type Conclusion = 'met' | 'unmet';

export interface StoredDeclaration {
  conclusion: Conclusion;
  why?: string;
  declared_at: string;
  definition_hash: string;
  subject: string;
}

export interface StoredQuestion {
  definition_hash: string;
  subject: string;
  mode: CheckpointMode;
  matched: string[];
  matched_total: number;
  opened_at: string;
  declaration?: StoredDeclaration;
}

export interface QuestionStore {
  format: typeof STORE_FORMAT;
  questions: Record<string, StoredQuestion>;
}

export type QuestionState = 'awaiting_declaration' | 'declared_met' | 'declared_unmet' | 'reopened';

export interface Declarations {
  met: readonly string[];
  unmet: readonly { id: string; why: string }[];
}

export function storePath(gitDir: string): string {
  return join(gitDir, 'discern', 'checkpoint-open-questions');
}

/** A missing or unreadable store reads as empty: every question is then awaiting a declaration (fails closed). */
export async function readStore(gitDir: string): Promise<QuestionStore> {
  const store = await stateRecordOrUndefined('checkpoint-questions', storePath(gitDir));
  if (store === undefined) return { format: STORE_FORMAT, questions: {} };
  const questions: Record<string, StoredQuestion> = {};
  for (const [id, question] of Object.entries(store.questions)) if (question !== undefined) questions[id] = question;
  return { format: STORE_FORMAT, questions };
}

export function writeStore(gitDir: string, store: QuestionStore): Promise<void> {
  return writeFileAtomic(storePath(gitDir), `${JSON.stringify(store, null, 2)}\n`);
}

/** Where one firing question stands against what the store recorded. */
export function stateOf(
  result: Pick<CheckpointResult, 'definitionHash' | 'subject'>,
  stored: StoredQuestion | undefined,
): { state: QuestionState; declaration?: StoredDeclaration & { current: boolean } } {
  const declaration = stored?.definition_hash === result.definitionHash ? stored.declaration : undefined;
  if (declaration === undefined || declaration.definition_hash !== result.definitionHash)
    return { state: 'awaiting_declaration' };
  const current = declaration.subject === result.subject;
  if (!current) return { state: 'reopened', declaration: { ...declaration, current } };
  return {
    state: declaration.conclusion === 'met' ? 'declared_met' : 'declared_unmet',
    declaration: { ...declaration, current },
  };
}

/**
 * The store after this evaluation and these declarations: every firing question is recorded (opened now when it
 * is new or its definition changed), a declaration is bound to the question's definition and subject as they are
 * now, and entries of checkpoints that no longer exist go. Pure: the caller writes it.
 */
export function syncStore(
  store: QuestionStore,
  evaluation: CheckpointEvaluation,
  declarations: Declarations,
  now: string,
): QuestionStore {
  const questions: Record<string, StoredQuestion> = {};
  const defined = new Set(evaluation.results.map((r) => r.id));
  for (const [id, q] of Object.entries(store.questions)) if (defined.has(id)) questions[id] = q;
  for (const r of evaluation.results) {
    if (!r.holds) continue;
    const previous = questions[r.id];
    const same = previous !== undefined && previous.definition_hash === r.definitionHash;
    const entry: StoredQuestion = {
      definition_hash: r.definitionHash,
      subject: r.subject,
      mode: r.mode,
      matched: r.matched.slice(0, MATCHED_SHOWN).map((f) => f.path),
      matched_total: r.matched.length,
      opened_at: same ? previous.opened_at : now,
      ...(same && previous.declaration ? { declaration: previous.declaration } : {}),
    };
    const unmet = declarations.unmet.find((u) => u.id === r.id);
    if (declarations.met.includes(r.id))
      entry.declaration = {
        conclusion: 'met',
        declared_at: now,
        definition_hash: r.definitionHash,
        subject: r.subject,
      };
    else if (unmet)
      entry.declaration = {
        conclusion: 'unmet',
        why: unmet.why,
        declared_at: now,
        definition_hash: r.definitionHash,
        subject: r.subject,
      };
    questions[r.id] = entry;
  }
  return { format: STORE_FORMAT, questions };
}

/**
 * The declarations the store holds, without their times, as one canonical text: what the Proof marker was
 * recorded with, so a changed declaration (or rationale) makes the Proof stale while re-declaring the same
 * answer does not.
 */
export function declarationsIdentity(store: QuestionStore): string {
  const entries = Object.entries(store.questions)
    .filter(([, q]) => q.declaration !== undefined)
    .map(([id, q]) => {
      const d = q.declaration as StoredDeclaration;
      return [id, d.conclusion, d.why ?? '', d.definition_hash, d.subject];
    })
    .sort(([a], [b]) => ((a ?? '') < (b ?? '') ? -1 : (a ?? '') > (b ?? '') ? 1 : 0));
  return JSON.stringify(entries);
}

/**
 * Whether a Proof marker was recorded with the declarations the checkout holds now (a marker from before
 * checkpoints: none). Cheap: one small file, no hashing — done's reuse path asks it.
 */
export async function declarationsCurrent(
  marker: { checkpoint_declarations?: string },
  gitDir: string,
): Promise<boolean> {
  return (marker.checkpoint_declarations ?? '[]') === declarationsIdentity(await readStore(gitDir));
}
