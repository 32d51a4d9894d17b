// Kept compositions: when the trunk moved and the composed result raises checkpoint questions, acceptance keeps
// the integration worktree and records what it served — the receipt, the composed commit, the trunk tip and
// the effort's head it was made from, and the questions — so a follow-up call that names the receipt continues
// that same landing, and one whose receipt no longer matches is refused (docs/decisions/0028). One JSON file per
// effort under <git-common-dir>/discern/compositions/, written atomically.
import { createHash } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { readJsonFile, writeFileAtomic } from '../state/atomic-write.js';

export const COMPOSITION_FORMAT = 1;

export interface KeptComposition {
  format: typeof COMPOSITION_FORMAT;
  receipt: string;
  effort: string;
  branch: string;
  /** The effort's head that was composed. */
  head: string;
  /** The trunk tip it was composed with. */
  trunk_tip: string;
  /** The composed commit, in the integration worktree. */
  commit: string;
  integration: { path: string; branch: string };
  /** The stop questions it raised when served: `id:definition_hash:subject`. */
  questions: string[];
  created_at: string;
}

function fileFor(commonDir: string, effort: string): string {
  return join(commonDir, 'discern', 'compositions', `${effort}.json`);
}

export async function readComposition(commonDir: string, effort: string): Promise<KeptComposition | undefined> {
  const read = await readJsonFile<KeptComposition>(fileFor(commonDir, effort));
  if (
    !read.ok ||
    typeof read.value !== 'object' ||
    read.value === null ||
    read.value.format !== COMPOSITION_FORMAT ||
    typeof read.value.receipt !== 'string'
  )
    return undefined;
  return read.value;
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
