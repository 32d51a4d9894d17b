// Kept compositions: when the trunk moved and the composed result raises checkpoint questions, acceptance keeps
// the integration worktree and records what it served — the receipt, the composed commit, the trunk tip and
// the effort's head it was made from, and the questions — so a follow-up call that names the receipt continues
// that same landing, and one whose receipt no longer matches is refused (docs/decisions/0028). One JSON file per
// effort under <git-common-dir>/discern/compositions/, written atomically.
import { createHash } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { StateComposition } from '../../../generated/state-types.js';
import { writeFileAtomic } from '../state/atomic-write.js';
import { stateRecordOrUndefined } from '../state/state-record.js';

export const COMPOSITION_FORMAT = 1;

/** The record's shape is spec/state/composition.schema.json. */
export type KeptComposition = StateComposition;

function fileFor(commonDir: string, effort: string): string {
  return join(commonDir, 'discern', 'compositions', `${effort}.json`);
}

export function readComposition(commonDir: string, effort: string): Promise<KeptComposition | undefined> {
  return stateRecordOrUndefined('composition', fileFor(commonDir, effort));
}

export function writeComposition(commonDir: string, kept: KeptComposition): Promise<void> {
  return writeFileAtomic(fileFor(commonDir, kept.effort), `${JSON.stringify(kept, null, 2)}\n`);
}

export function removeComposition(commonDir: string, effort: string): Promise<void> {
  return rm(fileFor(commonDir, effort), { force: true });
}

/** The receipt: bound to the composed commit, the trunk tip, the effort's head and the question set. */
export function compositionReceipt(
  commit: string,
  trunkTip: string,
  head: string,
  questions: readonly string[],
): string {
  const digest = createHash('sha256')
    .update([commit, trunkTip, head, ...[...questions].sort()].join('\0'))
    .digest('hex');
  return `CR-${digest.slice(0, 20)}`;
}
