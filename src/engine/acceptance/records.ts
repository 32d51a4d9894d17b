// What acceptance keeps under the git common dir, so it outlives the worktree it describes: submissions (the
// landing queue), the owner's effort grants, and acceptance transactions (an interrupted landing is finished
// or rolled back by the next call). One JSON file per effort in each directory, written atomically.
import { readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { StateGrant, StateRecords, StateSubmission, StateTransaction } from '../../../generated/state-types.js';
import type { DiscernAcceptanceStep } from '../../../generated/types.js';
import { isTempName } from '../state/atomic-write.js';
import { sealedRecordOrUndefined } from '../state/state-record.js';
import { writeSealed } from '../state/seal.js';

export const RECORD_FORMAT = 1;

/** The records' shapes are spec/state/{submission,grant,transaction}.schema.json. */
export type Submission = StateSubmission;
export type Grant = StateGrant;
export type Transaction = StateTransaction;

/** The named steps of a landing, in order (spec/vocabularies.yaml acceptance_step); the file says how far it got. */
export type TransactionStep = DiscernAcceptanceStep;

export interface AcceptancePaths {
  /** The git common dir: the records seal under its repository key. */
  commonDir: string;
  submissions: string;
  grants: string;
  transactions: string;
  integration: string;
}

export function acceptancePaths(commonDir: string): AcceptancePaths {
  const root = join(commonDir, 'discern');
  return {
    commonDir,
    submissions: join(root, 'submissions'),
    grants: join(root, 'grants'),
    transactions: join(root, 'acceptance'),
    integration: join(root, 'integration'),
  };
}

function fileFor(dir: string, effort: string): string {
  return join(dir, `${effort}.json`);
}

type Kind = 'submission' | 'grant' | 'transaction';

/**
 * One record through the sealed reader: a damaged, hand-written or copied one reads as absent, and the call's
 * result says so. A transaction is read even unsealed: its recovery only completes or rolls back what it names,
 * checked against git, and never starts a landing.
 */
function readOne<K extends Kind>(
  kind: K,
  paths: AcceptancePaths,
  dir: string,
  effort: string,
): Promise<StateRecords[K] | undefined> {
  return sealedRecordOrUndefined(
    kind,
    fileFor(dir, effort),
    paths.commonDir,
    kind === 'transaction' ? { unsealed: 'honour' } : {},
  );
}

async function readAll<K extends Kind>(kind: K, paths: AcceptancePaths, dir: string): Promise<StateRecords[K][]> {
  const names = await readdir(dir).catch(() => [] as string[]);
  const out: StateRecords[K][] = [];
  for (const name of names.filter((n) => n.endsWith('.json') && !isTempName(n)).sort()) {
    const value = await readOne(kind, paths, dir, name.slice(0, -'.json'.length));
    if (value !== undefined) out.push(value);
  }
  return out;
}

function write(kind: Kind, paths: AcceptancePaths, dir: string, effort: string, value: object): Promise<void> {
  return writeSealed(kind, fileFor(dir, effort), value, paths.commonDir);
}

function remove(dir: string, effort: string): Promise<void> {
  return rm(fileFor(dir, effort), { force: true });
}

export const submissions = {
  read: (paths: AcceptancePaths, effort: string) => readOne('submission', paths, paths.submissions, effort),
  all: (paths: AcceptancePaths) => readAll('submission', paths, paths.submissions),
  write: (paths: AcceptancePaths, s: Submission) => write('submission', paths, paths.submissions, s.effort, s),
  remove: (paths: AcceptancePaths, effort: string) => remove(paths.submissions, effort),
};

export const grants = {
  read: (paths: AcceptancePaths, effort: string) => readOne('grant', paths, paths.grants, effort),
  all: (paths: AcceptancePaths) => readAll('grant', paths, paths.grants),
  write: (paths: AcceptancePaths, g: Grant) => write('grant', paths, paths.grants, g.effort, g),
  remove: (paths: AcceptancePaths, effort: string) => remove(paths.grants, effort),
};

export const transactions = {
  read: (paths: AcceptancePaths, effort: string) => readOne('transaction', paths, paths.transactions, effort),
  all: (paths: AcceptancePaths) => readAll('transaction', paths, paths.transactions),
  write: (paths: AcceptancePaths, t: Transaction) => write('transaction', paths, paths.transactions, t.effort, t),
  remove: (paths: AcceptancePaths, effort: string) => remove(paths.transactions, effort),
};
